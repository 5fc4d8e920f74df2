import { describe, expect, it } from "vitest";
import { durationMs } from "../core/brand.js";
import type { Result } from "../core/errors.js";
import { runBatches, type TrialBatch } from "./batch.js";
import { type CancelWindowConfig, DEFAULT_CONFIG } from "./model.js";
import { POOL_MIN_JOBS, runOnWorkers, slices } from "./pool.js";
import { type SweepExploration, sweepingCancelWindow } from "./sweep.js";

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Random block times and deposit delays, so every trial differs; 2 values × 40 runs = 80 jobs, enough for a pool. */
const CFG: CancelWindowConfig = {
  ...DEFAULT_CONFIG,
  depositPeriodMs: HOUR,
  votingPeriodMs: HOUR,
  expeditedVotingPeriodMs: 30 * MIN,
  safetyDeltaMs: 30 * MIN,
  blockTime: { kind: "uniform", minMs: durationMs(4000), maxMs: durationMs(8000) },
  depositDelay: { kind: "uniform", minMs: 0, maxMs: HOUR },
  cancelDepositDelay: { kind: "uniform", minMs: 0, maxMs: HOUR },
  runs: 40,
  seed: 11,
};
const SWEEP = { axis: "spread", valuesMs: [500, 2000], points: 12 } as const;

/** One sweep per worker count, with its progress reports: computed once, shared by the tests below. */
const sweeps = new Map<number, Promise<{ result: Result<SweepExploration, string>; seen: [number, number][] }>>();
function sweepOn(workers: number) {
  let s = sweeps.get(workers);
  if (s === undefined) {
    const seen: [number, number][] = [];
    s = runOnWorkers(sweepingCancelWindow(CFG, SWEEP), workers, {
      onProgress: (d, t) => seen.push([d, t]),
    }).then((result) => ({ result, seen }));
    sweeps.set(workers, s);
  }
  return s;
}

describe("the explorer's worker pool", () => {
  it("gives the same sweep for 1, 2 and 3 workers, and the same progress total", async () => {
    expect(2 * CFG.runs).toBeGreaterThanOrEqual(POOL_MIN_JOBS);
    const runs = [await sweepOn(1), await sweepOn(2), await sweepOn(3)];
    const value = ({ result }: (typeof runs)[number]) => {
      if (!result.ok) throw new Error(result.error);
      return result.value;
    };
    const one = value(runs[0]!);
    expect(one.series.every((s) => s.verification?.ok === true)).toBe(true);
    expect(new Set(one.series.flatMap((s) => s.landingOffsets)).size).toBeGreaterThan(10);
    for (const run of runs.slice(1)) expect(value(run)).toEqual(one);
    // In this thread as in a pool: every engine run reported, the last report counts them all.
    for (const { seen } of runs) expect(seen.at(-1)?.[0]).toBe(one.engineRuns);
  }, 120_000);

  it("equals the exploration driven in this thread without a pool", async () => {
    const r = (await sweepOn(2)).result;
    expect(r).toEqual(runBatches(sweepingCancelWindow(CFG, SWEEP)));
  }, 120_000);

  it("cuts a batch into slices of consecutive jobs, each carrying only its own configurations", () => {
    const a = { ...CFG, seed: 1 };
    const b = { ...CFG, seed: 2 };
    const input = (seed: number) => ({ seed, offset: 9, depositDelayMs: 0, cancelDepositDelayMs: 0 });
    const batch: TrialBatch = {
      configs: [a, b],
      jobs: [0, 0, 0, 1, 1].map((config, i) => ({ config, input: input(i) })),
      plannedAfter: 4,
    };
    const s = slices(batch, 2);
    expect(s.map((x) => x.configs.map((c) => c.seed))).toEqual([[1], [1, 2], [2]]);
    // Groups (jobs sharing a trial seed) stay whole: slices of about 2 jobs in groups of 3 hold 3.
    expect(slices({ ...batch, group: 3 }, 2).map((x) => x.jobs.length)).toEqual([3, 2]);
    expect(slices({ ...batch, group: 2 }, 3).map((x) => x.jobs.length)).toEqual([4, 1]);
    expect(s.flatMap((x) => x.jobs.map((j) => [x.configs[j.config]!.seed, j.input.seed]))).toEqual([
      [1, 0],
      [1, 1],
      [1, 2],
      [2, 3],
      [2, 4],
    ]);
  });
});
