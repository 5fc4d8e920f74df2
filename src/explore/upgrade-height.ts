/**
 * `chainsim explore upgrade-height` (docs/block-time-model.md §3): from a rehearsal profile and a target time, the
 * recommended upgrade height, the band of its halt times, the naive estimate beside it, the chance of halting in a
 * daily window, and the latest submission of a cancel that still passes before that height.
 *
 * Steps:
 * 1. The clock: the profile's `at` and its `chain.blockTime` (a drift model without an anchor is anchored at `at`).
 *    A model drawn from the seed's stream (fixed, uniform, normal) is planned on heights counted from `at`, so no
 *    draw is made for the heights below it.
 * 2. Heights reached by the target in each run; the recommended height is their lower median (plan-height.ts). A
 *    fitted drift model takes it from its point model's runs and its band from the model's own runs (each drawing
 *    its parameters: the fit's uncertainty).
 * 3. The halt times of that height and of the block before it; P5/P95 from the model's runs, P50 from the runs that
 *    chose the height; the share inside the window.
 * 4. The naive estimate: now + Δt / the window's mean block time from the profile's history (else the model's mean).
 * 5. Cancel deadlines (x/gov: a proposal passes in the EndBlocker of the first block at or after its voting end;
 *    the cancel must land in a block before the plan's height): P5 of the previous block's time minus V (deposit met
 *    at submission), minus D + V (the deposit reached at the end of the deposit period), and minus the expedited
 *    period when an expedited cancel reaches its threshold; one that does not falls back to a regular vote ending
 *    V after submission (docs/fidelity.md §3.11), so its safe deadline is the regular one.
 */
import { type BlockTimeModel, meanInterval } from "../chain/block-time.js";
import { type UnixMs, unixMs } from "../core/brand.js";
import { err, ok, type Result } from "../core/errors.js";
import { parseDuration } from "../core/go/duration.js";
import { parseRfc3339 } from "../core/go/time.js";
import { GOV_DEFAULTS } from "../scenario/defaults.js";
import type { Profile } from "../scenario/profile.js";
import { type BlockTimeDocument, resolveBlockTime } from "../scenario/resolve.js";
import type { DailyWindow } from "./daily-window.js";
import { band, type HaltBand, type PlanClock, planHeight, quantile, windowProbability } from "./plan-height.js";

export interface UpgradeHeightRequest {
  readonly targetMs: number;
  readonly runs: number;
  readonly seed: number;
  readonly window: DailyWindow | undefined;
}

export interface UpgradeHeightPlan {
  readonly at: { readonly height: number; readonly timeMs: number };
  readonly targetMs: number;
  readonly runs: number;
  readonly seed: number;
  readonly model: BlockTimeModel;
  readonly recommendedHeight: number;
  readonly halt: HaltBand;
  /** Heights reached by the target: P5, P50, P95. */
  readonly heights: HaltBand;
  readonly window: { readonly text: string; readonly probability: number } | undefined;
  readonly naive: {
    readonly meanBlockTimeMs: number;
    readonly basis: string;
    /** now + Δt / mean. */
    readonly height: number;
    /** The time the naive rule expects the recommended height at. */
    readonly timeAtRecommendedMs: number;
  };
  readonly cancel: {
    readonly depositPeriodMs: number;
    readonly votingPeriodMs: number;
    readonly expeditedVotingPeriodMs: number;
    /** Latest submission (ms) with the deposit met at once; 95% of the runs still land the cancel. */
    readonly depositMetMs: number;
    /** Latest submission when the deposit arrives only at the end of the deposit period. */
    readonly depositLateMs: number;
    /** Latest submission of an expedited cancel that reaches the expedited threshold. */
    readonly expeditedPassMs: number;
  };
  /** The sorted halt times, for the chart. */
  readonly haltTimesMs: Float64Array;
}

