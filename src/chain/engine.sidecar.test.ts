import { describe, expect, it } from "vitest";
import { binary, testChain } from "../../test/kit/chain.js";
import type { SidecarConfig } from "../app/types.js";
import { govAuthority } from "../core/address.js";
import { durationMs } from "../core/brand.js";
import type { Action, Step, Trigger } from "./actions.js";

const PLAN = 20;
const DELAY_MS = 600_000;
const NODES = ["val1", "val2", "val3", "val4"];

const steps = (...list: [Trigger, Action][]): Step[] =>
  list.map(([trigger, action], index) => ({ index, trigger, action }));
const schedule = (name: string, height: number): Action => ({
  kind: "authorityExec",
  messages: [{ kind: "softwareUpgrade", authority: govAuthority(), plan: { name, height: BigInt(height), info: "" } }],
});
const sidecar = (binaries: Record<string, string> = {}): { sidecar: SidecarConfig } => ({
  sidecar: { enabled: true, delayMs: durationMs(DELAY_MS), binaries: new Map(Object.entries(binaries)) },
});
const allWith = (cfg: object) => Object.fromEntries(NODES.map((n) => [n, cfg]));
const trace = (lines: readonly string[]) => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
const timeOf = (l: Record<string, unknown>): number => Date.parse(String(l.time));

