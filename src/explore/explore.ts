/**
 * `chainsim explore cancel-window`, the deterministic core: Monte Carlo over block-time draws (and deposit delays)
 * of cancel-window trials run on the chain engine, the probability that the cancel lands per offset with a Wilson
 * 95% interval, the smallest offset reaching the target confidence, and the rule of thumb against it.
 *
 * Cost: one engine run per trial seed, not one per (seed, offset). Each seed runs once with the plan at the largest
 * offset of the search range; its landing offset (trial.ts) then gives its outcome at every smaller offset exactly.
 * The search is a binary search over the monotone k(o) (search.ts) and is then refined by re-running the boundary
 * trial on the engine at the found offset (must land) and one block earlier (must not): `verification`.
 */
import { meanInterval } from "../chain/block-time.js";
import { durationMs } from "../core/brand.js";
import { err, ok, type Result } from "../core/errors.js";
import type { Scenario } from "../scenario/index.js";
import { trialScenario } from "./chain.js";
import type { CancelWindowConfig, SweepAxis, SweepSpec } from "./model.js";
import { blocksFor, meanBlockTime, minBlockTime, type RuleGap, ruleGaps, ruleOfThumbMs } from "./rule.js";
import { landedAt, safeOffsets, sortedLandings } from "./search.js";
import { trialDelays, trialSeeds } from "./seeds.js";
import { landingOffset, runTrial, type TrialInput, type TrialOutcome, type TrialResult } from "./trial.js";
import { type Proportion, trialsNeededForLowerBound, wilson } from "./wilson.js";