/** Step 1: the clock of a profile. */
export function profileClock(p: Profile): Result<PlanClock & { relative: boolean }, string> {
  const at = parseRfc3339(p.at.time);
  if (!at.ok) return err(`at.time: ${at.error}`);
  const doc: BlockTimeDocument = p.chain.blockTime ?? "6s";
  const anchored =
    typeof doc !== "string" && doc.drift !== undefined && doc.drift.anchor === undefined
      ? { ...doc, drift: { ...doc.drift, anchor: { height: p.at.height, time: p.at.time } } }
      : doc;
  const model = resolveBlockTime(anchored, at.value);
  const relative = model.kind !== "drift";
  return ok({ height: relative ? 0 : p.at.height, timeMs: at.value, blockTime: model, relative });
}

const durationOr = (text: string | undefined, fallback: string): number => {
  const r = parseDuration(text ?? fallback);
  return r.ok ? r.value : 0;
};

/** Step 4's mean: the profile history's window mean, else the model's. */
function naiveMean(p: Profile, model: BlockTimeModel): { ms: number; basis: string } {
  const w = p.history?.meanBlockTime.window;
  const r = w === undefined ? undefined : parseDuration(w);
  if (r?.ok === true && r.value > 0) return { ms: r.value, basis: "the history window's mean block time" };
  return { ms: meanInterval(model), basis: "the model's mean block time" };
}

/** Steps 2–5. */
export function planUpgradeHeight(p: Profile, req: UpgradeHeightRequest): Result<UpgradeHeightPlan, string> {
  const c = profileClock(p);
  if (!c.ok) return c;
  const clock = c.value;
  const offset = c.value.relative ? p.at.height : 0;
  if (req.targetMs <= clock.timeMs) return err(`--target: must be after the profile's at.time ${p.at.time}`);
  const { heights, height: h, ...times } = planHeight(clock, req.targetMs, req.runs, req.seed);
  const naive = naiveMean(p, clock.blockTime);
  const g = p.chain.gov ?? {};
  const depositPeriodMs = durationOr(g.maxDepositPeriod, GOV_DEFAULTS.maxDepositPeriod);
  const votingPeriodMs = durationOr(g.votingPeriod, GOV_DEFAULTS.votingPeriod);
  const expeditedVotingPeriodMs = durationOr(g.expeditedVotingPeriod, GOV_DEFAULTS.expeditedVotingPeriod);
  const lastSafe = quantile(times.previous, 0.05);
  return ok({
    at: { height: p.at.height, timeMs: clock.timeMs },
    targetMs: req.targetMs,
    runs: req.runs,
    seed: req.seed,
    model: clock.blockTime,
    recommendedHeight: h + offset,
    halt: { ...band(times.at), p50: times.p50 },
    heights: {
      p5: quantile(heights, 0.05) + offset,
      p50: quantile(heights, 0.5) + offset,
      p95: quantile(heights, 0.95) + offset,
    },
    window:
      req.window === undefined
        ? undefined
        : { text: req.window.text, probability: windowProbability(req.window, times.at) },
    naive: {
      meanBlockTimeMs: naive.ms,
      basis: naive.basis,
      height: p.at.height + Math.round((req.targetMs - clock.timeMs) / naive.ms),
      timeAtRecommendedMs: clock.timeMs + (h - clock.height) * naive.ms,
    },
    cancel: {
      depositPeriodMs,
      votingPeriodMs,
      expeditedVotingPeriodMs,
      depositMetMs: lastSafe - votingPeriodMs,
      depositLateMs: lastSafe - depositPeriodMs - votingPeriodMs,
      expeditedPassMs: lastSafe - expeditedVotingPeriodMs,
    },
    haltTimesMs: times.at,
  });
}

/** `--target`: an RFC 3339 time, or `+<duration>` after the profile's `at.time`. */
export function parseTarget(text: string, atMs: UnixMs): Result<UnixMs, string> {
  if (text.startsWith("+")) {
    const d = parseDuration(text);
    if (!d.ok) return err(`expected an RFC 3339 time or "+<duration>" (e.g. "+48h"), got "${text}": ${d.error}`);
    return ok(unixMs(atMs + d.value));
  }
  const t = parseRfc3339(text);
  return t.ok ? t : err(`expected an RFC 3339 time or "+<duration>" (e.g. "+48h"), got "${text}"`);
}
