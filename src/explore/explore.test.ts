import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { durationMs } from "../core/brand.js";
import { parseScenario } from "../scenario/load.js";
import { runScenario } from "../scenario/runner.js";
import { trialScenario } from "./chain.js";
import { exploreCancelWindow, searchRange } from "./explore.js";
import { type CancelWindowConfig, DEFAULT_CONFIG } from "./model.js";
import { trialDelays, trialSeeds } from "./seeds.js";
import { applySweepValue, sweepCancelWindow } from "./sweep.js";
import { runTrial } from "./trial.js";

const MIN = 60_000;
const HOUR = 60 * MIN;

const SMALL: CancelWindowConfig = {
  ...DEFAULT_CONFIG,
  depositPeriodMs: HOUR,
  votingPeriodMs: HOUR,
  expeditedVotingPeriodMs: 30 * MIN,
  safetyDeltaMs: 30 * MIN,
  blockTime: { kind: "fixed", intervalMs: durationMs(6000) },
  depositDelay: { kind: "fixed", ms: HOUR },
  cancelDepositDelay: { kind: "fixed", ms: HOUR },
  runs: 12,
};

const RANDOM: CancelWindowConfig = {
  ...SMALL,
  blockTime: { kind: "uniform", minMs: durationMs(5000), maxMs: durationMs(7000) },
  depositDelay: { kind: "uniform", minMs: 0, maxMs: HOUR },
  cancelDepositDelay: { kind: "uniform", minMs: 0, maxMs: HOUR },
};

