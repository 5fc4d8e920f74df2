/**
 * The flags of `chainsim explore cancel-window`, validated into an `ExploreRequest`: the gov periods, the trial model
 * (block times, deposit delays, strategy, runs, seed, confidence), the output, the offsets searched and the sweep.
 * Pure (no I/O). A bad flag is one line naming it (`--<flag>: <what was wrong>`), the first problem in the order of
 * the sections below; the command exits 2 with it (README, command table).
 */
import type { BlockTimeModel } from "../chain/block-time.js";
import { durationMs } from "../core/brand.js";
import { err, ok, type Result } from "../core/errors.js";
import { parseDuration } from "../core/go/duration.js";
import { searchRange } from "../explore/explore.js";
import {
  type CancelWindowConfig,
  DEFAULT_CONFIG,
  type DelaySpec,
  type OffsetSpec,
  STRATEGIES,
  type Strategy,
  type SweepAxis,
  type SweepSpec,
} from "../explore/model.js";
import { WORKERS_MAX } from "../explore/pool.js";
import { applySweepValue } from "../explore/sweep.js";

/** The flags of `chainsim explore cancel-window`, as commander hands them over (strings, one boolean). */
export interface CancelWindowFlags {
  readonly depositPeriod?: string;
  readonly votingPeriod?: string;
  readonly expeditedVotingPeriod?: string;
  readonly expedited?: boolean;
  readonly safetyDelta?: string;
  readonly blockTime?: string;
  readonly blockTimeMin?: string;
  readonly blockTimeMax?: string;
  readonly blockTimeMean?: string;
  readonly blockTimeStddev?: string;
  readonly depositDelay?: string;
  readonly cancelDepositDelay?: string;
  readonly offset?: string;
  readonly offsetMin?: string;
  readonly offsetMax?: string;
  readonly offsetStep?: string;
  readonly points?: string;
  readonly strategy?: string;
  readonly runs?: string;
  readonly seed?: string;
  readonly confidence?: string;
  readonly sweep?: string;
  readonly sweepValues?: string;
  readonly format?: string;
  /** `--json`: the simulator commands' machine-output flag, the same as `--format json`. */
  readonly json?: boolean;
  readonly chart?: string;
  readonly out?: string;
  readonly workers?: string;
}

export type OutputFormat = "text" | "csv" | "json";
const FORMATS: readonly OutputFormat[] = ["text", "csv", "json"];
export const DEFAULT_OUT = "reports/explore/latest.json";
const RUNS_MAX = 1_000_000;
/** Offsets in a sweep's grid by default (`--points`). */
export const SWEEP_POINTS = 40;

export interface ExploreRequest {
  readonly config: CancelWindowConfig;
  readonly sweep: SweepSpec | undefined;
  readonly format: OutputFormat;
  readonly chart: string | undefined;
  readonly out: string;
  /** Worker threads running the engine runs (1: this thread only). */
  readonly workers: number;
}

type Parsed<T> = Result<T, string>;
const flagErr = (flag: string, message: string): Parsed<never> => err(`--${flag}: ${message}`);

function duration(
  flag: string,
  v: string | undefined,
  fallback: number,
  min: "positive" | "nonNegative",
): Parsed<number> {
  if (v === undefined) return ok(fallback);
  const d = parseDuration(v);
  if (!d.ok) return flagErr(flag, d.error);
  if (min === "positive" ? d.value <= 0 : d.value < 0)
    return flagErr(flag, `expected a ${min === "positive" ? "positive" : "non-negative"} duration, got "${v}"`);
  return ok(d.value);
}

function integer(flag: string, v: string, min: number, max = Number.MAX_SAFE_INTEGER): Parsed<number> {
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v)) || Number(v) < min || Number(v) > max)
    return flagErr(flag, `expected an integer in ${min}..${max}, got "${v}"`);
  return ok(Number(v));
}

function oneOf<T extends string>(flag: string, v: string | undefined, allowed: readonly T[], fallback: T): Parsed<T> {
  if (v === undefined) return ok(fallback);
  if (!(allowed as readonly string[]).includes(v)) return flagErr(flag, `expected ${allowed.join("|")}, got "${v}"`);
  return ok(v as T);
}

