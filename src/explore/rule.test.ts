import { describe, expect, it } from "vitest";
import { durationMs } from "../core/brand.js";
import { DEFAULT_CONFIG } from "./model.js";
import { blocksFor, minBlockTime, ruleGaps, ruleOfThumbMs } from "./rule.js";

const HOUR = 3_600_000;

describe("rule of thumb", () => {
  it("is 2(D + V) + S: 216h with reference periods and S = 24h", () => {
    expect(ruleOfThumbMs(DEFAULT_CONFIG)).toBe(216 * HOUR);
    // docs/fidelity.md §3.11 example: D = V = 2 days, S = 2 days, t_min = 5s → 864,000 s → 172,800 blocks.
    expect(
      blocksFor(
        ruleOfThumbMs({ depositPeriodMs: 48 * HOUR, votingPeriodMs: 48 * HOUR, safetyDeltaMs: 48 * HOUR }),
        5000,
      ),
    ).toBe(172_800);
    expect(blocksFor(10_001, 5000)).toBe(3);
  });

  it("takes the shortest plausible block interval of each model", () => {
    expect(minBlockTime({ kind: "fixed", intervalMs: durationMs(6000) }).ms).toBe(6000);
    expect(minBlockTime({ kind: "uniform", minMs: durationMs(5000), maxMs: durationMs(7000) }).ms).toBe(5000);
    const normal = { kind: "normal", meanMs: durationMs(6000), stddevMs: durationMs(500) } as const;
    expect(minBlockTime({ ...normal, minMs: durationMs(1) })).toEqual({ ms: 4500, basis: "mean - 3 stddev" });
    expect(minBlockTime({ ...normal, minMs: durationMs(5200) })).toEqual({ ms: 5200, basis: "lower clip" });
    expect(minBlockTime({ ...normal, stddevMs: durationMs(3000), minMs: durationMs(1) }).ms).toBe(1);
  });

  it("reports each conversion's gap to the measured safe offset", () => {
    const gaps = ruleGaps(216 * HOUR, DEFAULT_CONFIG.blockTime, 129_700);
    expect(gaps).toEqual([
      expect.objectContaining({ conversion: "mean", blocks: 129_600, gapBlocks: -100, verdict: "short" }),
      expect.objectContaining({ conversion: "min", blocks: 155_520, gapBlocks: 25_820, verdict: "over" }),
    ]);
    expect(gaps[0]!.gapPercent).toBeCloseTo((-100 / 129_700) * 100, 10);
    expect(ruleGaps(60_000, { kind: "fixed", intervalMs: durationMs(6000) }, 10)[0]!.verdict).toBe("exact");
  });
});
