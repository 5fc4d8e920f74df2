import { describe, expect, it } from "vitest";
import { machineTransitions, type TransitionInfo } from "../../models/coverage.js";
import {
  countText,
  coverageCounts,
  layoutOf,
  modelDiagram,
  shapeOf,
  stateName,
  thousands,
  transitionLabel,
} from "./model-chart.js";

type Layer = { data: { values: Record<string, unknown>[] }; mark: { type: string; strokeDash?: number[] } };
const layers = (spec: Record<string, unknown>) => spec.layer as Layer[];
const texts = (spec: Record<string, unknown>) =>
  layers(spec)
    .filter((l) => l.mark.type === "text")
    .flatMap((l) => l.data.values.map((v) => ({ text: String(v.text), color: v.color })));

describe("the model's transitions as drawn", () => {
  const ts = machineTransitions();
  const byId = (id: string) => ts.find((t) => t.id === id)!;

  it("draws a state change as an arrow, a re-entry as a loop, a targetless transition inside its box", () => {
    expect(shapeOf(byId("noneScheduled.AUTHORITY_EXEC.schedule"))).toBe("edge");
    expect(shapeOf(byId("scheduled.BLOCK.apply"))).toBe("edge");
    expect(shapeOf(byId("progressing.BLOCK.stall"))).toBe("edge");
    expect(shapeOf(byId("scheduled.PROPOSAL_EXECUTED.reschedule"))).toBe("self");
    expect(shapeOf(byId("stalled.BLOCK.stall"))).toBe("self");
    expect(shapeOf(byId("scheduled.BLOCK.keep"))).toBe("internal");
    expect(shapeOf(byId("NODE_STARTED.start"))).toBe("internal");
  });

  it("labels a transition without its source state", () => {
    expect(transitionLabel(byId("scheduled.BLOCK.keep"))).toBe("BLOCK.keep");
    expect(transitionLabel(byId("NODE_STOPPED.stop"))).toBe("NODE_STOPPED.stop");
    expect(stateName("upgradeLifecycle.chain.stalled")).toBe("stalled");
  });

  it("has a box for the four states and the root, inside the drawing", () => {
    const l = layoutOf(ts);
    expect(l.states.map((s) => s.name).sort()).toEqual(
      ["noneScheduled", "progressing", "scheduled", "stalled", "upgradeLifecycle"].sort(),
    );
    expect(l.states.filter((s) => s.initial).map((s) => s.name)).toEqual(["noneScheduled", "progressing"]);
    for (const s of l.states) expect(s.y + s.h).toBeLessThanOrEqual(l.height);
  });

  it("gives a state it does not know a box in an extra row (the machine may grow)", () => {
    const extra: TransitionInfo = {
      id: "paused.RESUME.go",
      source: "upgradeLifecycle.chain.paused",
      event: "RESUME",
      targets: ["upgradeLifecycle.chain.progressing"],
    };
    const l = layoutOf([...ts, extra]);
    const paused = l.states.find((s) => s.name === "paused")!;
    expect(paused.y).toBeGreaterThan(540);
    expect(l.height).toBeGreaterThan(paused.y + paused.h - 1);
  });
});

describe("modelDiagram", () => {
  const ts = machineTransitions();
  const counts = {
    "noneScheduled.AUTHORITY_EXEC.schedule": 1234,
    "scheduled.BLOCK.keep": 7,
    "progressing.BLOCK.commit": 98765,
  };
  const spec = modelDiagram(ts, counts) as Record<string, unknown>;

  it("labels every transition with its count, never-fired ones in red", () => {
    const all = texts(spec)
      .map((t) => t.text)
      .join("\n");
    for (const t of ts) expect(all).toContain(transitionLabel(t));
    expect(all).toContain("AUTHORITY_EXEC.schedule  ·  1,234×");
    expect(all).toContain("↻ BLOCK.commit  ·  98,765×");
    const keep = texts(spec).find((t) => t.text === "7×");
    expect(keep?.color).not.toBe("#cf222e");
    const never = texts(spec).filter((t) => t.text.includes("never fired"));
    expect(never.length).toBe(ts.length - 3);
    for (const n of never) expect(n.color).toBe("#cf222e");
  });

  it("draws never-fired arrows dashed, the others solid and wider the more they fired", () => {
    const [solid, dashed] = layers(spec).filter((l) => l.mark.type === "line");
    expect(dashed!.mark.strokeDash).toEqual([5, 4]);
    const edges = (l: Layer) => new Set(l.data.values.map((v) => v.edge));
    expect(edges(solid!).has("noneScheduled.AUTHORITY_EXEC.schedule")).toBe(true);
    expect(edges(dashed!).has("noneScheduled.PROPOSAL_EXECUTED.schedule")).toBe(true);
    const width = (edge: string) => solid!.data.values.find((v) => v.edge === edge)!.width as number;
    expect(width("progressing-loop")).toBeGreaterThan(width("noneScheduled.AUTHORITY_EXEC.schedule"));
  });

  it("has one arrowhead per arrow, loop and initial marker", () => {
    const heads = layers(spec).find((l) => l.mark.type === "point" && l.data.values.some((v) => "angle" in v))!;
    const edges = ts.filter((t) => shapeOf(t) === "edge").length;
    const loops = new Set(ts.filter((t) => shapeOf(t) === "self").map((t) => t.source)).size;
    expect(heads.data.values.length).toBe(edges + loops + 2);
  });
});

describe("number texts", () => {
  it("groups thousands without the host locale, and says when a transition never fired", () => {
    expect(thousands(0)).toBe("0");
    expect(thousands(999)).toBe("999");
    expect(thousands(1234567)).toBe("1,234,567");
    expect(countText(0)).toBe("never fired");
    expect(countText(5)).toBe("5×");
  });
});

describe("coverageCounts", () => {
  const ts = machineTransitions();

  it("takes the summary's counts", () => {
    expect(coverageCounts({ missing: [], counts: { a: 3 } }, ts)).toEqual({ a: 3 });
  });

  it("marks fired transitions of an older summary (no counts) as fired, count unknown, and labels them so", () => {
    const c = coverageCounts({ missing: ["scheduled.BLOCK.skip"] }, ts);
    expect(c["scheduled.BLOCK.skip"]).toBe(0);
    expect(c["scheduled.BLOCK.apply"]).toBeNull();
    expect(countText(null)).toBe("fired");
    const labels = texts(modelDiagram(ts, c) as Record<string, unknown>).map((t) => t.text);
    expect(labels).toContain("BLOCK.apply  ·  fired");
    expect(labels).toContain("BLOCK.skip  ·  never fired");
  });
});