/** `--deposit-delay 36h`, `0s..48h`; `D` stands for the deposit period. */
function delay(flag: string, v: string | undefined, fallback: DelaySpec, depositPeriodMs: number): Parsed<DelaySpec> {
  if (v === undefined) return ok(fallback);
  const one = (s: string): Parsed<number> => {
    if (s.trim() === "D") return ok(depositPeriodMs);
    const d = parseDuration(s.trim());
    if (!d.ok) return flagErr(flag, d.error);
    if (d.value < 0 || d.value > depositPeriodMs)
      return flagErr(flag, `${s.trim()} is outside 0..D (the deposit period, ${depositPeriodMs / 1000}s)`);
    return ok(d.value);
  };
  const parts = v.split("..");
  if (parts.length > 2) return flagErr(flag, `expected a duration or a range <from>..<to>, got "${v}"`);
  const from = one(parts[0]!);
  if (!from.ok) return from;
  if (parts.length === 1) return ok({ kind: "fixed", ms: from.value });
  const to = one(parts[1]!);
  if (!to.ok) return to;
  if (to.value < from.value) return flagErr(flag, `range "${v}" ends before it starts`);
  return ok(
    from.value === to.value
      ? { kind: "fixed", ms: from.value }
      : { kind: "uniform", minMs: from.value, maxMs: to.value },
  );
}

function blockTime(f: CancelWindowFlags): Parsed<BlockTimeModel> {
  const given = (k: keyof CancelWindowFlags) => f[k] !== undefined;
  const dur = (flag: string, v: string | undefined) => duration(flag, v, 0, "positive");
  if (given("blockTime")) {
    for (const k of ["blockTimeMin", "blockTimeMax", "blockTimeMean", "blockTimeStddev"] as const)
      if (given(k)) return flagErr(kebab(k), "cannot be combined with --block-time (a fixed interval)");
    const d = dur("block-time", f.blockTime);
    return d.ok ? ok({ kind: "fixed", intervalMs: durationMs(d.value) }) : d;
  }
  const min = f.blockTimeMin === undefined ? undefined : dur("block-time-min", f.blockTimeMin);
  const max = f.blockTimeMax === undefined ? undefined : dur("block-time-max", f.blockTimeMax);
  if (min !== undefined && !min.ok) return min;
  if (max !== undefined && !max.ok) return max;
  if (min?.ok && max?.ok && max.value < min.value)
    return flagErr("block-time-max", `${f.blockTimeMax} is below --block-time-min ${f.blockTimeMin}`);
  if (given("blockTimeMean") || given("blockTimeStddev")) {
    if (!given("blockTimeMean")) return flagErr("block-time-stddev", "needs --block-time-mean");
    if (!given("blockTimeStddev")) return flagErr("block-time-mean", "needs --block-time-stddev");
    const mean = dur("block-time-mean", f.blockTimeMean);
    if (!mean.ok) return mean;
    const sd = duration("block-time-stddev", f.blockTimeStddev, 0, "nonNegative");
    if (!sd.ok) return sd;
    return ok({
      kind: "normal",
      meanMs: durationMs(mean.value),
      stddevMs: durationMs(sd.value),
      minMs: durationMs(min?.ok ? min.value : 1),
      ...(max?.ok ? { maxMs: durationMs(max.value) } : {}),
    });
  }
  if (min === undefined && max === undefined) return ok(DEFAULT_CONFIG.blockTime);
  if (min === undefined) return flagErr("block-time-max", "needs --block-time-min (uniform block times)");
  if (max === undefined) return flagErr("block-time-min", "needs --block-time-max (uniform block times)");
  return ok({ kind: "uniform", minMs: durationMs(min.value as number), maxMs: durationMs(max.value as number) });
}

const kebab = (k: string): string => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const SWEEPS: Readonly<Record<string, SweepAxis>> = {
  "offset,spread": "spread",
  "offset,deposit-delay": "deposit-delay",
};

/** The gov parameters: deposit and voting periods, the expedited voting period below the latter, the safety delta. */
function govFlags(f: CancelWindowFlags) {
  const D = DEFAULT_CONFIG;
  const depositPeriodMs = duration("deposit-period", f.depositPeriod, D.depositPeriodMs, "positive");
  if (!depositPeriodMs.ok) return depositPeriodMs;
  const votingPeriodMs = duration("voting-period", f.votingPeriod, D.votingPeriodMs, "positive");
  if (!votingPeriodMs.ok) return votingPeriodMs;
  // The reference default (24h) while it stays below the voting period, else half the voting period.
  const expDefault =
    D.expeditedVotingPeriodMs < votingPeriodMs.value ? D.expeditedVotingPeriodMs : Math.floor(votingPeriodMs.value / 2);
  const expeditedVotingPeriodMs = duration("expedited-voting-period", f.expeditedVotingPeriod, expDefault, "positive");
  if (!expeditedVotingPeriodMs.ok) return expeditedVotingPeriodMs;
  if (expeditedVotingPeriodMs.value >= votingPeriodMs.value)
    return flagErr("expedited-voting-period", "must be shorter than the voting period (gov params validation)");
  const safetyDeltaMs = duration("safety-delta", f.safetyDelta, D.safetyDeltaMs, "nonNegative");
  if (!safetyDeltaMs.ok) return safetyDeltaMs;
  return ok({
    depositPeriodMs: depositPeriodMs.value,
    votingPeriodMs: votingPeriodMs.value,
    expeditedVotingPeriodMs: expeditedVotingPeriodMs.value,
    expedited: f.expedited === true,
    safetyDeltaMs: safetyDeltaMs.value,
  });
}

