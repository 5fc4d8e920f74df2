/**
 * The upgrade-height planner (docs/block-time-model.md §3): a Monte Carlo over block times from a clock (a known
 * height and time, and a block-time model, usually the `drift` model fitted by `chainsim import`).
 *
 * Contract:
 * - Run i uses the engine seed `seed + i` and draws its block times through the engine's own source for a chain
 *   that starts at the clock's height (chain/block-time-shift.ts `chainBlockTimes`, its bulk `idleTimes`): a
 *   model drawn from height 1 on (uniform, normal) gives block `clock.height + k` the interval of block k, an
 *   anchored one (drift) is read at absolute heights. So a scenario run with that seed and that model, from genesis
 *   or `from:` a profile at the clock, commits block H at exactly the time `haltTimes` reports for run i when no
 *   block stalls (plan-height.test.ts and plan-height-from.test.ts hold one to the other).
 * - The recommended height for a target time T is the lower median of the heights reached by T: for every h,
 *   P(halt(h) ≤ T) = P(height at T ≥ h), so at that height the median halt time is T (within one block).
 * - A drift model that carries its fit's `uncertainty` is planned in two parts (`planHeight`): the centre from the
 *   point model (the same model without `uncertainty`: the fitted parameters, whose runs spread less, so their
 *   median moves less from one set of runs to the next), the band from the model itself (each run drawing its own
 *   parameters: the parametric bootstrap). Run i of either uses seed + i, so a scenario with the point model
 *   replays the centre's run i and one with the model replays the band's run i.
 * - Pure and deterministic: the same clock, runs and seed give the same arrays.
 */

import type { BlockTimeModel } from "../chain/block-time.js";
import type { DriftBlockTime } from "../chain/block-time-drift.js";
import { type ChainBlockTimes, chainBlockTimes } from "../chain/block-time-shift.js";
import { assert } from "../core/assert.js";
import { type DailyWindow, inWindow } from "./daily-window.js";

export interface PlanClock {
  /** The last known block and its time (ms since the epoch). */
  readonly height: number;
  readonly timeMs: number;
  readonly blockTime: BlockTimeModel;
}

/** Runs at most per call (a bound on every loop). */
export const PLAN_RUNS_MAX = 100_000;
/** Blocks per idleTimes call while looking for the height reached by a time. */
const CHUNK = 1 << 16;
/** Chunks per run at most: 2^16 × 2^14 = 10^9 blocks. */
const CHUNKS_MAX = 1 << 14;

/** The seed of run i: the engine seed a scenario uses to reproduce it. */
export const runSeed = (seed: number, i: number): number => seed + i;

/** The block times of run i: the engine's source for a chain that starts at the clock's height. */
const runSource = (clock: PlanClock, seed: number, i: number): ChainBlockTimes =>
  chainBlockTimes({ seed: runSeed(seed, i), model: clock.blockTime }, clock.height);

/** A reusable buffer of block times. */
let scratch = new Float64Array(CHUNK);
function buffer(n: number): Float64Array {
  if (scratch.length < n) scratch = new Float64Array(Math.max(n, 2 * scratch.length));
  return scratch;
}

/** Sorted simulated times (ms) of block `height` (> clock.height), one per run. */
export function haltTimes(clock: PlanClock, height: number, runs: number, seed: number): Float64Array {
  return blockAndPrevious(clock, height, runs, seed).at;
}

/**
 * The times of block `height` and of the block before it, per run, each array sorted on its own: a cancel must
 * pass in a block before the plan's height, so its deadline reads the previous block's time.
 */
export function blockAndPrevious(
  clock: PlanClock,
  height: number,
  runs: number,
  seed: number,
): { at: Float64Array; previous: Float64Array } {
  assert(Number.isInteger(height) && height > clock.height, "a height after the clock's");
  assert(Number.isInteger(runs) && runs >= 1 && runs <= PLAN_RUNS_MAX, "runs within PLAN_RUNS_MAX");
  const blocks = height - clock.height;
  const at = new Float64Array(runs);
  const previous = new Float64Array(runs);
  for (let i = 0; i < runs; i++) {
    const src = runSource(clock, seed, i);
    const buf = buffer(blocks);
    const n = src.idleTimes(clock.height + 1, height + 1, clock.timeMs, Number.POSITIVE_INFINITY, buf, 0);
    assert(n === blocks, "every block up to the height is drawn");
    at[i] = buf[blocks - 1] as number;
    previous[i] = blocks >= 2 ? (buf[blocks - 2] as number) : clock.timeMs;
  }
  return { at: at.sort(), previous: previous.sort() };
}

