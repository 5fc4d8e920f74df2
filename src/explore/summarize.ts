/**
 * The statistics of one cancel-window exploration (explore.ts): the probe runs' outcomes and landing offsets
 * (`measure`), and from them (`summarize`) the probability that the cancel lands per offset with a Wilson 95%
 * interval, the smallest offsets reaching the target confidence (by the lower bound and by the point estimate), the
 * rule of thumb against the recommended offset, and the offsets a chart shows: an even grid over the transition from
 * the first landing to the last, plus the marked offsets.
 */
import { meanInterval } from "../chain/block-time.js";
import type { CancelWindowConfig } from "./model.js";
import { blocksFor, meanBlockTime, minBlockTime, type RuleGap, ruleGaps, ruleOfThumbMs } from "./rule.js";
import { landedAt, safeOffsets, sortedLandings } from "./search.js";
import { landingOffset, type TrialInput, type TrialOutcome, type TrialResult } from "./trial.js";
import { type Proportion, trialsNeededForLowerBound, wilson } from "./wilson.js";

export interface OffsetPoint extends Proportion {
  readonly offset: number;
  /** offset × mean block time. */
  readonly timeAtMeanMs: number;
  /** Why this row is shown besides the grid: `rule@mean`, `rule@min`, `safe(lower)`, `safe(point)`. */
  readonly marks: readonly string[];
}

export interface SafeOffset extends Proportion {
  readonly offset: number;
  readonly timeAtMeanMs: number;
}

export interface Verification {
  /** Index and chain seed of the trial whose landing offset is the recommended offset. */
  readonly trial: number;
  readonly seed: number;
  readonly at: { readonly offset: number; readonly outcome: TrialOutcome };
  /** One block earlier; null when the trial already landed below the recommended offset. */
  readonly before: { readonly offset: number; readonly outcome: TrialOutcome } | null;
  readonly ok: boolean;
}

export interface Exploration {
  readonly kind: "cancel-window";
  readonly config: CancelWindowConfig;
  /** Offsets searched (inclusive); the probe runs use the plan at `range.max`. */
  readonly range: { readonly min: number; readonly max: number };
  readonly ruleOfThumb: {
    readonly ms: number;
    readonly mean: { readonly intervalMs: number; readonly basis: string; readonly blocks: number };
    readonly min: { readonly intervalMs: number; readonly basis: string; readonly blocks: number };
  };
  /** Outcome counts of the probe runs (plan at `range.max`). */
  readonly outcomes: Readonly<Record<TrialOutcome, number>>;
  /** Per trial: its landing offset, or null when it does not land anywhere in the range. */
  readonly landingOffsets: readonly (number | null)[];
  readonly landingStats: {
    readonly min: number;
    readonly max: number;
    readonly mean: number;
    readonly stddev: number;
  } | null;
  readonly safe: {
    readonly confidence: number;
    /** Smallest offset whose Wilson 95% lower bound reaches the confidence. */
    readonly byLowerBound: SafeOffset | null;
    /** Smallest offset whose landed fraction reaches the confidence. */
    readonly byPoint: SafeOffset | null;
    /** Runs for which the lower bound can reach the confidence at all (every run landing). */
    readonly runsNeededForLowerBound: number;
  };
  /** The offset to act on (lower bound if reached, else the point estimate) and the rule of thumb against it. */
  readonly recommendation: {
    readonly offset: number;
    readonly timeAtMeanMs: number;
    readonly basis: "lower-bound" | "point-estimate";
    readonly gaps: readonly RuleGap[];
  } | null;
  readonly verification: Verification | null;
  readonly points: readonly OffsetPoint[];
  /** Unexpected outcomes (a broken setup), with the first details. */
  readonly anomalies: readonly string[];
  /** Engine runs made (probes and verification). */
  readonly engineRuns: number;
}

const OUTCOMES: readonly TrialOutcome[] = [
  "landed",
  "too-late",
  "cancel-before-upgrade",
  "plan-in-past",
  "upgrade-not-passed",
  "cancel-not-passed",
  "plan-survived",
];
const EXPECTED = new Set<TrialOutcome>(["landed", "too-late", "cancel-before-upgrade", "plan-in-past"]);
const GRID_POINTS = 11;
/** What the probe runs showed: each trial's landing offset, the outcome counts and the first anomalies. */
export interface Measurement {
  readonly landings: number[];
  readonly outcomes: Record<TrialOutcome, number>;
  readonly anomalies: string[];
}