/** The trial model: block times, deposit delays (the worst case by default), strategy, runs, seed, confidence. */
function trialFlags(f: CancelWindowFlags, depositPeriodMs: number) {
  const D = DEFAULT_CONFIG;
  const bt = blockTime(f);
  if (!bt.ok) return bt;
  const worst: DelaySpec = { kind: "fixed", ms: depositPeriodMs };
  const depositDelay = delay("deposit-delay", f.depositDelay, worst, depositPeriodMs);
  if (!depositDelay.ok) return depositDelay;
  const cancelDepositDelay = delay("cancel-deposit-delay", f.cancelDepositDelay, depositDelay.value, depositPeriodMs);
  if (!cancelDepositDelay.ok) return cancelDepositDelay;
  const strategy = oneOf<Strategy>("strategy", f.strategy, STRATEGIES, D.strategy);
  if (!strategy.ok) return strategy;
  const runs = f.runs === undefined ? ok(D.runs) : integer("runs", f.runs, 1, RUNS_MAX);
  if (!runs.ok) return runs;
  const seed = f.seed === undefined ? ok(D.seed) : integer("seed", f.seed, 0);
  if (!seed.ok) return seed;
  let confidence = D.confidence;
  if (f.confidence !== undefined) {
    const c = Number(f.confidence);
    if (f.confidence.trim() === "" || !Number.isFinite(c) || c <= 0 || c >= 1)
      return flagErr("confidence", `expected a probability strictly between 0 and 1, got "${f.confidence}"`);
    confidence = c;
  }
  return ok({
    blockTime: bt.value,
    depositDelay: depositDelay.value,
    cancelDepositDelay: cancelDepositDelay.value,
    strategy: strategy.value,
    runs: runs.value,
    seed: seed.value,
    confidence,
  });
}

/** The output: format (`--json` is `--format json`), chart and out files, worker threads. */
function outputFlags(f: CancelWindowFlags, defaultWorkers: number): Parsed<Omit<ExploreRequest, "config" | "sweep">> {
  if (f.json === true && f.format !== undefined && f.format !== "json")
    return flagErr("json", `conflicts with --format ${f.format}`);
  const format = oneOf<OutputFormat>("format", f.json === true ? "json" : f.format, FORMATS, "text");
  if (!format.ok) return format;
  if (f.chart !== undefined && f.chart.trim() === "") return flagErr("chart", "expected a file name");
  if (f.out !== undefined && f.out.trim() === "") return flagErr("out", "expected a file name");
  const workers =
    f.workers === undefined
      ? ok(Math.min(WORKERS_MAX, Math.max(1, defaultWorkers)))
      : integer("workers", f.workers, 1, WORKERS_MAX);
  if (!workers.ok) return workers;
  return ok({ format: format.value, chart: f.chart, out: f.out ?? DEFAULT_OUT, workers: workers.value });
}

/** The swept axis, if any; the sweep's own flags without `--sweep` are an error. */
function sweepAxisFlag(f: CancelWindowFlags): Parsed<SweepAxis | undefined> {
  if (f.sweep !== undefined) {
    const axis = SWEEPS[f.sweep];
    if (axis === undefined) return flagErr("sweep", `expected ${Object.keys(SWEEPS).join("|")}, got "${f.sweep}"`);
    return ok(axis);
  }
  for (const k of ["sweepValues", "offsetStep", "points"] as const)
    if (f[k] !== undefined) return flagErr(kebab(k), "only applies with --sweep");
  return ok(undefined);
}

/** The offsets searched: one (`--offset`, not with a sweep), a range (its open end NaN until resolved), or auto. */
function offsetFlags(f: CancelWindowFlags, sweepAxis: SweepAxis | undefined): Parsed<OffsetSpec> {
  if (f.offset !== undefined) {
    if (f.offsetMin !== undefined || f.offsetMax !== undefined)
      return flagErr("offset", "cannot be combined with --offset-min/--offset-max");
    if (sweepAxis !== undefined) return flagErr("offset", "a sweep needs a range (--offset-min/--offset-max)");
    const o = integer("offset", f.offset, 1);
    if (!o.ok) return o;
    return ok({ kind: "single", offset: o.value });
  }
  if (f.offsetMin !== undefined || f.offsetMax !== undefined) {
    const min = f.offsetMin === undefined ? ok(1) : integer("offset-min", f.offsetMin, 1);
    if (!min.ok) return min;
    const max = f.offsetMax === undefined ? undefined : integer("offset-max", f.offsetMax, 1);
    if (max !== undefined && !max.ok) return max;
    return ok({ kind: "range", min: min.value, max: max?.ok ? max.value : Number.NaN });
  }
  return ok({ kind: "auto" });
}

