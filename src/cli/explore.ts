import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname } from "node:path";
import { SingleBar } from "cli-progress";
import type { Command } from "commander";
import type { BlockTimeModel } from "../chain/block-time.js";
import { durationMs } from "../core/brand.js";
import { err, ok, type Result } from "../core/errors.js";
import { parseDuration } from "../core/go/duration.js";
import { explorationChart, sweepChart, type VegaLiteSpec } from "../explore/chart.js";
import { exploringCancelWindow, searchRange } from "../explore/explore.js";
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
import { runOnWorkers, WORKERS_MAX } from "../explore/pool.js";
import { explorationCsv, explorationText, sweepCsv, sweepText } from "../explore/render.js";
import type { Exploration } from "../explore/summarize.js";
import { applySweepValue, type SweepExploration, sweepingCancelWindow } from "../explore/sweep.js";
import { ExitCode } from "./exit.js";
import { registerHaltRecovery } from "./explore-halt-recovery.js";

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
const SWEEP_POINTS = 40;

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

/**
 * Validates every flag; the first problem is returned as one line naming the flag. Pure (no I/O): the default
 * worker count (one per core) is handed in.
 */
export function parseCancelWindowFlags(f: CancelWindowFlags, defaultWorkers = 1): Parsed<ExploreRequest> {
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
  const bt = blockTime(f);
  if (!bt.ok) return bt;
  const worst: DelaySpec = { kind: "fixed", ms: depositPeriodMs.value };
  const depositDelay = delay("deposit-delay", f.depositDelay, worst, depositPeriodMs.value);
  if (!depositDelay.ok) return depositDelay;
  const cancelDepositDelay = delay(
    "cancel-deposit-delay",
    f.cancelDepositDelay,
    depositDelay.value,
    depositPeriodMs.value,
  );
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

  let sweepAxis: SweepAxis | undefined;
  if (f.sweep !== undefined) {
    sweepAxis = SWEEPS[f.sweep];
    if (sweepAxis === undefined) return flagErr("sweep", `expected ${Object.keys(SWEEPS).join("|")}, got "${f.sweep}"`);
  } else {
    for (const k of ["sweepValues", "offsetStep", "points"] as const)
      if (f[k] !== undefined) return flagErr(kebab(k), "only applies with --sweep");
  }

  let offsets: OffsetSpec = { kind: "auto" };
  if (f.offset !== undefined) {
    if (f.offsetMin !== undefined || f.offsetMax !== undefined)
      return flagErr("offset", "cannot be combined with --offset-min/--offset-max");
    if (sweepAxis !== undefined) return flagErr("offset", "a sweep needs a range (--offset-min/--offset-max)");
    const o = integer("offset", f.offset, 1);
    if (!o.ok) return o;
    offsets = { kind: "single", offset: o.value };
  } else if (f.offsetMin !== undefined || f.offsetMax !== undefined) {
    const min = f.offsetMin === undefined ? ok(1) : integer("offset-min", f.offsetMin, 1);
    if (!min.ok) return min;
    const max = f.offsetMax === undefined ? undefined : integer("offset-max", f.offsetMax, 1);
    if (max !== undefined && !max.ok) return max;
    offsets = { kind: "range", min: min.value, max: max?.ok ? max.value : Number.NaN };
  }

  let config: CancelWindowConfig = {
    ...D,
    depositPeriodMs: depositPeriodMs.value,
    votingPeriodMs: votingPeriodMs.value,
    expeditedVotingPeriodMs: expeditedVotingPeriodMs.value,
    expedited: f.expedited === true,
    safetyDeltaMs: safetyDeltaMs.value,
    blockTime: bt.value,
    depositDelay: depositDelay.value,
    cancelDepositDelay: cancelDepositDelay.value,
    strategy: strategy.value,
    runs: runs.value,
    seed: seed.value,
    confidence,
    offsets,
  };
  if (offsets.kind === "range") {
    const max = Number.isNaN(offsets.max) ? searchRange({ ...config, offsets: { kind: "auto" } }).max : offsets.max;
    if (max < offsets.min) return flagErr("offset-max", `${max} is below --offset-min ${offsets.min}`);
    config = { ...config, offsets: { kind: "range", min: offsets.min, max } };
  }

  let sweep: SweepSpec | undefined;
  if (sweepAxis !== undefined) {
    const values = sweepValues(sweepAxis, f.sweepValues, config);
    if (!values.ok) return values;
    const step = f.offsetStep === undefined ? undefined : integer("offset-step", f.offsetStep, 1);
    if (step !== undefined && !step.ok) return step;
    const points = f.points === undefined ? ok(SWEEP_POINTS) : integer("points", f.points, 2, 5000);
    if (!points.ok) return points;
    sweep = {
      axis: sweepAxis,
      valuesMs: values.value,
      points: points.value,
      ...(step?.ok ? { offsetStep: step.value } : {}),
    };
  }
  return ok({
    config,
    sweep,
    format: format.value,
    chart: f.chart,
    out: f.out ?? DEFAULT_OUT,
    workers: workers.value,
  });
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

export interface ExploreIo {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  /** Whether stderr is a terminal (progress bar). */
  readonly isTty: boolean;
  readonly writeFile: (path: string, text: string) => void;
  readonly nowMs: () => number;
  /** Worker threads by default (`--workers`): the cores of the machine. */
  readonly cores: number;
}

/** Renders a Vega-Lite spec to SVG with vega (headless, no canvas). */
export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  const [vega, vl] = await Promise.all([import("vega"), import("vega-lite")]);
  const compiled = vl.compile(spec as unknown as Parameters<typeof vl.compile>[0]).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  return view.toSVG();
}

