import { describe, expect, it } from "vitest";
import { sampleRecord } from "../../test/kit/report.js";
import { renderTraceEvent, type TraceEvent, type TraceEventOf } from "../chain/trace-events.js";
import type { DurationMs } from "../core/brand.js";
import type { RunReport } from "../scenario/runner.js";
import { CHAIN_LANE, proposalName, scenarioTimeline } from "./timeline.js";

const T0 = Date.UTC(2026, 0, 1);
const at = (s: number) => T0 + s * 1000;
const iso = (s: number) => new Date(at(s)).toISOString().replace(".000Z", "Z");

describe("scenarioTimeline of a replayed scenario", () => {
  const t = scenarioTimeline(sampleRecord());

  it("spans genesis to the last block, with the nodes of the genesis", () => {
    expect(t.startMs).toBe(T0);
    expect(t.endMs).toBe(at(6360)); // block 1010 at 01:46:00
    expect(t.nodes).toEqual(["val1", "val2", "val3", "val4"]);
  });

  it("draws the height curve flat through the stall, and ends at the last height", () => {
    const h = t.heights;
    expect(h[0]).toEqual({ timeMs: T0, height: 0 });
    expect(h[h.length - 1]).toEqual({ timeMs: at(6360), height: 1010 });
    // 999 committed at 01:39:54; halted and stalled at 01:40; still 999 at the sidecar swaps (01:45).
    expect(h).toContainEqual({ timeMs: at(6000), height: 999 });
    expect(h).toContainEqual({ timeMs: at(6300), height: 999 });
    for (let i = 1; i < h.length; i++) {
      expect(h[i]!.timeMs).toBeGreaterThanOrEqual(h[i - 1]!.timeMs);
      expect(h[i]!.height).toBeGreaterThanOrEqual(h[i - 1]!.height);
    }
  });

  it("has each proposal's deposit period (submission to voting start) and voting period", () => {
    expect(t.proposals).toEqual([
      { proposal: "#1 upgrade", phase: "deposit", fromMs: at(12), toMs: at(120) },
      { proposal: "#1 upgrade", phase: "voting", fromMs: at(120), toMs: at(3720) },
      { proposal: "#2 cancel", phase: "deposit", fromMs: at(60), toMs: at(60) },
      { proposal: "#2 cancel", phase: "voting", fromMs: at(60), toMs: at(3660) },
    ]);
    expect(t.outcomes).toEqual([
      { proposal: "#1 upgrade", status: "passed", timeMs: at(3720) },
      { proposal: "#2 cancel", status: "passed", timeMs: at(3660) },
    ]);
  });

  it("has the plan from the block that stored it until the block that applied it", () => {
    expect(t.plans).toEqual([{ name: "v2", height: 1000, fromMs: at(3720), toMs: at(6300) }]);
    expect(t.upgrades).toEqual([{ name: "v2", height: 1000, timeMs: at(6300), applied: true }]);
  });

  it("puts halts, sidecar swaps, stops and restarts on node lanes and stalls on the chain lane", () => {
    const kinds = (lane: string) => t.lanes.filter((e) => e.lane === lane).map((e) => e.kind);
    // The genesis starts are not restarts.
    expect(kinds("val1")).toEqual(["halt", "swap", "stop", "start"]);
    expect(kinds("val4")).toEqual(["halt", "swap", "stop", "start"]);
    expect(kinds(CHAIN_LANE)).toEqual(["stall", "stall", "stall", "applied"]);
    expect(t.lanes.find((e) => e.lane === "val2" && e.kind === "start")).toMatchObject({
      timeMs: at(6300),
      text: "start v2",
    });
  });
});

describe("scenarioTimeline of a hand-written trace", () => {
  const report = (over: Partial<RunReport>): RunReport =>
    ({
      name: "x",
      file: "x.yaml",
      seed: 1,
      passed: true,
      failures: [],
      final: { height: 3, time: iso(600) },
      proposals: [],
      ...over,
    }) as unknown as RunReport;
  const node = (name: string) => ({ name, power: 1, binary: "v1", skip: [] });
  const block = (height: number, seconds: number, over: Partial<TraceEventOf<"block">>): TraceEvent => ({
    kind: "block",
    height,
    timeMs: at(seconds),
    appHash: "aa",
    txs: [],
    gov: [],
    applied: undefined,
    skipped: undefined,
    committers: ["a", "b"],
    ...over,
  });
  const events: TraceEvent[] = [
    {
      kind: "genesis",
      chainId: "c",
      seed: 1,
      timeMs: at(0),
      appHash: "aa",
      blockTime: { kind: "fixed", intervalMs: 6000 as DurationMs },
      nodes: [node("a"), node("b")],
    },
    { kind: "start", node: "a", binary: "v1", skip: [], timeMs: at(0) },
    { kind: "blocks", from: 1, to: 1, timeFromMs: at(6), timeToMs: at(6), appHash: "aa" },
    block(2, 12, {
      gov: [
        { kind: "submitted", id: 1n },
        { kind: "voting-started", id: 1n },
      ],
    }),
    block(3, 18, { gov: [{ kind: "cancelled", id: 1n }], skipped: "v2" }),
    { kind: "sidecar", node: "b", action: "none", reason: "no upgrade-info.json" },
  ];
  const trace = events.map(renderTraceEvent);

  it("ends a cancelled proposal's voting bar where it was cancelled, and marks skipped upgrades", () => {
    const t = scenarioTimeline({
      report: report({
        proposals: [
          {
            id: 1,
            label: null,
            status: "cancelled",
            submitHeight: 2,
            depositEndTime: iso(3612),
            votingStartTime: iso(12),
            votingEndTime: iso(3612),
            failedReason: "",
          },
        ],
      }),
      trace,
    });
    expect(t.proposals).toContainEqual({ proposal: "#1", phase: "voting", fromMs: at(12), toMs: at(18) });
    expect(t.outcomes).toEqual([{ proposal: "#1", status: "cancelled", timeMs: at(18) }]);
    expect(t.upgrades).toEqual([{ name: "v2", height: 3, timeMs: at(18), applied: false }]);
    expect(t.lanes.map((e) => `${e.lane}:${e.kind}`)).toEqual(["chain:skipped", "b:sidecar idle"]);
  });

  it("extends the run to the report's final time (a run that stops at a time, not a block)", () => {
    const t = scenarioTimeline({ report: report({}), trace });
    expect(t.endMs).toBe(at(600));
    expect(t.heights[t.heights.length - 1]).toEqual({ timeMs: at(600), height: 3 });
  });
});

describe("proposalName", () => {
  it("is the id, with the label from the file when there is one", () => {
    expect(proposalName(3, null)).toBe("#3");
    expect(proposalName(3, "upgrade")).toBe("#3 upgrade");
  });
});
