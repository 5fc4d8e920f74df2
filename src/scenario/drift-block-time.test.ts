import { describe, expect, it } from "vitest";
import { type DriftBlockTime, driftDocument } from "../chain/block-time-drift.js";
import { formatScenarioError } from "./errors.js";
import { parseScenario } from "./load.js";

const MINIMAL = { name: "m", binaries: { v1: {} } };
const GENESIS = Date.UTC(2026, 0, 1);

const load = (blockTime: unknown) => parseScenario("s.json", JSON.stringify({ ...MINIMAL, chain: { blockTime } }));

function modelOf(blockTime: unknown) {
  const r = load(blockTime);
  if (!r.ok) throw new Error(r.error.map(formatScenarioError).join("\n"));
  return r.value.chain.blockTime;
}

const errorsOf = (blockTime: unknown): string[] => {
  const r = load(blockTime);
  return r.ok ? [] : r.error.map(formatScenarioError);
};

describe("chain.blockTime {drift: ...}", () => {
  it("takes its defaults: anchored at genesis with the mean as its rate, an hour per segment, no wander", () => {
    expect(modelOf({ drift: { mean: "6s" } })).toEqual({
      kind: "drift",
      meanMs: 6000,
      anchor: { height: 0, timeMs: GENESIS, rateMs: 6000 },
      segmentBlocks: 600,
      persistence: 0.9,
      wander: 0,
      daily: { amplitude: 0, peakMs: 0 },
      shifts: { rate: 0, size: 0 },
      outages: { rate: 0, meanMs: 0 },
      jitter: 0,
    });
  });

  it("reads back what driftDocument writes, durations to the nanosecond", () => {
    const m: DriftBlockTime = {
      kind: "drift",
      meanMs: 6048.317123,
      anchor: { height: 20_000_000, timeMs: Date.UTC(2026, 0, 9, 8, 0, 0, 123), rateMs: 6211.5 },
      segmentBlocks: 595,
      persistence: 0.93,
      wander: 0.021,
      daily: { amplitude: 0.04, peakMs: (14 * 60 + 30) * 60_000 },
      shifts: { rate: 0.004, size: 0.06 },
      outages: { rate: 0.0001, meanMs: 95_000.5 },
      jitter: 0.12,
    };
    expect(modelOf(driftDocument(m).drift === undefined ? {} : driftDocument(m))).toEqual(m);
  });

  it("reads back the fit's uncertainty, and refuses a negative or oversized one by its key", () => {
    const m: DriftBlockTime = {
      kind: "drift",
      meanMs: 6000,
      anchor: { height: 10, timeMs: GENESIS, rateMs: 6100 },
      segmentBlocks: 600,
      persistence: 0.97,
      wander: 0.01,
      daily: { amplitude: 0, peakMs: 0 },
      shifts: { rate: 0, size: 0 },
      outages: { rate: 0, meanMs: 0 },
      jitter: 0.1,
      uncertainty: { level: 0.021, persistence: 1.2, wander: 0.0546 },
    };
    expect(modelOf(driftDocument(m))).toEqual(m);
    const bad = (u: unknown) => errorsOf({ drift: { mean: "6s", uncertainty: u } }).join("\n");
    expect(bad({ level: -0.1, persistence: 0, wander: 0 })).toMatch(/drift\.uncertainty\.level/);
    expect(bad({ level: 0, persistence: 5, wander: 0 })).toMatch(/drift\.uncertainty\.persistence/);
    expect(bad({ level: 0, persistence: 0 })).toMatch(/drift\.uncertainty\.wander/);
  });

  it("names the key that is wrong", () => {
    expect(errorsOf({ drift: { mean: "6s", persistence: 1 } }).join("\n")).toMatch(/drift\.persistence/);
    expect(errorsOf({ drift: { mean: "6s", daily: { amplitude: 0.1, peak: "25:00" } } }).join("\n")).toMatch(
      /drift\.daily\.peak.*HH:MM/,
    );
    expect(errorsOf({ drift: { mean: "6s", jitter: 0.9 } }).join("\n")).toMatch(/drift\.jitter/);
    expect(errorsOf({ drift: {} }).join("\n")).toMatch(/drift\.mean/);
    expect(errorsOf({ drift: { mean: "6s", speed: 2 } }).join("\n")).toMatch(/speed/);
  });

  it("leaves the other kinds as they were", () => {
    expect(modelOf("5s")).toEqual({ kind: "fixed", intervalMs: 5000 });
    expect(modelOf({ min: "5s", max: "7s" })).toEqual({ kind: "uniform", minMs: 5000, maxMs: 7000 });
    expect(errorsOf({ min: "5s" }).join("\n")).toMatch(/max/);
  });
});