/** Runs the command; returns the exit code. */
export async function cancelWindowCommand(f: CancelWindowFlags, io: ExploreIo): Promise<number> {
  const req = parseCancelWindowFlags(f, io.cores);
  if (!req.ok) {
    io.err(`Error: ${req.error}`);
    return ExitCode.usage;
  }
  const { config, sweep } = req.value;
  const bar = io.isTty
    ? new SingleBar({
        format: "cancel-window [{bar}] {value}/{total} engine runs | {duration}s",
        stream: process.stderr,
      })
    : undefined;
  let started = false;
  const onProgress = (done: number, total: number) => {
    if (bar === undefined) return;
    if (!started) {
      bar.start(total, 0);
      started = true;
    }
    bar.update(done);
  };
  const t0 = io.nowMs();
  const workers = req.value.workers;
  const result: Result<Exploration | SweepExploration, string> =
    sweep === undefined
      ? await runOnWorkers(exploringCancelWindow(config), workers, { onProgress })
      : await runOnWorkers(sweepingCancelWindow(config, sweep), workers, { onProgress });
  if (started) bar?.stop();
  if (!result.ok) {
    io.err(`Error: ${result.error}`);
    return ExitCode.usage;
  }
  const x = result.value;
  const wallMs = io.nowMs() - t0;
  const json = JSON.stringify({ ...x, wallMs }, null, 2);
  const lines =
    req.value.format === "json"
      ? [json]
      : x.kind === "cancel-window"
        ? req.value.format === "csv"
          ? explorationCsv(x)
          : explorationText(x)
        : req.value.format === "csv"
          ? sweepCsv(x)
          : sweepText(x);
  for (const l of lines) io.out(l);
  const wrote: string[] = [];
  try {
    io.writeFile(req.value.out, `${json}\n`);
    wrote.push(req.value.out);
    if (req.value.chart !== undefined) {
      const spec = x.kind === "cancel-window" ? explorationChart(x) : sweepChart(x);
      io.writeFile(req.value.chart, await renderSvg(spec));
      wrote.push(req.value.chart);
    }
  } catch (e) {
    io.err(`Error: ${e instanceof Error ? e.message : String(e)}`);
    return ExitCode.usage;
  }
  const note = `${x.engineRuns} engine runs in ${(wallMs / 1000).toFixed(1)} s wall; wrote ${wrote.join(", ")}`;
  if (req.value.format === "text") io.out(`   (${note})`);
  else io.err(note);
  const series = x.kind === "cancel-window" ? [x] : x.series;
  const broken = series.some((s) => s.anomalies.length > 0 || s.verification?.ok === false);
  return broken ? ExitCode.failed : ExitCode.ok;
}

