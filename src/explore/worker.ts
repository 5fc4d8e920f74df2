/**
 * The worker side of the explorer's pool (pool.ts): one task is a slice of a batch's jobs, run in job order with
 * `runBatch`, exactly as the calling thread would run them. Each worker keeps nothing between tasks but what
 * `runBatch` rebuilds from the task itself, so a result depends on its job alone, never on which worker ran it.
 */
import { runBatch, type TrialBatch } from "./batch.js";
import type { TrialResult } from "./trial.js";

export default function runSlice(slice: TrialBatch): TrialResult[] {
  return runBatch(slice);
}