function explore(cfg: CancelWindowConfig) {
  const r = exploreCancelWindow(cfg);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

describe("exploreCancelWindow", () => {
  it("finds the hand-computed boundary with fixed block times and compares the rule of thumb", () => {
    // 2(D + V) + S = 4h30m = 2700 blocks of 6s; the cancel needs one block more (trial.test.ts).
    const x = explore(SMALL);
    expect(x.outcomes.landed).toBe(12);
    expect(x.landingOffsets).toEqual(Array(12).fill(2701));
    expect(x.recommendation).toMatchObject({ offset: 2701, basis: "point-estimate" });
    expect(x.safe.byLowerBound).toBeNull(); // 12 of 12 cannot show 0.999 at 95%
    expect(x.ruleOfThumb).toMatchObject({ ms: 4.5 * HOUR, mean: { blocks: 2700 }, min: { blocks: 2700 } });
    expect(x.recommendation?.gaps[0]).toMatchObject({
      conversion: "mean",
      blocks: 2700,
      gapBlocks: -1,
      verdict: "short",
    });
    const at = (o: number) => x.points.find((p) => p.offset === o);
    expect(at(2700)).toMatchObject({ successes: 0, marks: ["rule@mean", "rule@min"] });
    expect(at(2701)).toMatchObject({ successes: 12, p: 1, marks: ["safe(point)"] });
    expect(x.verification).toMatchObject({ ok: true, at: { offset: 2701, outcome: "landed" } });
    expect(x.verification?.before).toEqual({ offset: 2700, outcome: "too-late" });
    expect(x.anomalies).toEqual([]);
  });

  it("reaches the lower-bound criterion when enough runs land", () => {
    const x = explore({ ...SMALL, runs: 40, confidence: 0.9 });
    expect(x.safe.byLowerBound?.offset).toBe(2701);
    expect(x.recommendation?.basis).toBe("lower-bound");
  });

  it("evaluates one offset when asked for one", () => {
    const x = explore({ ...SMALL, offsets: { kind: "single", offset: 2700 } });
    expect(x.points.map((p) => [p.offset, p.successes])).toEqual([[2700, 0]]);
    expect(x.outcomes["too-late"]).toBe(12);
    expect(x.recommendation).toBeNull();
  });

  it("gives the same numbers for the same seed, and different trials for another seed", () => {
    const a = explore(RANDOM);
    const b = explore(RANDOM);
    expect(b).toEqual(a);
    const c = explore({ ...RANDOM, seed: 2 });
    expect(c.landingOffsets).not.toEqual(a.landingOffsets);
  });

  it("matches direct trials at every offset of a grid, which are monotone in the offset", () => {
    const cfg = { ...RANDOM, runs: 6 };
    const x = explore(cfg);
    const chain = trialScenario(cfg);
    if (!chain.ok) throw new Error(chain.error);
    const finite = x.landingOffsets.filter((l): l is number => l !== null);
    const lo = Math.min(...finite) - 2;
    const hi = Math.max(...finite) + 1;
    const grid = [lo, ...finite.flatMap((l) => [l - 1, l]), hi].sort((a, b) => a - b);
    const seeds = trialSeeds(cfg.seed, cfg.runs);
    let previous = -1;
    for (const offset of grid) {
      const landed = seeds.filter(
        (seed) =>
          runTrial(chain.value, cfg, {
            seed,
            offset,
            ...trialDelays(seed, cfg.depositDelay, cfg.cancelDepositDelay),
          }).outcome === "landed",
      ).length;
      expect(landed).toBe(x.landingOffsets.filter((l) => l !== null && l <= offset).length);
      expect(landed).toBeGreaterThanOrEqual(previous);
      previous = landed;
    }
    expect(previous).toBe(cfg.runs);
  });

  it("searches 1 … 4 × the rule of thumb by default", () => {
    expect(searchRange(SMALL)).toEqual({ min: 1, max: 10_800 });
    expect(searchRange({ ...SMALL, offsets: { kind: "range", min: 5, max: 9 } })).toEqual({ min: 5, max: 9 });
  });

  it("rejects gov params that gov's genesis validation rejects", () => {
    const r = exploreCancelWindow({ ...SMALL, expeditedVotingPeriodMs: 2 * HOUR });
    expect(r.ok).toBe(false);
  });
});

describe("sweepCancelWindow", () => {
  it("maps spreads to block-time models around the same mean", () => {
    const fixed = applySweepValue(SMALL, "spread", 0);
    expect(fixed.ok && fixed.value.blockTime).toEqual({ kind: "fixed", intervalMs: 6000 });
    const wide = applySweepValue(SMALL, "spread", 2000);
    expect(wide.ok && wide.value.blockTime).toEqual({ kind: "uniform", minMs: 4000, maxMs: 8000 });
    expect(applySweepValue(SMALL, "spread", 6000).ok).toBe(false);
    const d = applySweepValue(SMALL, "deposit-delay", 10 * MIN);
    expect(d.ok && [d.value.depositDelay, d.value.cancelDepositDelay]).toEqual([
      { kind: "fixed", ms: 10 * MIN },
      { kind: "fixed", ms: 10 * MIN },
    ]);
    expect(applySweepValue(SMALL, "deposit-delay", 2 * HOUR).ok).toBe(false);
  });

  it("spread: P on a shared grid; wider spreads widen the transition around the same rule", () => {
    const r = sweepCancelWindow({ ...SMALL, runs: 10 }, { axis: "spread", valuesMs: [0, 1000], points: 9 });
    if (!r.ok) throw new Error(r.error);
    const [fixed, spread] = r.value.series;
    expect(fixed?.recommendation?.offset).toBe(2701);
    for (const s of r.value.series) expect(s.points.map((p) => p.offset)).toEqual(r.value.offsets);
    const width = (x: typeof fixed) => x!.landingStats!.max - x!.landingStats!.min;
    expect(width(fixed)).toBe(0);
    expect(width(spread)).toBeGreaterThan(0);
    expect(r.value.engineRuns).toBe(2 * 10 + 2 + 2);
  });

  it("gives each value the trials its own exploration gives (seed-major runs, shared block-time draws)", () => {
    const cfg = { ...RANDOM, runs: 8 };
    const values = [0, 700, 1500];
    const r = sweepCancelWindow(cfg, { axis: "spread", valuesMs: values, points: 9 });
    if (!r.ok) throw new Error(r.error);
    values.forEach((v, i) => {
      const c = applySweepValue(cfg, "spread", v);
      if (!c.ok) throw new Error(c.error);
      const own = explore(c.value);
      const s = r.value.series[i]!;
      expect([s.landingOffsets, s.outcomes, s.verification]).toEqual([
        own.landingOffsets,
        own.outcomes,
        own.verification,
      ]);
    });
    expect(new Set(r.value.series[2]!.landingOffsets).size).toBeGreaterThan(1);
  });

  it("deposit delay: each hour of delay adds its blocks to the boundary (fixed blocks)", () => {
    const r = sweepCancelWindow(
      { ...SMALL, runs: 2 },
      { axis: "deposit-delay", valuesMs: [0, 30 * MIN, HOUR], points: 5 },
    );
    if (!r.ok) throw new Error(r.error);
    // Both proposals wait the delay: 2 × 300 blocks per 30 minutes.
    expect(r.value.series.map((s) => s.recommendation?.offset)).toEqual([1501, 2101, 2701]);
  });
});

describe("the boundary scenarios pin the explorer's boundary", () => {
  const load = (name: string) => {
    const file = `scenarios/${name}.yaml`;
    const s = parseScenario(file, readFileSync(file, "utf8"));
    if (!s.ok) throw new Error(JSON.stringify(s.error));
    return s.value;
  };
  const planHeight = (s: ReturnType<typeof load>): number => {
    const step = s.steps.find((st) => st.action.kind === "submitProposal" && st.action.id === "upgrade");
    const msg = step?.action.kind === "submitProposal" ? step.action.messages[0] : undefined;
    if (msg?.kind !== "softwareUpgrade") throw new Error("no upgrade proposal");
    return Number(msg.plan.height);
  };

  it("last offset that lands and first that is too late are the explorer's, and both scenarios pass", () => {
    const x = explore({ ...SMALL, runs: 1 });
    const boundary = x.recommendation!.offset;
    const lands = load("cancel-window-last-offset-lands");
    const late = load("cancel-window-first-offset-too-late");
    for (const s of [lands, late]) {
      expect(s.chain.blockTime).toEqual(SMALL.blockTime);
      expect(s.chain.gov).toMatchObject({ maxDepositPeriodMs: HOUR, votingPeriodMs: HOUR });
      expect(runScenario(s).report.failures).toEqual([]);
    }
    expect(planHeight(lands)).toBe(SMALL.submitHeight + boundary);
    expect(planHeight(late)).toBe(SMALL.submitHeight + boundary - 1);
  });
});