/** The measurement of the probe runs `inputs` from their `results` (in the same order). */
export function measure(
  cfg: CancelWindowConfig,
  inputs: readonly TrialInput[],
  results: readonly TrialResult[],
): Measurement {
  const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<TrialOutcome, number>;
  const anomalies: string[] = [];
  const landings = inputs.map((input, i) => {
    const res = results[i]!;
    outcomes[res.outcome]++;
    if (!EXPECTED.has(res.outcome) && anomalies.length < 3)
      anomalies.push(`trial ${i} (seed ${input.seed}): ${res.outcome}: ${res.detail}`);
    return landingOffset(res, cfg.submitHeight);
  });
  return { landings, outcomes, anomalies };
}

/** Up to `points` whole offsets spread evenly over lo … hi. */
export function evenly(lo: number, hi: number, points: number): number[] {
  if (hi <= lo) return [lo];
  if (points < 2) return [lo, hi];
  const out = new Set<number>();
  for (let i = 0; i < points; i++) out.add(Math.round(lo + ((hi - lo) * i) / (points - 1)));
  return [...out];
}

/** Offsets from just below the first landing to the last one (where the probability climbs), within the range. */
export function transition(sorted: readonly number[], range: { min: number; max: number }): { lo: number; hi: number } {
  if (sorted.length === 0) return { lo: range.min, hi: range.max };
  return { lo: Math.max(range.min, sorted[0]! - 1), hi: Math.min(range.max, sorted[sorted.length - 1]!) };
}

/**
 * The exploration a measurement gives, without its verification: the points on `grid` when given (a sweep's shared
 * grid, no marks), else on an even grid over the transition plus the marked offsets.
 */
export function summarize(
  cfg: CancelWindowConfig,
  range: { min: number; max: number },
  m: Measurement,
  grid: readonly number[] | undefined,
): Exploration {
  const n = cfg.runs;
  const sorted = sortedLandings(m.landings);
  const meanMs = meanInterval(cfg.blockTime);
  const ruleMs = ruleOfThumbMs(cfg);
  const mean = meanBlockTime(cfg.blockTime);
  const min = minBlockTime(cfg.blockTime);
  const at = (offset: number): SafeOffset => ({
    offset,
    timeAtMeanMs: offset * meanMs,
    ...wilson(landedAt(sorted, offset), n),
  });
  const safe = safeOffsets(sorted, n, cfg.confidence, range.min, range.max);
  const byLowerBound = safe.byLowerBound === null ? null : at(safe.byLowerBound);
  const byPoint = safe.byPoint === null ? null : at(safe.byPoint);
  const recommended = byLowerBound ?? byPoint;
  const ruleMean = blocksFor(ruleMs, mean.ms);
  const ruleMin = blocksFor(ruleMs, min.ms);

  const marks = new Map<number, string[]>();
  const mark = (o: number | null, tag: string) => {
    if (o === null || o < range.min || o > range.max) return;
    marks.set(o, [...(marks.get(o) ?? []), tag]);
  };
  mark(ruleMean, "rule@mean");
  mark(ruleMin, "rule@min");
  mark(safe.byLowerBound, "safe(lower)");
  mark(safe.byPoint, "safe(point)");
  const { lo, hi } = transition(sorted, range);
  const offsets = grid ?? [...new Set([...evenly(lo, hi, GRID_POINTS), ...marks.keys()])].sort((a, b) => a - b);
  const points = offsets.map((o) => ({ ...at(o), marks: grid === undefined ? (marks.get(o) ?? []) : [] }));

  const finite = sorted;
  const avg = finite.reduce((s, v) => s + v, 0) / Math.max(1, finite.length);
  const variance = finite.reduce((s, v) => s + (v - avg) ** 2, 0) / Math.max(1, finite.length - 1);
  return {
    kind: "cancel-window",
    config: cfg,
    range,
    ruleOfThumb: {
      ms: ruleMs,
      mean: { intervalMs: mean.ms, basis: mean.basis, blocks: ruleMean },
      min: { intervalMs: min.ms, basis: min.basis, blocks: ruleMin },
    },
    outcomes: m.outcomes,
    landingOffsets: m.landings.map((l) => (Number.isFinite(l) ? l : null)),
    landingStats:
      finite.length === 0
        ? null
        : { min: finite[0]!, max: finite[finite.length - 1]!, mean: avg, stddev: Math.sqrt(variance) },
    safe: {
      confidence: cfg.confidence,
      byLowerBound,
      byPoint,
      runsNeededForLowerBound: trialsNeededForLowerBound(cfg.confidence),
    },
    recommendation:
      recommended === null
        ? null
        : {
            offset: recommended.offset,
            timeAtMeanMs: recommended.timeAtMeanMs,
            basis: byLowerBound === null ? "point-estimate" : "lower-bound",
            gaps: ruleGaps(ruleMs, cfg.blockTime, recommended.offset),
          },
    verification: null,
    points,
    anomalies: m.anomalies,
    engineRuns: m.landings.length,
  };
}
