import { execFileSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SingleBar } from "cli-progress";
import type { Command } from "commander";
import { PROPERTY_NAMES, propertyNamed } from "../../properties/index.js";
import { assert } from "../core/assert.js";
import { parseDuration } from "../core/go/duration.js";
import { WORKERS_MAX, workerModule, workerPool } from "../core/worker-pool.js";
import {
  type CampaignHooks,
  type CampaignOptions,
  type CampaignProgress,
  type CampaignResult,
  campaignUnits,
  runCampaign,
  runCampaignOn,
  shardUnits,
  type UnitOutcome,
  type UnitTask,
} from "../harness/campaign.js";
import { campaignJunit, renderJunit } from "../harness/junit.js";
import { regressionFile } from "../harness/regression.js";
import { SHARED_PREFIX_DEFAULTS } from "../harness/shared-prefix.js";
import { type CheckSummary, checkSummary } from "../harness/summary.js";
import type { ReplayFacts } from "../report/replay.js";
import type { ScenarioRecord, SvgRenderer } from "../report/types.js";
import { CHECK_DEFAULT_RUNS, type CheckConfig } from "./check-options.js";
import { headerLine, summaryLines, verdictLine } from "./check-render.js";
import { latestNote, pointLatest } from "./latest.js";
import { saveScenarios, writeRunReport } from "./report.js";

/** What the check command needs from the process (injected so tests can run it in-process). */
export interface CheckEnv {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  /** Wall clock (ms, monotonic). */
  readonly clock: () => number;
  /** The current date (for the run id and timestamps). */
  readonly now: () => Date;
  readonly commit: string;
  /** Show a progress bar on stderr (a TTY); otherwise periodic plain lines. */
  readonly isTty: boolean;
  /** Plain progress lines at most this often (ms). */
  readonly progressEveryMs?: number;
  /** Renders the report page's charts (default: vega). */
  readonly render?: SvgRenderer;
}

/** The defaults of a campaign command's flags (they differ between `check` and `all`). */
export interface CommandDefaults {
  readonly runs: number;
  /** A Go duration; absent: no time limit. */
  readonly timeLimit?: string;
}

/** summary.json's `replay` section: what the page's replay command needs beyond the options. */
function replayFacts(d: CommandDefaults, c: CheckConfig): ReplayFacts {
  let timeLimitMs: number | null = null;
  if (d.timeLimit !== undefined) {
    const t = parseDuration(d.timeLimit);
    assert(t.ok, `default time limit ${d.timeLimit}`);
    timeLimitMs = t.value;
  }
  return { defaults: { runsPerProperty: d.runs, timeLimitMs, properties: PROPERTY_NAMES }, bail: c.bail };
}