describe("sidecar", () => {
  it("swaps each node exactly `delay` of simulated time after its upgrade-needed halt (unique handler rule)", () => {
    const e = testChain({
      binaries: [binary("v1"), binary("v2", { v2: { handler: "noop" } })],
      engine: { keepTrace: true },
      nodes: allWith(sidecar()),
      steps: steps([{ kind: "height", height: 2 }, schedule("v2", PLAN)]),
    });
    e.run({ untilHeight: PLAN + 3 });
    const t = trace(e.traceLines());
    const halts = t.filter((l) => l.t === "halt");
    const swaps = t.filter((l) => l.t === "sidecar");
    expect(halts.map((l) => l.node)).toEqual(NODES);
    expect(swaps).toEqual(
      NODES.map((node, i) => ({
        t: "sidecar",
        node,
        action: "swap",
        plan: "v2",
        binary: "v2",
        time: swaps[i]!.time,
      })),
    );
    for (let i = 0; i < NODES.length; i++) expect(timeOf(swaps[i]!) - timeOf(halts[i]!)).toBe(DELAY_MS);
    // Block PLAN commits at the sidecar time, when the third validator has swapped.
    expect(e.blocks.timeMs(PLAN)).toBe(timeOf(halts[0]!) + DELAY_MS);
    expect(NODES.map((n) => e.nodeStatus(n)?.binary)).toEqual(["v2", "v2", "v2", "v2"]);
    expect([...e.handlerRuns]).toEqual([["v2", 1]]);
  });

  it("uses its binaries map when several binaries have a handler", () => {
    const e = testChain({
      binaries: [binary("v1"), binary("v2a", { v2: { handler: "noop" } }), binary("v2b", { v2: { handler: "noop" } })],
      nodes: allWith(sidecar({ v2: "v2b" })),
      steps: steps([{ kind: "height", height: 2 }, schedule("v2", PLAN)]),
    });
    e.run({ untilHeight: PLAN + 3 });
    expect(NODES.map((n) => e.nodeStatus(n)?.binary)).toEqual(["v2b", "v2b", "v2b", "v2b"]);
  });

  it("does nothing when no binary is found, and the node stays halted", () => {
    const e = testChain({
      binaries: [binary("v1"), binary("v2a", { v2: { handler: "noop" } }), binary("v2b", { v2: { handler: "noop" } })],
      engine: { keepTrace: true },
      nodes: { ...allWith(sidecar({ v2: "v2a" })), val4: sidecar() },
      steps: steps([{ kind: "height", height: 2 }, schedule("v2", PLAN)]),
    });
    e.run({ untilHeight: PLAN + 3 });
    const t = trace(e.traceLines()).filter((l) => l.t === "sidecar" && l.node === "val4");
    expect(t).toEqual([
      { t: "sidecar", node: "val4", action: "none", reason: 'several binaries have a handler for "v2"' },
    ]);
    expect(e.nodeStatus("val4")).toMatchObject({ status: "halted", binary: "v1" });
    expect(e.height).toBe(PLAN + 3);
  });

  it("does nothing when no binary registers the plan", () => {
    const e = testChain({
      binaries: [binary("v1"), binary("v2", { v2: { handler: "noop" } })],
      engine: { keepTrace: true },
      nodes: allWith(sidecar()),
      steps: steps([{ kind: "height", height: 2 }, schedule("v9", PLAN)]),
    });
    e.run({ untilTimeMs: Date.UTC(2026, 0, 2) });
    const t = trace(e.traceLines()).filter((l) => l.t === "sidecar");
    expect(t).toEqual(
      NODES.map((node) => ({ t: "sidecar", node, action: "none", reason: 'no binary has a handler for "v9"' })),
    );
    expect(NODES.map((n) => e.nodeStatus(n)?.status)).toEqual(["halted", "halted", "halted", "halted"]);
    expect(e.haltedInfo()).toMatchObject({ height: PLAN });
  });

  it("does not swap a node again that a step restarted before the sidecar fired", () => {
    const e = testChain({
      binaries: [binary("v1"), binary("v2", { v2: { handler: "noop" } }), binary("v2x", { v2: { handler: "noop" } })],
      engine: { keepTrace: true },
      nodes: allWith(sidecar({ v2: "v2" })),
      steps: steps(
        [{ kind: "height", height: 2 }, schedule("v2", PLAN)],
        [
          { kind: "halt", node: "val1", haltKind: "upgrade-needed", delayMs: 60_000 },
          { kind: "swapBinary", node: "val1", binary: "v2x" },
        ],
      ),
    });
    e.run({ untilHeight: PLAN + 3 });
    const t = trace(e.traceLines()).filter((l) => l.t === "sidecar");
    expect(t.find((l) => l.node === "val1")).toEqual({
      t: "sidecar",
      node: "val1",
      action: "none",
      reason: "node no longer halted",
    });
    expect(t.filter((l) => l.action === "swap").map((l) => l.node)).toEqual(["val2", "val3", "val4"]);
    expect(e.nodeStatus("val1")).toMatchObject({ status: "running", binary: "v2x" });
  });

  it("after a step restarts a node into a new halt, only the sidecar of the new halt acts, `delay` after it", () => {
    const e = testChain({
      binaries: [binary("v1"), binary("v2", { v2: { handler: "noop" } })],
      engine: { keepTrace: true },
      nodes: { val1: sidecar() },
      steps: steps(
        [{ kind: "height", height: 2 }, schedule("v2", PLAN)],
        [
          { kind: "halt", node: "val1", haltKind: "upgrade-needed", delayMs: 60_000 },
          { kind: "restart", node: "val1" },
        ],
      ),
    });
    e.run({ untilTimeMs: Date.UTC(2026, 0, 1, 1) });
    const t = trace(e.traceLines());
    const val1 = t.filter((l) => (l.t === "halt" || l.t === "sidecar") && l.node === "val1");
    expect(val1.map((l) => [l.t, l.action ?? l.kind])).toEqual([
      ["halt", "upgrade-needed"],
      ["halt", "upgrade-needed"],
      ["sidecar", "none"],
      ["sidecar", "swap"],
    ]);
    expect(timeOf(val1[1]!) - timeOf(val1[0]!)).toBe(60_000);
    expect(timeOf(val1[3]!) - timeOf(val1[1]!)).toBe(DELAY_MS);
    expect(e.nodeStatus("val1")).toMatchObject({ status: "running", binary: "v2" });
  });

  it("is off by default: halted nodes stay halted", () => {
    const e = testChain({
      binaries: [binary("v1"), binary("v2", { v2: { handler: "noop" } })],
      steps: steps([{ kind: "height", height: 2 }, schedule("v2", PLAN)]),
    });
    e.run({ untilTimeMs: Date.UTC(2026, 0, 2) });
    expect(NODES.map((n) => e.nodeStatus(n)?.status)).toEqual(["halted", "halted", "halted", "halted"]);
    expect(e.height).toBe(PLAN - 1);
  });
});
