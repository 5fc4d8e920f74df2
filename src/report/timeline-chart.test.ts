import { describe, expect, it } from "vitest";
import { sampleRecord } from "../../test/kit/report.js";
import { scenarioTimeline } from "./timeline.js";
import { timelineChart } from "./timeline-chart.js";
import { LANE_KINDS, laneMarks, stallIntervals } from "./timeline-lanes.js";

type View = Record<string, unknown> & { layer?: { data: { values: unknown[] }; mark: { type: string } }[] };

describe("timelineChart", () => {
  const t = scenarioTimeline(sampleRecord());
  const spec = timelineChart(t) as { vconcat: View[] };

  it("stacks heights, proposals, lanes and node states over one padded time axis", () => {
    expect(spec.vconcat).toHaveLength(4);
    const json = JSON.stringify(spec);
    const domains = [...json.matchAll(/"domain":\[(\d{10,}),(\d{10,})\]/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(domains.length).toBe(4);
    for (const [lo, hi] of domains) {
      expect(lo).toBeLessThan(t.startMs);
      expect(hi).toBeGreaterThan(t.endMs);
    }
    expect(json.match(/"title":"simulated time \(UTC\)"/g)).toHaveLength(1);
  });

  it("draws the height line, the plan rule and the applied upgrade", () => {
    const marks = spec.vconcat[0]!.layer!.map((l) => `${l.mark.type}:${l.data.values.length}`);
    expect(marks).toEqual(["line:" + t.heights.length, "rule:1", "text:1", "point:1", "text:0", "text:1"]);
  });

  it("has one lane per node and one for the chain, with a legend of the event kinds that occur", () => {
    const lanes = spec.vconcat[2] as View;
    const points = lanes.layer![1] as unknown as {
      data: { values: { lane: string; kind: string; timeMs: number; row: number }[] };
      encoding: {
        y: { sort: string[] };
        color: { scale: { domain: string[] } };
        yOffset: { field: string; scale: { domain: number[] } };
      };
    };
    expect(points.encoding.y.sort).toEqual(["val1", "val2", "val3", "val4", "chain"]);
    // The stall intervals have their legend entry after the markers'.
    expect(points.encoding.color.scale.domain).toEqual([
      "halt: upgrade-needed",
      "stop",
      "start",
      "swap",
      "applied",
      "stall (no block)",
    ]);
    // Coinciding markers: each kind on a node's lane has its own row there (the same in every node's lane); the
    // chain's one kind is centred in its lane; the lanes are tall enough for the rows.
    const rows = new Map<string, Set<number>>();
    for (const m of points.data.values) rows.set(m.kind, (rows.get(m.kind) ?? new Set()).add(m.row));
    expect(Object.fromEntries([...rows].map(([k, r]) => [k, [...r]]))).toEqual({
      "halt: upgrade-needed": [0.5],
      stop: [1.5],
      start: [2.5],
      swap: [3.5],
      applied: [2],
    });
    expect(points.encoding.yOffset).toMatchObject({ field: "row", scale: { domain: [0, 4] } });
    expect(lanes.height).toBeGreaterThanOrEqual(5 * 11 * 4);
    expect(LANE_KINDS.map((k) => k.kind)).toContain("sidecar idle");
  });

  it("draws a stall as one shaded interval, however often the stalled block was retried", () => {
    const retried = {
      ...t,
      lanes: [
        ...t.lanes,
        ...t.lanes
          .filter((e) => e.kind === "stall")
          .map((e) => ({ ...e, timeMs: e.timeMs + 60_000 }))
          .slice(0, 1),
      ],
    };
    const stallEvents = retried.lanes.filter((e) => e.kind === "stall");
    expect(stallEvents.length).toBeGreaterThanOrEqual(2);
    const intervals = stallIntervals(retried);
    expect(intervals).toHaveLength(1);
    const first = stallEvents.map((e) => e.timeMs).sort((a, b) => a - b)[0]!;
    expect(intervals[0]!.fromMs).toBe(first);
    expect(intervals[0]!.toMs).toBeGreaterThan(first + 60_000);
    expect(intervals[0]!.text).toMatch(/^chain stalled at height 999 from .* until /);
    const rect = (spec.vconcat[2] as View).layer![0]!;
    expect(rect.mark.type).toBe("rect");
    expect(rect.data.values).toHaveLength(1);
    expect(JSON.stringify((spec.vconcat[2] as View).layer![1]!.data.values)).not.toContain('"stall"');
  });

  it("tells halt kinds apart and shows each halt's reason", () => {
    const reasons = [
      { node: "val1", height: 1000, kind: "handler-error", message: "upgrade handler failed" },
      { node: "val2", height: 1000, kind: "upgrade-needed", message: 'UPGRADE "v2" NEEDED at height: 1000: ' },
    ];
    const marks = laneMarks(t, reasons).filter((m) => m.kind.startsWith("halt"));
    expect(marks.find((m) => m.lane === "val1")).toMatchObject({
      kind: "halt: handler-error",
      text: "val1 halted (handler-error) at height 1000: upgrade handler failed",
    });
    expect(marks.find((m) => m.lane === "val2")?.text).toContain('UPGRADE "v2" NEEDED');
    const withReasons = timelineChart(t, reasons) as { vconcat: View[] };
    const domain = JSON.stringify(withReasons.vconcat[2]);
    expect(domain).toContain('"halt: handler-error"');
    expect(domain).toContain('"halt: upgrade-needed"');
  });

  it("compiles without a vega-lite warning (each one would be printed for every scenario of npm start)", async () => {
    const vl = await import("vega-lite");
    const warnings: unknown[] = [];
    const keep = (...m: unknown[]) => {
      warnings.push(m);
      return logger;
    };
    const logger = { level: () => logger, error: keep, warn: keep, info: () => logger, debug: () => logger };
    const withHalts = timelineChart(t, [{ node: "val1", height: 1000, kind: "upgrade-needed", message: "x" }]);
    vl.compile(withHalts as unknown as Parameters<typeof vl.compile>[0], { logger: logger as never });
    expect(warnings).toEqual([]);
  });

  it("gives every mark a description (the tooltip text)", () => {
    for (const view of spec.vconcat)
      for (const layer of view.layer ?? []) expect(JSON.stringify(layer)).toContain('"description"');
  });

  it("leaves the proposals view out when the scenario has no proposal", () => {
    const quiet = timelineChart({ ...t, proposals: [], outcomes: [] }) as { vconcat: View[] };
    expect(quiet.vconcat).toHaveLength(3);
  });
});
