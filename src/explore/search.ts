/**
 * Offsets from per-trial landing offsets. A trial lands at every offset ≥ its landing offset (trial.ts), so the
 * number of landed trials k(o) is non-decreasing in the offset o, and so is any criterion built on it (the point
 * estimate k/n, the Wilson lower bound): the smallest qualifying offset is found by binary search.
 */
import { wilson } from "./wilson.js";

/** Sorted finite landing offsets (ascending); +∞ entries (never landed in range) are dropped. */
export const sortedLandings = (landings: readonly number[]): number[] =>
  landings.filter(Number.isFinite).sort((a, b) => a - b);

/** k(o): how many trials land at offset o, given the ascending finite landing offsets. */
export function landedAt(sorted: readonly number[], offset: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The smallest integer o in [min, max] with pred(o), for a predicate monotone in o; null when none. */
export function smallestOffset(min: number, max: number, pred: (o: number) => boolean): number | null {
  if (min > max || !pred(max)) return null;
  let lo = min;
  let hi = max;
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The two criteria for "safe at this confidence": Wilson 95% lower bound, and the point estimate. */
export function safeOffsets(
  sorted: readonly number[],
  runs: number,
  confidence: number,
  min: number,
  max: number,
): { byLowerBound: number | null; byPoint: number | null } {
  return {
    byLowerBound: smallestOffset(min, max, (o) => wilson(landedAt(sorted, o), runs).lo >= confidence),
    byPoint: smallestOffset(min, max, (o) => landedAt(sorted, o) / runs >= confidence),
  };
}
