/**
 * Per-trial randomness. Trial i's chain seed is the i-th draw of the exploration's own stream, and its deposit
 * delays come from a stream of that chain seed, so a trial is reproducible from (seed, i) alone, independent of the
 * run count, and the same trials are reused across the values of a sweep (common random numbers: the curves of a
 * sweep differ by the swept parameter, not by sampling noise).
 */
import { streamFor } from "../core/random.js";
import type { DelaySpec } from "./model.js";

const SEED_MAX = 2_147_483_647;

/** Chain seeds of trials 0 … runs−1 of an exploration seeded with `seed`. */
export function trialSeeds(seed: number, runs: number): number[] {
  const s = streamFor(seed, "explore/cancel-window/trials");
  return Array.from({ length: runs }, () => s.int(0, SEED_MAX));
}

/** A delay from one uniform draw in [0, 1): whole milliseconds, both ends of a range included. */
const pick = (spec: DelaySpec, u: number): number =>
  spec.kind === "fixed" ? spec.ms : spec.minMs + Math.floor(u * (spec.maxMs - spec.minMs + 1));

/** The upgrade's and the cancel's deposit delays of the trial with chain seed `trialSeed`. */
export function trialDelays(
  trialSeed: number,
  upgrade: DelaySpec,
  cancel: DelaySpec,
): { depositDelayMs: number; cancelDepositDelayMs: number } {
  const s = streamFor(trialSeed, "explore/cancel-window/deposit-delay");
  // Both draws always happen, so a fixed upgrade delay never shifts the cancel's draw.
  const u = s.next();
  const c = s.next();
  return { depositDelayMs: pick(upgrade, u), cancelDepositDelayMs: pick(cancel, c) };
}
