import { describe, expect, it } from "vitest";
import { sampleRecord } from "../../test/kit/report.js";
import { scenarioTimeline } from "./timeline.js";
import { LANE_KINDS, timelineChart } from "./timeline-chart.js";

type View = Record<string, unknown> & { layer?: { data: { values: unknown[] }; mark: { type: string } }[] };

describe("timelineChart", () => {
  const t = scenarioTimeline(sampleRecord());
  const spec = timelineChart(t) as { vconcat: View[] };

  it("stacks heights, proposals and lanes over one padded time axis", () => {
    expect(spec.vconcat).toHaveLength(3);
    const json = JSON.stringify(spec);
    const domains = [...json.matchAll(/"domain":\[(\d+),(\d+)\]/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(domains.length).toBe(3);
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
    const lanes = spec.vconcat[2] as { encoding: { y: { sort: string[] }; color: { scale: { domain: string[] } } } };
    expect(lanes.encoding.y.sort).toEqual(["val1", "val2", "val3", "val4", "chain"]);
    expect(lanes.encoding.color.scale.domain).toEqual(["halt", "stop", "start", "swap", "stall", "applied"]);
    expect(LANE_KINDS.map((k) => k.kind)).toContain("sidecar idle");
  });

  it("leaves the proposals view out when the scenario has no proposal", () => {
    const quiet = timelineChart({ ...t, proposals: [], outcomes: [] }) as { vconcat: View[] };
    expect(quiet.vconcat).toHaveLength(2);
  });
});
