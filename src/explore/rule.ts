/**
 * The rule of thumb of docs/fidelity.md §3.11 (x/upgrade README): schedule the plan at least
 * 2 × (VotingPeriod + DepositPeriod) + SafetyDelta after the upgrade proposal's submission, a time span that an
 * operator must turn into a height. The two usual conversions divide by the mean block time or by the shortest
 * plausible one (the simulator's docs/fidelity.md §3.11 choice); both are compared with the measured safe offset.
 */
import { type BlockTimeModel, meanInterval } from "../chain/block-time.js";
import type { CancelWindowConfig } from "./model.js";

/** 2(D + V) + S in ms. The same for every strategy, and for expedited cancels (docs/fidelity.md §3.11: they do not shorten it safely). */
export const ruleOfThumbMs = (c: Pick<CancelWindowConfig, "depositPeriodMs" | "votingPeriodMs" | "safetyDeltaMs">) =>
  2 * (c.votingPeriodMs + c.depositPeriodMs) + c.safetyDeltaMs;

/** A block interval used for a conversion, and where it comes from. */
export interface IntervalBasis {
  readonly ms: number;
  readonly basis: string;
}

const MEAN_BASIS: Readonly<Record<BlockTimeModel["kind"], string>> = {
  fixed: "fixed",
  uniform: "(min + max) / 2",
  normal: "mean of the normal model",
  drift: "long-run mean of the drift model",
};

export const meanBlockTime = (m: BlockTimeModel): IntervalBasis => ({
  ms: meanInterval(m),
  basis: MEAN_BASIS[m.kind],
});

/**
 * The shortest plausible block interval of a model: its fixed value, the uniform minimum, or for the normal model
 * its lower clip when one is set above the 1 ms default, else mean − 3σ (at least 1 ms): an unclipped normal has
 * no useful minimum.
 */
export function minBlockTime(m: BlockTimeModel): IntervalBasis {
  switch (m.kind) {
    case "fixed":
      return { ms: m.intervalMs, basis: "fixed" };
    case "uniform":
      return { ms: m.minMs, basis: "uniform minimum" };
    case "normal":
      return m.minMs > 1
        ? { ms: m.minMs, basis: "lower clip" }
        : { ms: Math.max(1, m.meanMs - 3 * m.stddevMs), basis: "mean - 3 stddev" };
    case "drift": {
      // The lowest local mean the wander plausibly reaches (3 stationary deviations), times the lowest jitter factor.
      const sd = m.wander / Math.sqrt(1 - m.persistence * m.persistence);
      const low = Math.min(m.meanMs, m.anchor.rateMs) * Math.exp(-3 * sd - m.daily.amplitude);
      return { ms: Math.max(1, low * (1 - Math.sqrt(6) * m.jitter)), basis: "drift: low local mean x low jitter" };
    }
  }
}

/** Whole blocks covering `spanMs` at `intervalMs` per block (docs/fidelity.md §3.11: ceil). */
export const blocksFor = (spanMs: number, intervalMs: number): number => Math.ceil(spanMs / intervalMs);

export interface RuleGap {
  readonly conversion: "mean" | "min";
  readonly intervalMs: number;
  readonly basis: string;
  /** The rule of thumb in blocks under this conversion. */
  readonly blocks: number;
  /** blocks − safe offset: negative when the rule schedules too early. */
  readonly gapBlocks: number;
  /** gapBlocks as a percentage of the safe offset. */
  readonly gapPercent: number;
  readonly verdict: "short" | "over" | "exact";
}

/** Both conversions of the rule against a measured safe offset. */
export function ruleGaps(ruleMs: number, model: BlockTimeModel, safeOffset: number): RuleGap[] {
  return (
    [
      ["mean", meanBlockTime(model)],
      ["min", minBlockTime(model)],
    ] as const
  ).map(([conversion, iv]) => {
    const blocks = blocksFor(ruleMs, iv.ms);
    const gapBlocks = blocks - safeOffset;
    return {
      conversion,
      intervalMs: iv.ms,
      basis: iv.basis,
      blocks,
      gapBlocks,
      gapPercent: (gapBlocks / safeOffset) * 100,
      verdict: gapBlocks < 0 ? "short" : gapBlocks > 0 ? "over" : "exact",
    };
  });
}
