/**
 * TEMPORARY ADAPTER (issue #23): heights ↔ times for `preflight` until the Monte Carlo planner of branch wt/drift
 * (`src/explore/plan-height.ts`: `haltTimes`, `heightsAt`) lands; then this file is deleted and preflight.ts calls
 * the planner with the same arguments. It draws each run's block times from the chain's `BlockTimeSource` with seed
 * `seed + run`, the first block after the clock taking the source's interval of height 1 (as a chain started `from:`
 * a profile does), and sums them.
 */
import type { BlockTimeModel } from "../chain/block-time.js";
import { BlockTimeSource } from "../chain/block-time.js";
import { assert } from "../core/assert.js";

/** Where the chain stands: a height, its time, and its block-time model. */
export interface PlanClock {
  readonly height: number;
  readonly timeMs: number;
  readonly blockTime: BlockTimeModel;
}

/** Blocks one run walks at most (≈ 1 year of 1 s blocks): the bound of every loop here. */
const BLOCKS_MAX = 40_000_000;

/** Sorted simulated times of block `height` (> clock.height), one per run. */
export function haltTimes(clock: PlanClock, height: number, runs: number, seed: number): Float64Array {
  const blocks = height - clock.height;
  assert(blocks >= 1 && blocks <= BLOCKS_MAX, "a height ahead of the clock, within the bound");
  const out = new Float64Array(runs);
  for (let r = 0; r < runs; r++) {
    const src = new BlockTimeSource(seed + r, clock.blockTime);
    let t = clock.timeMs;
    for (let k = 1; k <= blocks; k++) t += src.interval(k);
    out[r] = t;
  }
  return out.sort();
}

/** Sorted heights reached by time `timeMs` (the last block at or before it), one per run. */
export function heightsAt(clock: PlanClock, timeMs: number, runs: number, seed: number): Float64Array {
  const out = new Float64Array(runs);
  for (let r = 0; r < runs; r++) {
    const src = new BlockTimeSource(seed + r, clock.blockTime);
    let t = clock.timeMs;
    let k = 0;
    for (; k < BLOCKS_MAX; k++) {
      const next = t + src.interval(k + 1);
      if (next > timeMs) break;
      t = next;
    }
    out[r] = clock.height + k;
  }
  return out.sort();
}

/** The q-quantile (0 ≤ q ≤ 1) of sorted values, nearest rank. */
export function quantile(sorted: Float64Array, q: number): number {
  assert(sorted.length > 0, "a quantile of some values");
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}