/** A range's open end resolved to the automatic range's end; the range must not end before it starts. */
function withRangeEnd(config: CancelWindowConfig): Parsed<CancelWindowConfig> {
  const offsets = config.offsets;
  if (offsets.kind !== "range") return ok(config);
  const max = Number.isNaN(offsets.max) ? searchRange({ ...config, offsets: { kind: "auto" } }).max : offsets.max;
  if (max < offsets.min) return flagErr("offset-max", `${max} is below --offset-min ${offsets.min}`);
  return ok({ ...config, offsets: { kind: "range", min: offsets.min, max } });
}

/** The sweep over `axis`: its values (each valid for the configuration), and the grid's step or points. */
function sweepFlags(f: CancelWindowFlags, axis: SweepAxis, config: CancelWindowConfig): Parsed<SweepSpec> {
  const values = sweepValues(axis, f.sweepValues, config);
  if (!values.ok) return values;
  const step = f.offsetStep === undefined ? undefined : integer("offset-step", f.offsetStep, 1);
  if (step !== undefined && !step.ok) return step;
  const points = f.points === undefined ? ok(SWEEP_POINTS) : integer("points", f.points, 2, 5000);
  if (!points.ok) return points;
  return ok({
    axis,
    valuesMs: values.value,
    points: points.value,
    ...(step?.ok ? { offsetStep: step.value } : {}),
  });
}

/**
 * Validates every flag; the first problem is returned as one line naming the flag. Pure (no I/O): the default
 * worker count (one per core) is handed in.
 *
 * 1. The gov periods, then the trial model (the deposit delays are bounded by the deposit period).
 * 2. The output flags.
 * 3. The swept axis, then the offsets (a sweep needs a range), resolved against the configuration.
 * 4. The sweep's values and grid.
 */
export function parseCancelWindowFlags(f: CancelWindowFlags, defaultWorkers = 1): Parsed<ExploreRequest> {
  const gov = govFlags(f);
  if (!gov.ok) return gov;
  const trial = trialFlags(f, gov.value.depositPeriodMs);
  if (!trial.ok) return trial;
  const output = outputFlags(f, defaultWorkers);
  if (!output.ok) return output;
  const sweepAxis = sweepAxisFlag(f);
  if (!sweepAxis.ok) return sweepAxis;
  const offsets = offsetFlags(f, sweepAxis.value);
  if (!offsets.ok) return offsets;
  const config = withRangeEnd({ ...DEFAULT_CONFIG, ...gov.value, ...trial.value, offsets: offsets.value });
  if (!config.ok) return config;
  let sweep: SweepSpec | undefined;
  if (sweepAxis.value !== undefined) {
    const spec = sweepFlags(f, sweepAxis.value, config.value);
    if (!spec.ok) return spec;
    sweep = spec.value;
  }
  return ok({ config: config.value, sweep, ...output.value });
}

/** Spreads 0, 1/12, 1/6, 1/3, 1/2 of the mean block time; deposit delays 0, D/4, D/2, 3D/4, D. */
function sweepValues(axis: SweepAxis, v: string | undefined, cfg: CancelWindowConfig): Parsed<number[]> {
  let values: number[];
  if (v === undefined) {
    if (axis === "deposit-delay") values = [0, 1, 2, 3, 4].map((i) => Math.round((cfg.depositPeriodMs * i) / 4));
    else {
      const m = cfg.blockTime;
      const mean = m.kind === "fixed" ? m.intervalMs : m.kind === "uniform" ? (m.minMs + m.maxMs) / 2 : m.meanMs;
      values = [0, 12, 6, 3, 2].map((d) => (d === 0 ? 0 : Math.round(mean / d)));
    }
  } else {
    values = [];
    for (const item of v.split(",")) {
      const d = parseDuration(item.trim());
      if (!d.ok) return flagErr("sweep-values", d.error);
      values.push(d.value);
    }
    if (new Set(values).size !== values.length) return flagErr("sweep-values", `"${v}" lists a value twice`);
  }
  for (const x of values) {
    const c = applySweepValue(cfg, axis, x);
    if (!c.ok) return flagErr("sweep-values", c.error);
  }
  return ok(values);
}
