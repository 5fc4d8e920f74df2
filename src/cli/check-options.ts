import { PROPERTY_NAMES } from "../../properties/index.js";
import { parseDuration } from "../core/go/duration.js";
import { WORKERS_MAX } from "../core/worker-pool.js";
import { FAULT_NAMES, type Fault } from "../faults/index.js";
import { DEFAULT_MAX_COMMANDS, RUNS_PER_UNIT, type Shard } from "../harness/campaign.js";
import { UserError } from "./exit.js";
import { ensureDir } from "./out-dir.js";
import { parseSeed } from "./run.js";

/** Runs per property of `chainsim check` without `--runs`. */
export const CHECK_DEFAULT_RUNS = 100;

/** The raw flags of `chainsim check` as commander hands them over. */
export interface CheckFlags {
  readonly runs?: string;
  readonly seed?: string;
  readonly timeLimit?: string;
  readonly property?: readonly string[];
  readonly shard?: string;
  readonly faults?: string;
  readonly maxCommands?: string;
  readonly bail?: boolean;
  /** `--prefix-share`: runs share their command prefixes. */
  readonly prefixShare?: boolean;
  /** False with `--no-page` (commander's negated flag). */
  readonly page?: boolean;
  readonly json?: boolean;
  readonly reportDir?: string;
  readonly regressionsDir?: string;
  readonly workers?: string;
}

export interface CheckConfig {
  readonly seed: number;
  /** True when `--seed` was not given (the seed was drawn at random). */
  readonly seedDrawn: boolean;
  readonly runsPerProperty: number;
  readonly runsPerUnit: number;
  readonly properties: readonly string[];
  readonly shard: Shard;
  readonly faults: readonly Fault[];
  readonly maxCommands: number;
  readonly timeLimitMs: number | undefined;
  /** Stop at the first failing run, unshrunk (`--bail`). */
  readonly bail: boolean;
  /** Runs share their command prefixes (`--prefix-share`; harness/shared-prefix.ts). */
  readonly prefixShare: boolean;
  /** Write the run's HTML page (`--no-page`: summary.json and junit.xml only; `chainsim report` draws it later). */
  readonly page: boolean;
  readonly json: boolean;
  readonly reportDir: string;
  readonly regressionsDir: string;
  /** Worker threads running the units (`--workers`; 1: all in this thread). */
  readonly workers: number;
}

function positiveInt(flag: string, v: string): number {
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v)) || Number(v) < 1)
    throw new UserError(`${flag}: expected a positive integer, got "${v}"`);
  return Number(v);
}

/** `i/N` with 1 ≤ i ≤ N. */
export function parseShard(v: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(v);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (m === null || count < 1 || index < 1 || index > count || !Number.isSafeInteger(count))
    throw new UserError(`--shard: expected i/N with 1 <= i <= N (e.g. 1/4), got "${v}"`);
  return { index, count };
}

function parseWorkers(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > WORKERS_MAX)
    throw new UserError(`--workers: expected an integer in 1..${WORKERS_MAX}, got "${v}"`);
  return Number(v);
}

function parseTimeLimit(v: string): number {
  const d = parseDuration(v);
  if (!d.ok) throw new UserError(`--time-limit: ${d.error}`);
  if (d.value <= 0) throw new UserError(`--time-limit: expected a positive duration (e.g. 60s, 2m), got "${v}"`);
  return d.value;
}

function parseProperties(vs: readonly string[] | undefined): string[] {
  if (vs === undefined || vs.length === 0) return [...PROPERTY_NAMES];
  const out: string[] = [];
  for (const v of vs.flatMap((x) => x.split(",")).map((x) => x.trim())) {
    if (!PROPERTY_NAMES.includes(v))
      throw new UserError(`--property: unknown property "${v}" (known: ${PROPERTY_NAMES.join(", ")})`);
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

function parseFaults(v: string | undefined): Fault[] {
  if (v === undefined || v.trim() === "") return [];
  const out: Fault[] = [];
  for (const f of v.split(",").map((x) => x.trim())) {
    if (!(FAULT_NAMES as readonly string[]).includes(f))
      throw new UserError(`--faults: unknown fault "${f}" (known: ${FAULT_NAMES.join(", ")})`);
    if (!out.includes(f as Fault)) out.push(f as Fault);
  }
  return out;
}

/**
 * Validates the flags; throws a UserError naming the flag (exit code 2) on the first bad one. `drawSeed` supplies
 * the seed when `--seed` is absent (the edge draws it at random and prints it first).
 */
export function parseCheckFlags(
  f: CheckFlags,
  o: {
    readonly drawSeed: () => number;
    readonly defaultRuns?: number;
    readonly defaultTimeLimit?: string;
    /** The default of `--workers`: the cores of the machine (injected by the edge); 1 when absent. */
    readonly cores?: number;
  },
): CheckConfig {
  const seed = parseSeed(f.seed);
  const timeLimit = f.timeLimit ?? o.defaultTimeLimit;
  return {
    seed: seed ?? o.drawSeed(),
    seedDrawn: seed === undefined,
    runsPerProperty: f.runs === undefined ? (o.defaultRuns ?? CHECK_DEFAULT_RUNS) : positiveInt("--runs", f.runs),
    runsPerUnit: RUNS_PER_UNIT,
    properties: parseProperties(f.property),
    shard: f.shard === undefined ? { index: 1, count: 1 } : parseShard(f.shard),
    faults: parseFaults(f.faults),
    maxCommands: f.maxCommands === undefined ? DEFAULT_MAX_COMMANDS : positiveInt("--max-commands", f.maxCommands),
    timeLimitMs: timeLimit === undefined ? undefined : parseTimeLimit(timeLimit),
    bail: f.bail === true,
    prefixShare: f.prefixShare === true,
    page: f.page !== false,
    json: f.json === true,
    reportDir: f.reportDir ?? "reports",
    regressionsDir: f.regressionsDir ?? "scenarios/regressions",
    workers: f.workers === undefined ? defaultWorkers(o.cores ?? 1) : parseWorkers(f.workers),
  };
}

/**
 * The default worker count for `cores` cores: one per core, except on two cores or fewer, where it is one. Measured
 * (docs/performance.md, `harness-runs-per-s-all-cores`): on two cores a second worker thread brings 1.05–1.22×,
 * because one thread already keeps V8's compiler and collector busy on the other core; a second worker is the
 * default only where it pays (the rule: ≥ 1.6×). The result is the same for any count.
 */
function defaultWorkers(cores: number): number {
  return cores <= 2 ? 1 : Math.min(WORKERS_MAX, cores);
}

/** Creates the report folder before the campaign runs; a bad one is a one-line UserError naming the flag (exit 2). */
export function prepareOutputDirs(c: CheckConfig): void {
  const bad = ensureDir("--report-dir", c.reportDir);
  if (bad !== undefined) throw new UserError(bad);
}