export interface ExploreOptions {
  /** Called as engine runs complete with (runs done, runs planned). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** One engine run of a batch: the trial `input` on the chain of `configs[config]`. */
export interface TrialJob {
  readonly config: number;
  readonly input: TrialInput;
}

/**
 * Engine runs an exploration needs at once. Every job is independent of the others (its own engine, built from
 * its configuration and input alone), so a runner may run them in any order and on any thread; it returns the
 * results in job order, which is what makes an exploration identical for any number of workers.
 */
export interface TrialBatch {
  readonly configs: readonly CancelWindowConfig[];
  readonly jobs: readonly TrialJob[];
  /** Most engine runs the exploration may still ask for after this batch (for progress totals). */
  readonly plannedAfter: number;
  /**
   * Consecutive jobs come in groups of this many that share a trial seed (a sweep runs each seed under every
   * value): a runner that keeps a group on one thread draws that seed's block times once (chain/block-time.ts).
   * A hint for speed only; absent means 1.
   */
  readonly group?: number;
}

/**
 * An exploration as a computation over batches: it yields each batch of engine runs it needs and resumes with
 * their results, in job order. `runBatches` drives it in this thread; a worker pool drives the same generator.
 */
export type Exploring<T> = Generator<TrialBatch, Result<T, string>, readonly TrialResult[]>;

/**
 * Trial chains by configuration (its JSON): a worker receives its configurations as copies with every task, and a
 * chain resolved once keeps its app host (genesis built once) for every later task. A memo of a pure function,
 * bounded: cleared when it holds `CHAINS_MAX` chains.
 */
const chains = new Map<string, Scenario>();
const CHAINS_MAX = 64;

function chainOf(cfg: CancelWindowConfig): Scenario {
  const key = JSON.stringify(cfg);
  let chain = chains.get(key);
  if (chain === undefined) {
    const s = trialScenario(cfg);
    // The exploration resolved every configuration before yielding a batch.
    if (!s.ok) throw new Error(`cancel-window trial chain: ${s.error}`);
    if (chains.size >= CHAINS_MAX) chains.clear();
    chain = s.value;
    chains.set(key, chain);
  }
  return chain;
}

/** Runs one batch in this thread, one engine per job; `onRun` is called after each. */
export function runBatch(batch: TrialBatch, onRun?: () => void): TrialResult[] {
  const resolved = batch.configs.map(chainOf);
  return batch.jobs.map((j) => {
    const r = runTrial(resolved[j.config]!, batch.configs[j.config]!, j.input);
    onRun?.();
    return r;
  });
}

/** Drives an exploration in this thread. */
export function runBatches<T>(x: Exploring<T>, o: ExploreOptions = {}): Result<T, string> {
  let done = 0;
  let total = 0;
  let next = x.next();
  while (!next.done) {
    const batch = next.value;
    total = done + batch.jobs.length + batch.plannedAfter;
    next = x.next(
      runBatch(batch, () => {
        done++;
        o.onProgress?.(done, total);
      }),
    );
  }
  return next.value;
}

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

export interface SweepExploration {
  readonly kind: "cancel-window-sweep";
  /** The configuration the swept values replace a part of. */
  readonly base: CancelWindowConfig;
  readonly axis: SweepAxis;
  readonly valuesMs: readonly number[];
  /** The offset grid shared by every series. */
  readonly offsets: readonly number[];
  /** One exploration per swept value, in value order, with `points` on the shared grid. */
  readonly series: readonly Exploration[];
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
/** Most offsets a sweep grid may have. */
export const GRID_MAX = 5000;

/** The offsets searched: the given one or range, or 1 … 4 × the rule of thumb at the mean block time. */
export function searchRange(cfg: CancelWindowConfig): { min: number; max: number } {
  const o = cfg.offsets;
  if (o.kind === "single") return { min: o.offset, max: o.offset };
  if (o.kind === "range") return { min: o.min, max: o.max };
  return { min: 1, max: Math.max(1000, 4 * blocksFor(ruleOfThumbMs(cfg), meanInterval(cfg.blockTime))) };
}

interface Measurement {
  readonly landings: number[];
  readonly outcomes: Record<TrialOutcome, number>;
  readonly anomalies: string[];
}

function trialInputs(cfg: CancelWindowConfig, offset: number): TrialInput[] {
  return trialSeeds(cfg.seed, cfg.runs).map((seed) => ({
    seed,
    offset,
    ...trialDelays(seed, cfg.depositDelay, cfg.cancelDepositDelay),
  }));
}

function measure(cfg: CancelWindowConfig, inputs: readonly TrialInput[], results: readonly TrialResult[]): Measurement {
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

/**
 * The boundary check of a recommended offset: the trial with the largest landing offset not above it (the one
 * that sets the boundary) re-run at the offset (must land) and, when it lands exactly there, one block earlier
 * (must not). `inputs` are the runs to make; `verdict` reads their results.
 */
interface VerificationPlan {
  readonly inputs: readonly TrialInput[];
  readonly verdict: (results: readonly TrialResult[]) => Verification;
}

function planVerification(
  inputs: readonly TrialInput[],
  landings: readonly number[],
  offset: number,
): VerificationPlan | null {
  let best = -1;
  landings.forEach((l, i) => {
    if (l <= offset && (best < 0 || l > landings[best]!)) best = i;
  });
  if (best < 0) return null;
  const input = inputs[best]!;
  const checkBefore = landings[best] === offset && offset > 1;
  return {
    inputs: checkBefore
      ? [
          { ...input, offset },
          { ...input, offset: offset - 1 },
        ]
      : [{ ...input, offset }],
    verdict: (results) => {
      const at = results[0]!.outcome;
      const before = checkBefore ? { offset: offset - 1, outcome: results[1]!.outcome } : null;
      return {
        trial: best,
        seed: input.seed,
        at: { offset, outcome: at },
        before,
        ok: at === "landed" && (before === null || before.outcome !== "landed"),
      };
    },
  };
}

function evenly(lo: number, hi: number, points: number): number[] {
  if (hi <= lo) return [lo];
  if (points < 2) return [lo, hi];
  const out = new Set<number>();
  for (let i = 0; i < points; i++) out.add(Math.round(lo + ((hi - lo) * i) / (points - 1)));
  return [...out];
}

/** Offsets from just below the first landing to the last one (where the probability climbs), within the range. */
function transition(sorted: readonly number[], range: { min: number; max: number }): { lo: number; hi: number } {
  if (sorted.length === 0) return { lo: range.min, hi: range.max };
  return { lo: Math.max(range.min, sorted[0]! - 1), hi: Math.min(range.max, sorted[sorted.length - 1]!) };
}

function summarize(
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

/** A measured series, the runs that verify its recommended offset, and how to read them back. */
interface Measured {
  readonly x: Exploration;
  readonly plan: VerificationPlan | null;
}

function measured(
  cfg: CancelWindowConfig,
  range: { min: number; max: number },
  inputs: readonly TrialInput[],
  m: Measurement,
  grid: readonly number[] | undefined,
): Measured {
  const x = summarize(cfg, range, m, grid);
  const offset = x.recommendation?.offset;
  return { x, plan: offset === undefined ? null : planVerification(inputs, m.landings, offset) };
}

/** Runs the verifications of every series in one batch and completes them. */
function* verifyAll(
  configs: readonly CancelWindowConfig[],
  series: readonly Measured[],
): Generator<TrialBatch, Exploration[], readonly TrialResult[]> {
  const jobs = series.flatMap((s, config) => (s.plan?.inputs ?? []).map((input) => ({ config, input })));
  const results = jobs.length === 0 ? [] : yield { configs, jobs, plannedAfter: 0 };
  let next = 0;
  return series.map((s) => {
    if (s.plan === null) return s.x;
    const own = results.slice(next, (next += s.plan.inputs.length));
    return { ...s.x, verification: s.plan.verdict(own), engineRuns: s.x.engineRuns + own.length };
  });
}

/** Explores one configuration. Fails (one line) only when the trial chain is invalid (e.g. gov params). */
export function* exploringCancelWindow(cfg: CancelWindowConfig): Exploring<Exploration> {
  const chain = trialScenario(cfg);
  if (!chain.ok) return chain;
  const range = searchRange(cfg);
  const inputs = trialInputs(cfg, range.max);
  const configs = [cfg];
  const results = yield { configs, jobs: inputs.map((input) => ({ config: 0, input })), plannedAfter: 2 };
  const m = measure(cfg, inputs, results);
  const [x] = yield* verifyAll(configs, [measured(cfg, range, inputs, m, undefined)]);
  return ok(x!);
}

/** `exploringCancelWindow` run in this thread. */
export function exploreCancelWindow(cfg: CancelWindowConfig, o: ExploreOptions = {}): Result<Exploration, string> {
  return runBatches(exploringCancelWindow(cfg), o);
}

/** The configuration at one value of a sweep axis; fails (one line) for a value the axis cannot take. */
export function applySweepValue(
  cfg: CancelWindowConfig,
  axis: SweepAxis,
  valueMs: number,
): Result<CancelWindowConfig, string> {
  if (!Number.isInteger(valueMs) || valueMs < 0) return err(`${valueMs} ms is not a non-negative whole number of ms`);
  if (axis === "deposit-delay") {
    if (valueMs > cfg.depositPeriodMs)
      return err(`deposit delay ${valueMs} ms exceeds the deposit period (${cfg.depositPeriodMs} ms)`);
    const d = { kind: "fixed", ms: valueMs } as const;
    return ok({ ...cfg, depositDelay: d, cancelDepositDelay: d });
  }
  const m = cfg.blockTime;
  if (m.kind === "normal") return ok({ ...cfg, blockTime: { ...m, stddevMs: durationMs(valueMs) } });
  const mean = meanInterval(m);
  if (valueMs === 0) return ok({ ...cfg, blockTime: { kind: "fixed", intervalMs: durationMs(Math.round(mean)) } });
  const lo = Math.round(mean - valueMs);
  if (lo < 1) return err(`spread ${valueMs} ms is not below the mean block time (${mean} ms)`);
  return ok({
    ...cfg,
    blockTime: { kind: "uniform", minMs: durationMs(lo), maxMs: durationMs(Math.round(mean + valueMs)) },
  });
}

/**
 * A grid: the offset against a spread of block times or a deposit delay. Every value reuses the same trial seeds.
 * The offset grid spans the transitions of all values, `points` offsets or every `offsetStep` blocks.
 */
export function* sweepingCancelWindow(cfg: CancelWindowConfig, sweep: SweepSpec): Exploring<SweepExploration> {
  const configs: CancelWindowConfig[] = [];
  for (const v of sweep.valuesMs) {
    const c = applySweepValue(cfg, sweep.axis, v);
    if (!c.ok) return c;
    configs.push(c.value);
  }
  for (const c of configs) {
    const s = trialScenario(c);
    if (!s.ok) return s;
  }
  const planned = configs.map((c) => {
    const range = searchRange(c);
    return { c, range, inputs: trialInputs(c, range.max) };
  });
  // Seed-major: trial i under every value, then trial i + 1, so that each group shares its seed's block-time draws.
  const runs = cfg.runs;
  const jobs = Array.from({ length: runs * configs.length }, (_, j) => ({
    config: j % configs.length,
    input: planned[j % configs.length]!.inputs[Math.floor(j / configs.length)]!,
  }));
  const results = yield { configs, jobs, plannedAfter: 2 * configs.length, group: configs.length };
  const prepared = planned.map((p, config) => ({
    ...p,
    m: measure(
      p.c,
      p.inputs,
      p.inputs.map((_, i) => results[i * configs.length + config]!),
    ),
  }));
  const all = sortedLandings(prepared.flatMap((p) => p.m.landings));
  const range = {
    min: Math.min(...prepared.map((p) => p.range.min)),
    max: Math.max(...prepared.map((p) => p.range.max)),
  };
  const { lo, hi } = transition(all, range);
  const step = sweep.offsetStep;
  if (step !== undefined && (hi - lo) / step + 1 > GRID_MAX)
    return err(`an offset step of ${step} gives more than ${GRID_MAX} offsets over ${lo}..${hi}`);
  const offsets =
    step === undefined
      ? evenly(lo, hi, sweep.points)
      : Array.from({ length: Math.floor((hi - lo) / step) + 1 }, (_, i) => lo + i * step);
  if (offsets[offsets.length - 1]! < hi) offsets.push(hi);
  const series = yield* verifyAll(
    configs,
    prepared.map((p) => measured(p.c, p.range, p.inputs, p.m, offsets)),
  );
  return ok({
    kind: "cancel-window-sweep",
    base: cfg,
    axis: sweep.axis,
    valuesMs: sweep.valuesMs,
    offsets,
    series,
    engineRuns: jobs.length + series.reduce((n, x) => n + x.engineRuns - x.landingOffsets.length, 0),
  });
}

/** `sweepingCancelWindow` run in this thread. */
export function sweepCancelWindow(
  cfg: CancelWindowConfig,
  sweep: SweepSpec,
  o: ExploreOptions = {},
): Result<SweepExploration, string> {
  return runBatches(sweepingCancelWindow(cfg, sweep), o);
}