/** `git rev-parse --short HEAD`, or "unknown" outside a git checkout. */
export function gitCommit(): string {
  try {
    return (
      execFileSync("git", ["rev-parse", "--short", "HEAD"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim() || "unknown"
    );
  } catch {
    return "unknown";
  }
}

export const drawSeed = (): number => randomInt(0, 2 ** 31 - 1);

const two = (n: number) => String(n).padStart(2, "0");

/** `<prefix>-YYYYMMDD-HHMMSS-<seed>[-s<i>of<N>]` (UTC). */
export function runIdOf(prefix: string, d: Date, c: CheckConfig): string {
  const date = `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}`;
  const time = `${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`;
  const shard = c.shard.count === 1 ? "" : `-s${c.shard.index}of${c.shard.count}`;
  return `${prefix}-${date}-${time}-${c.seed}${shard}`;
}

/** Progress on stderr: a bar on a TTY, otherwise a plain line every `everyMs` and one at the end. */
function progressReporter(env: CheckEnv, total: number): { update: (p: CampaignProgress) => void; stop: () => void } {
  const t0 = env.clock();
  const rate = (done: number) => {
    const s = (env.clock() - t0) / 1000;
    return s <= 0 ? "0.0" : (done / s).toFixed(1);
  };
  if (env.isTty) {
    const bar = new SingleBar({
      format: "check [{bar}] {value}/{total} runs | {rate} runs/s | {failures} failures | {property}",
      stream: process.stderr,
      hideCursor: true,
    });
    bar.start(total, 0, { rate: "0.0", failures: 0, property: "" });
    return {
      update: (p) => bar.update(p.done, { rate: rate(p.done), failures: p.failures, property: p.property }),
      stop: () => bar.stop(),
    };
  }
  const every = env.progressEveryMs ?? 10_000;
  let last = t0;
  let latest: CampaignProgress | undefined;
  const line = (p: CampaignProgress) =>
    env.err(`check: ${p.done}/${p.total} runs, ${rate(p.done)} runs/s, ${p.failures} failures (${p.property})`);
  return {
    update: (p) => {
      latest = p;
      const now = env.clock();
      if (now - last >= every) {
        last = now;
        line(p);
      }
    },
    stop: () => {
      if (latest !== undefined) line(latest);
    },
  };
}

export const campaignOptionsOf = (c: CheckConfig): CampaignOptions => ({
  seed: c.seed,
  properties: c.properties.map((name) => propertyNamed(name)!),
  runsPerProperty: c.runsPerProperty,
  runsPerUnit: c.runsPerUnit,
  shard: c.shard,
  faults: c.faults,
  maxCommands: c.maxCommands,
  ...(c.timeLimitMs === undefined ? {} : { timeLimitMs: c.timeLimitMs }),
  // A bailing campaign is a verdict: the generation statistics (a sample of the generator, not of the runs) are left out.
  ...(c.bail ? { bail: true, generationSamples: 0 } : {}),
  ...(c.prefixShare ? { sharedPrefixes: SHARED_PREFIX_DEFAULTS } : {}),
});

/**
 * Runs the campaign on `workers` threads (cli/check-worker.ts), or in this thread when one is asked for or the
 * shard has a single unit (a thread costs the engine's load, about half a second). The result is the same.
 */
export async function runCampaignOnThreads(
  options: CampaignOptions,
  hooks: CampaignHooks,
  workers: number,
): Promise<CampaignResult> {
  const units = shardUnits(campaignUnits(options), options.shard ?? { index: 1, count: 1 }).length;
  const threads = Math.min(workers, units);
  if (threads <= 1) return runCampaign(options, hooks);
  const pool = workerPool<UnitTask, UnitOutcome>(CHECK_WORKER, threads);
  try {
    return await runCampaignOn(options, hooks, { concurrency: threads, run: (t) => pool.run(t) });
  } finally {
    await pool.destroy();
  }
}

/** The campaign's worker module: check-worker.ts, bundled beside the pre-built CLI as dist/check-worker.mjs. */
const CHECK_WORKER = workerModule(import.meta.url, "check-worker", "check-worker");

/** The header line of a campaign with config `c` (printed first). */
export const checkHeader = (command: string, c: CheckConfig, commit: string): string =>
  headerLine(command, c, commit, campaignUnits(campaignOptionsOf(c)).length);

export interface CheckRun {
  readonly exitCode: number;
  readonly summary: CheckSummary;
  readonly summaryPath: string;
  /** The run's page, `<report-dir>/<run-id>/index.html`; undefined when it could not be written (said on stderr). */
  readonly pagePath: string | undefined;
  readonly result: CampaignResult;
}

/**
 * Runs a validated campaign: prints the header line first, runs the shard with progress, writes the regression
 * scenarios and the run's folder `<report-dir>/<run-id>/` (summary.json, junit.xml, scenarios.json when
 * `scenarios` are given, and the page index.html), then points `<report-dir>/latest` at the folder (latest.ts), and
 * prints the table (or, with `--json`, one JSON line). `extra` adds sections to summary.json; `defaults` are the
 * command's flag defaults (recorded, so the page's replay command can leave them out; `check`'s when absent).
 */
export async function executeCheck(
  c: CheckConfig,
  env: CheckEnv,
  o: {
    readonly command?: string;
    readonly runIdPrefix?: string;
    /** The caller printed the header line already. */
    readonly headerPrinted?: boolean;
    readonly extra?: Record<string, unknown>;
    readonly defaults?: CommandDefaults;
    /** The replayed scenarios (`chainsim all`), saved as scenarios.json and drawn on the page. */
    readonly scenarios?: readonly ScenarioRecord[];
    /**
     * Work run in this thread while the campaign runs (on worker threads; with one worker, before it): its
     * `extra` and `scenarios` join the options' in the run's files.
     */
    readonly alongside?: () => Promise<{
      readonly extra?: Record<string, unknown>;
      readonly scenarios?: readonly ScenarioRecord[];
    }>;
  } = {},
): Promise<CheckRun> {
  const command = o.command ?? "check";
  const started = env.now();
  const runId = runIdOf(o.runIdPrefix ?? "check", started, c);
  const options = campaignOptionsOf(c);
  if (o.headerPrinted !== true) {
    const header = checkHeader(command, c, env.commit);
    if (c.json) env.err(header);
    else env.out(header);
  }
  let progress: ReturnType<typeof progressReporter> | undefined;
  const hooks: CampaignHooks = {
    clock: env.clock,
    onProgress: (p) => {
      progress ??= progressReporter(env, p.total);
      progress.update(p);
    },
  };
  let side: Awaited<ReturnType<NonNullable<typeof o.alongside>>> = {};
  if (o.alongside !== undefined && c.workers <= 1) side = await o.alongside();
  const campaign = runCampaignOnThreads(options, hooks, c.workers);
  if (o.alongside !== undefined && c.workers > 1) side = await o.alongside();
  const result = await campaign;
  progress?.stop();
  const extra = { ...o.extra, ...side.extra };
  const scenarios = side.scenarios ?? o.scenarios;

  const regressionFiles = new Map<string, string>();
  for (const p of result.properties) {
    if (p.counterexample === undefined) continue;
    const f = regressionFile(p.counterexample, { dir: c.regressionsDir, commit: env.commit, campaignSeed: c.seed });
    mkdirSync(c.regressionsDir, { recursive: true });
    writeFileSync(f.path, f.text);
    regressionFiles.set(p.property, f.path);
  }
  const summary: CheckSummary = {
    ...checkSummary(result, {
      runId,
      command,
      startedAt: started.toISOString(),
      commit: env.commit,
      regressionFiles,
    }),
    replay: replayFacts(o.defaults ?? { runs: CHECK_DEFAULT_RUNS }, c),
    ...extra,
  };
  const dir = join(c.reportDir, runId);
  mkdirSync(dir, { recursive: true });
  const summaryPath = join(dir, "summary.json");
  writeFileSync(summaryPath, `${JSON.stringify(summary, null, 2)}\n`);
  const junit = campaignJunit(result, {
    runId,
    commit: env.commit,
    timestamp: started.toISOString().replace(/\.\d+Z$/, ""),
    regressionFiles,
  });
  writeFileSync(join(dir, "junit.xml"), renderJunit([junit]));
  if (scenarios !== undefined) saveScenarios(dir, runId, scenarios);
  const page = c.page
    ? await writeRunReport({
        reportDir: c.reportDir,
        runId,
        ...(env.render === undefined ? {} : { render: env.render }),
      })
    : undefined;
  if (page !== undefined && !page.ok) env.err(`report: ${page.error}`);
  const pagePath = page?.ok === true ? page.value : undefined;
  const note = latestNote(c.reportDir, pointLatest(c.reportDir, runId));
  if (note !== undefined) env.err(note);

  if (c.json) env.out(JSON.stringify({ ...summary, summaryPath, ...(pagePath === undefined ? {} : { pagePath }) }));
  else {
    env.out("");
    for (const l of summaryLines(summary)) env.out(l);
    env.out("");
    env.out(verdictLine(summary, pagePath ?? summaryPath));
  }
  return { exitCode: summary.exitCode, summary, summaryPath, pagePath, result };
}

export function nodeCheckEnv(io: { out: (s: string) => void; err: (s: string) => void }): CheckEnv {
  return {
    ...io,
    clock: () => performance.now(),
    now: () => new Date(),
    commit: gitCommit(),
    isTty: process.stderr.isTTY === true,
  };
}

/** The campaign flags shared by `check` and `all`. */
export function campaignFlags(cmd: Command, defaults: CommandDefaults): Command {
  return cmd
    .option(
      "--runs <n>",
      `runs per property, doubled for model-agreement and gov-follows-tally (default ${defaults.runs})`,
    )
    .option("--seed <n>", "campaign seed (default: drawn at random and printed first)")
    .option(
      "--time-limit <duration>",
      `wall budget of the whole campaign, a Go duration like 60s or 2m (default ${defaults.timeLimit ?? "none"})`,
    )
    .option("--shard <i/N>", "run shard i of N (1-based); the N shards together run exactly the units of one machine")
    .option("--faults <list>", "comma-separated planted bugs to enable (src/faults/)")
    .option("--max-commands <n>", "most commands per generated run (default 30)")
    .option(
      "--prefix-share",
      "runs share their command prefixes: each prefix runs once and is forked for its extensions (faster; samples other runs for a seed than without)",
    )
    .option("--json", "print one JSON line for the whole campaign instead of the table")
    .option("--report-dir <dir>", "where <run-id>/summary.json and junit.xml go", "reports")
    .option("--regressions-dir <dir>", "where counterexample scenarios are written", "scenarios/regressions")
    .option(
      "--workers <n>",
      `worker threads running the campaign's units (default: one per core, one on two cores or fewer; 1 runs in this thread; the same seed gives the same result for any count; max ${WORKERS_MAX})`,
    );
}
