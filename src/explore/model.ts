/**
 * The cancel-window question (docs/fidelity.md §3.11): "how far ahead must the upgrade be scheduled so that a cancel
 * can still pass?", as data. Durations are milliseconds (`…Ms`), heights and offsets are block counts.
 */
import type { BlockTimeModel } from "../chain/block-time.js";
import { durationMs } from "../core/brand.js";

/** When the cancel proposal is submitted (docs/fidelity.md §3.11: after the upgrade passed, or while it still votes). */
export type Strategy = "after-pass" | "during-voting";
export const STRATEGIES: readonly Strategy[] = ["after-pass", "during-voting"];

/** How long after its submission a proposal reaches `min_deposit`: a fixed delay or uniform over a range. */
export type DelaySpec =
  | { readonly kind: "fixed"; readonly ms: number }
  | { readonly kind: "uniform"; readonly minMs: number; readonly maxMs: number };

/** Offsets (plan height − submission height) to evaluate: one, or a range searched for the safe offset. */
export type OffsetSpec =
  | { readonly kind: "single"; readonly offset: number }
  | { readonly kind: "range"; readonly min: number; readonly max: number }
  /** A range derived from the rule of thumb (wide enough to contain every trial's boundary). */
  | { readonly kind: "auto" };

export interface CancelWindowConfig {
  /** Gov `max_deposit_period` (D). */
  readonly depositPeriodMs: number;
  /** Gov `voting_period` (V). */
  readonly votingPeriodMs: number;
  /** Gov `expedited_voting_period`; must be < V. */
  readonly expeditedVotingPeriodMs: number;
  /** Whether the cancel proposal is expedited (the upgrade proposal never is). */
  readonly expedited: boolean;
  /** S: time between the upgrade passing and the cancel's submission (after-pass). */
  readonly safetyDeltaMs: number;
  readonly blockTime: BlockTimeModel;
  /** When the upgrade proposal reaches its minimum deposit, after its submission. Within [0, D]. */
  readonly depositDelay: DelaySpec;
  /** The same for the cancel proposal. Within [0, D]. */
  readonly cancelDepositDelay: DelaySpec;
  readonly strategy: Strategy;
  /** Monte Carlo trials per configuration. */
  readonly runs: number;
  readonly seed: number;
  /** Target probability that the cancel lands. */
  readonly confidence: number;
  readonly offsets: OffsetSpec;
  /** Height whose block carries the upgrade proposal's submission (h0). */
  readonly submitHeight: number;
}

/** The two-dimensional explorations: the offset against one other parameter. */
export type SweepAxis = "spread" | "deposit-delay";

export interface SweepSpec {
  readonly axis: SweepAxis;
  /** Spreads (± around the mean for uniform, the standard deviation for normal) or deposit delays, in ms. */
  readonly valuesMs: readonly number[];
  /** Offsets shown per value: an explicit step, or about `points` evenly spaced offsets across the boundary. */
  readonly offsetStep?: number;
  readonly points: number;
}

const HOUR_MS = 3_600_000;

/** Reference gov periods (docs/fidelity.md §3.8), S = 24h, blocks 6s ± 1s uniform, after-pass, 200 runs, seed 1. */
export const DEFAULT_CONFIG: CancelWindowConfig = {
  depositPeriodMs: 48 * HOUR_MS,
  votingPeriodMs: 48 * HOUR_MS,
  expeditedVotingPeriodMs: 24 * HOUR_MS,
  expedited: false,
  safetyDeltaMs: 24 * HOUR_MS,
  blockTime: { kind: "uniform", minMs: durationMs(5000), maxMs: durationMs(7000) },
  depositDelay: { kind: "fixed", ms: 48 * HOUR_MS },
  cancelDepositDelay: { kind: "fixed", ms: 48 * HOUR_MS },
  strategy: "after-pass",
  runs: 200,
  seed: 1,
  confidence: 0.999,
  offsets: { kind: "auto" },
  submitHeight: 2,
};