/** Sorted heights reached by `timeMs` (the last block whose time is ≤ timeMs), one per run. */
export function heightsAt(clock: PlanClock, timeMs: number, runs: number, seed: number): Float64Array {
  assert(Number.isInteger(runs) && runs >= 1 && runs <= PLAN_RUNS_MAX, "runs within PLAN_RUNS_MAX");
  const out = new Float64Array(runs);
  const buf = buffer(CHUNK);
  for (let i = 0; i < runs; i++) {
    const src = runSource(clock, seed, i);
    let h = clock.height;
    let t = clock.timeMs;
    for (let c = 0; c < CHUNKS_MAX; c++) {
      const n = src.idleTimes(h + 1, h + 1 + CHUNK, t, timeMs + 1, buf, 0);
      h += n;
      if (n < CHUNK) break;
      t = buf[CHUNK - 1] as number;
    }
    out[i] = h;
  }
  return out.sort();
}

/** Pilot runs that place the checkpoint of `planHeight`'s second pass. */
const PILOT_RUNS = 32;

export interface HeightPlan {
  /** Sorted heights reached by the target, one per run. */
  readonly heights: Float64Array;
  /** The recommended height (> clock.height). */
  readonly height: number;
  /** Sorted times of that height and of the block before it. */
  readonly at: Float64Array;
  readonly previous: Float64Array;
  /**
   * The point estimate of the height's halt time: the median over the centre's runs (the point model's when the
   * model carries an uncertainty, else the median of `at`).
   */
  readonly p50: number;
}

/**
 * heightsAt, the recommended height, and blockAndPrevious at it, in about one pass: the first pass draws each run
 * to the target and records its time at a checkpoint height below the recommended one (placed by a pilot of the
 * first runs); the second draws each run from its checkpoint to the height. The draws are counter-based, so starting
 * at the checkpoint with its time gives the same times as drawing from the clock (plan-height.test.ts holds it
 * equal to the separate functions). When the height falls below the checkpoint, the second pass starts at the clock.
 */
function planOne(clock: PlanClock, targetMs: number, runs: number, seed: number): Omit<HeightPlan, "p50"> {
  assert(Number.isInteger(runs) && runs >= 1 && runs <= PLAN_RUNS_MAX, "runs within PLAN_RUNS_MAX");
  const pilot = heightsAt(clock, targetMs, Math.min(runs, PILOT_RUNS), seed);
  const spread = (pilot[pilot.length - 1] as number) - (pilot[0] as number);
  const checkpoint = Math.max(clock.height, (pilot[0] as number) - spread - 10);
  const heights = new Float64Array(runs);
  const checkMs = new Float64Array(runs);
  const buf = buffer(CHUNK);
  for (let i = 0; i < runs; i++) {
    const src = runSource(clock, seed, i);
    let h = clock.height;
    let t = clock.timeMs;
    let atCheck = h === checkpoint ? t : Number.NaN;
    let reached = -1;
    for (let c = 0; c < CHUNKS_MAX && (reached < 0 || h < checkpoint); c++) {
      const end = reached < 0 ? h + 1 + CHUNK : Math.min(h + 1 + CHUNK, checkpoint + 1);
      const n = src.idleTimes(h + 1, end, t, reached < 0 ? targetMs + 1 : Number.POSITIVE_INFINITY, buf, 0);
      if (Number.isNaN(atCheck) && checkpoint > h && checkpoint <= h + n) atCheck = buf[checkpoint - h - 1] as number;
      if (n > 0) t = buf[n - 1] as number;
      h += n;
      if (reached < 0 && h < end - 1) reached = h;
    }
    heights[i] = reached;
    checkMs[i] = atCheck;
  }
  const sorted = heights.slice().sort();
  const height = Math.max(clock.height + 1, recommendedHeight(sorted));
  if (height - 1 < checkpoint) return { heights: sorted, height, ...blockAndPrevious(clock, height, runs, seed) };
  const at = new Float64Array(runs);
  const previous = new Float64Array(runs);
  const blocks = height - checkpoint;
  const tail = buffer(blocks);
  for (let i = 0; i < runs; i++) {
    const src = runSource(clock, seed, i);
    const from = checkMs[i] as number;
    const n = src.idleTimes(checkpoint + 1, height + 1, from, Number.POSITIVE_INFINITY, tail, 0);
    assert(n === blocks, "every block from the checkpoint to the height is drawn");
    at[i] = tail[blocks - 1] as number;
    previous[i] = blocks >= 2 ? (tail[blocks - 2] as number) : from;
  }
  return { heights: sorted, height, at: at.sort(), previous: previous.sort() };
}