export const nodeWriteFile = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

export function registerExplore(
  program: Command,
  io: { out: (s: string) => void; err: (s: string) => void },
  setExit: (c: number) => void,
): Command {
  const explore = program.command("explore").description("explore a question by Monte Carlo runs of the chain engine");
  registerHaltRecovery(explore, { ...io, renderSvg }, setExit);
  explore
    .command("cancel-window")
    .description(
      "how far ahead must an upgrade be scheduled so that a cancel can still pass? (docs/fidelity.md §3.11, measured on the engine)",
    )
    .option("--deposit-period <dur>", "gov max_deposit_period D (Go duration)", "48h")
    .option("--voting-period <dur>", "gov voting_period V", "48h")
    .option("--expedited-voting-period <dur>", "gov expedited_voting_period (default 24h, or V/2 when V <= 24h)")
    .option("--expedited", "the cancel proposal is expedited")
    .option("--safety-delta <dur>", "S: from the upgrade passing to the cancel's submission (after-pass)", "24h")
    .option("--block-time <dur>", "fixed block interval")
    .option(
      "--block-time-min <dur>",
      "uniform block times: smallest interval (default 5s; with --block-time-mean: lower clip)",
    )
    .option(
      "--block-time-max <dur>",
      "uniform block times: largest interval (default 7s; with --block-time-mean: upper clip)",
    )
    .option("--block-time-mean <dur>", "normal block times: mean (with --block-time-stddev)")
    .option("--block-time-stddev <dur>", "normal block times: standard deviation")
    .option(
      "--deposit-delay <dur|from..to>",
      "when each proposal reaches min_deposit after submission, within 0..D (D = the deposit period; default D, the worst case)",
    )
    .option("--cancel-deposit-delay <dur|from..to>", "the same for the cancel only (default: --deposit-delay)")
    .option("--offset <n>", "one plan offset (plan height - submission height) to evaluate")
    .option("--offset-min <n>", "smallest offset searched (default 1)")
    .option("--offset-max <n>", "largest offset searched (default 4 x the rule of thumb at the mean block time)")
    .option("--strategy <s>", "after-pass | during-voting", "after-pass")
    .option("--runs <n>", "Monte Carlo runs per configuration", "200")
    .option("--seed <n>", "seed of the exploration (trial seeds derive from it)", "1")
    .option("--confidence <p>", "target probability that the cancel lands", "0.999")
    .option("--sweep <axes>", "offset,spread | offset,deposit-delay")
    .option("--sweep-values <list>", "comma-separated durations of the swept axis (default: 5 values)")
    .option("--offset-step <n>", "sweep: offset grid step (default: --points offsets across the transition)")
    .option("--points <n>", `sweep: offsets in the grid (default ${SWEEP_POINTS})`)
    .option("--format <f>", "text | csv | json (default: text)")
    .option("--json", "machine output: the same as --format json")
    .option("--chart <file.svg>", "write a chart (SVG, rendered with vega-lite)")
    .option("--out <file>", "write the exploration as JSON", DEFAULT_OUT)
    .option(
      "--workers <n>",
      `worker threads running the engine runs (default: one per core; 1 runs in this thread; results are the same for any count; max ${WORKERS_MAX})`,
    )
    .action(async (opts: CancelWindowFlags) => {
      setExit(
        await cancelWindowCommand(opts, {
          ...io,
          isTty: process.stderr.isTTY === true,
          writeFile: nodeWriteFile,
          nowMs: () => performance.now(),
          cores: availableParallelism(),
        }),
      );
    });
  return explore;
}