/** Runs of the centre at most: the point model's runs spread less, so a few hundred place its median. */
export const CENTRE_RUNS_MAX = 200;

/** The point model of a drift model that carries an uncertainty (the same model without it), else undefined. */
function pointModel(m: BlockTimeModel): DriftBlockTime | undefined {
  if (m.kind !== "drift" || m.uncertainty === undefined) return undefined;
  const { uncertainty: _, ...point } = m;
  return point;
}

/**
 * The recommended height for `targetMs`, its halt times and the heights reached by the target (the module's
 * contract): without an uncertainty, `planOne`; with one, the height and `p50` from min(runs, CENTRE_RUNS_MAX) runs
 * of the point model, and `heights`, `at` and `previous` from `runs` runs of the model itself at that height.
 */
export function planHeight(clock: PlanClock, targetMs: number, runs: number, seed: number): HeightPlan {
  const point = pointModel(clock.blockTime);
  if (point === undefined) {
    const p = planOne(clock, targetMs, runs, seed);
    return { ...p, p50: quantile(p.at, 0.5) };
  }
  const centre = planOne({ ...clock, blockTime: point }, targetMs, Math.min(runs, CENTRE_RUNS_MAX), seed);
  return {
    ...bandAt(clock, centre.height, targetMs, runs, seed),
    height: centre.height,
    p50: quantile(centre.at, 0.5),
  };
}

/**
 * heightsAt(targetMs) and blockAndPrevious(height) in one pass per run: each run is drawn from the clock until it has
 * passed the target and reached the height (the same values as the separate functions: plan-height.test.ts).
 */
export function bandAt(
  clock: PlanClock,
  height: number,
  targetMs: number,
  runs: number,
  seed: number,
): { heights: Float64Array; at: Float64Array; previous: Float64Array } {
  assert(
    Number.isInteger(height) && height > clock.height && targetMs > clock.timeMs,
    "a height and a target after the clock",
  );
  assert(Number.isInteger(runs) && runs >= 1 && runs <= PLAN_RUNS_MAX, "runs within PLAN_RUNS_MAX");
  const heights = new Float64Array(runs);
  const at = new Float64Array(runs);
  const previous = new Float64Array(runs);
  const buf = buffer(CHUNK);
  for (let i = 0; i < runs; i++) {
    const src = runSource(clock, seed, i);
    let h = clock.height;
    let t = clock.timeMs;
    let reached = -1;
    if (height - 1 === h) previous[i] = t;
    for (let c = 0; c < CHUNKS_MAX && (reached < 0 || h < height); c++) {
      const end = reached < 0 ? h + 1 + CHUNK : Math.min(h + 1 + CHUNK, height + 1);
      const n = src.idleTimes(h + 1, end, t, reached < 0 ? targetMs + 1 : Number.POSITIVE_INFINITY, buf, 0);
      if (height > h && height <= h + n) at[i] = buf[height - h - 1] as number;
      if (height - 1 > h && height - 1 <= h + n) previous[i] = buf[height - h - 2] as number;
      if (n > 0) t = buf[n - 1] as number;
      h += n;
      if (reached < 0 && h < end - 1) reached = h;
    }
    assert(reached >= 0 && h >= height, "every run passes the target and reaches the height");
    heights[i] = reached;
  }
  return { heights: heights.sort(), at: at.sort(), previous: previous.sort() };
}

/** The q-quantile (0 ≤ q ≤ 1) of sorted values, linear between order statistics (Hyndman–Fan type 7). */
export function quantile(sorted: Float64Array, q: number): number {
  assert(sorted.length > 0 && q >= 0 && q <= 1, "a quantile of a non-empty sample");
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(sorted.length - 1, lo + 1)] as number;
  return a + (b - a) * (pos - lo);
}

/** The height whose median halt time is `targetMs`: the lower median of the heights reached by then. */
export function recommendedHeight(heights: Float64Array): number {
  assert(heights.length > 0, "at least one run");
  return heights[(heights.length - 1) >> 1] as number;
}

export interface HaltBand {
  readonly p5: number;
  readonly p50: number;
  readonly p95: number;
}

export const band = (times: Float64Array): HaltBand => ({
  p5: quantile(times, 0.05),
  p50: quantile(times, 0.5),
  p95: quantile(times, 0.95),
});

/** The share of halt times inside the window. */
export function windowProbability(w: DailyWindow, times: Float64Array): number {
  let k = 0;
  for (const t of times) if (inWindow(w, t)) k++;
  return times.length === 0 ? 0 : k / times.length;
}
