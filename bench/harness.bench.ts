import assert from "node:assert/strict";
import { availableParallelism } from "node:os";
import fc from "fast-check";
import { PROPERTIES } from "../properties/index.js";
import { workerModule, workerPool } from "../src/core/worker-pool.js";
import {
  type CampaignOptions,
  campaignUnits,
  runCampaign,
  runCampaignOn,
  type UnitOutcome,
  type UnitTask,
} from "../src/harness/campaign.js";
import { commandArbitraries } from "../src/harness/commands-arbitraries.js";
import { sidecarArb } from "../src/harness/run-property.js";
import { SHARED_PREFIX_DEFAULTS } from "../src/harness/shared-prefix.js";
import { type BenchResult, median, result } from "./bench.js";
import {
  mainThreadCpuMs,
  USER_RUNS,
  type UserCampaignWarm,
  type UserCheck,
  userCampaignWarm,
  userCheck,
} from "./user-check.js";

/**
 * Harness throughput: runs per second of the default property campaign (every property, full generated command
 * sequences against the real chain and the oracle, with the property checks after each command).
 * Baseline: the same fast-check checks (same unit seeds, same run counts, same command arbitraries, `maxCommands`
 * and `size`, so the same generated sequences) against a trivial system: the model and the real system are two
 * counters, each command increments both and compares them. The ratio is the share of the harness's time that
 * fast-check's own generation and model-run loop would cost.
 *
 * All cores: the campaign with N times the runs on one worker thread per core (`chainsim check --workers N`, the
 * threads started and warmed up before the clock starts), against the single thread above: the same work per
 * thread. CPU time is reported beside wall time on stderr: on a shared machine runs per CPU-second are the steadier
 * figure.
 *
 * Both figures are steady-state: each thread first runs WARM_UP_RUNS runs (other seeds) before the clock starts,
 * and the single-thread figure is the median of TIMED_SEEDS campaigns. A thread's throughput keeps climbing for its
 * first thousand runs or so while V8 compiles and re-optimises the hot paths; measured on the 2-core machine, 240-run
 * campaigns of successive seeds in one thread after 240 warm-up runs: 234, 285, 274, 282, 332, 299, 327, 328 runs/s.
 * WARM_UP_RUNS sits past that climb. `harness-runs-per-s-cold` is the first campaign of a fresh process (the
 * first 240 runs, what a short `chainsim check` sees per worker) against the steady figure: `chainsim check` pays
 * the climb once per worker, so its runs/s grows with the budget.
 *
 * `harness-runs-per-s-shared-prefixes` is the single-thread figure with shared prefixes (`check --prefix-share`,
 * src/harness/shared-prefix.ts): the same timed seeds, after a warm-up campaign with them, against the figure without.
 *
 * `harness-user-check-runs-per-s` is what a user gets: `chainsim check --runs 100 --workers 1` in a fresh process
 * (the pre-built CLI when current), its runs over the wall time from spawn to exit, against the warm single-thread
 * figure of the same run. Its CPU per run against the warm campaign's goes to stderr (on a shared machine the
 * steadier comparison; in CPU the background compiler's work during the fresh process's climb counts too), and so
 * does its main thread's CPU against the warm campaign's main thread: V8 compiles and helps the GC on background
 * threads, which on the quiet 2-core machine with one worker have the other core, so the main thread's CPU is what
 * bounds the wall time there. The bench's own warm figure runs the sources through tsx, the user the pre-built CLI
 * (docs/performance.md, session 12, compares the two warm).
 *
 * `harness-user-check-vs-same-campaign-warm` is the same user's check against its own campaign (`--runs 100`, seed
 * SEED, the CLI's defaults) run warm in the bundled build (bench/user-check-warm.ts, a child with the CLI's V8 pool,
 * after WARM_UP_RUNS runs of another seed): the same work in the same code, so the ratio is what the fresh process
 * alone costs, apart from the build and the campaign's mix.
 */
export const name = "harness";

/** A seed whose campaign passes (so no shrinking is timed; a failing campaign is reported on stderr). */
const SEED = 7;
const RUNS_PER_PROPERTY = 20;
const MAX_COMMANDS = 30;
const BARE_REPEATS = 5;
/** Warm-up runs per thread before the clock starts (see above). */
const WARM_UP_RUNS = 1200;
/** The single-thread figure is the median over these seeds' campaigns (each passes; see SEED). */
const TIMED_SEEDS = [SEED, SEED + 10, SEED + 20] as const;

interface Counter {
  n: number;
}

class CounterCommand implements fc.Command<Counter, Counter> {
  check(): boolean {
    return true;
  }
  run(m: Counter, r: Counter): void {
    m.n++;
    r.n++;
    if (m.n !== r.n) throw new Error("counters disagree");
  }
  toString(): string {
    return "inc";
  }
}

/** The bare run: the campaign's fast-check checks over counters; returns the commands executed. */
function bareCampaign(): { runs: number; commands: number } {
  const arbs = commandArbitraries().map((a) => a.map(() => new CounterCommand()));
  let runs = 0;
  let commands = 0;
  const prop = fc.property(sidecarArb, fc.commands(arbs, { maxCommands: MAX_COMMANDS, size: "+1" }), (_s, cmds) => {
    const real: Counter = { n: 0 };
    fc.modelRun(() => ({ model: { n: 0 }, real }), cmds);
    runs++;
    commands += real.n;
  });
  for (const u of campaignUnits({ seed: SEED, properties: PROPERTIES, runsPerProperty: RUNS_PER_PROPERTY })) {
    const d = fc.check(prop, { seed: u.seed, numRuns: u.numRuns });
    if (d.failed) throw new Error("bare run failed");
  }
  return { runs, commands };
}

export async function run(): Promise<BenchResult[]> {
  const clock = { clock: () => performance.now() };
  // The cold figure: the process's first campaign, the same size as a timed one.
  const c0 = performance.now();
  const cold = runCampaign(
    { seed: SEED + 1, properties: PROPERTIES, runsPerProperty: RUNS_PER_PROPERTY, generationSamples: 0 },
    clock,
  );
  const coldRunsPerS = cold.runs / ((performance.now() - c0) / 1000);
  // Warm-up: WARM_UP_RUNS runs of another seed and one bare pass.
  runCampaign(
    {
      seed: SEED + 2,
      properties: PROPERTIES,
      runsPerProperty: Math.ceil(WARM_UP_RUNS / PROPERTIES.length),
      generationSamples: 0,
    },
    clock,
  );
  bareCampaign();

  const campaign: CampaignOptions = {
    seed: SEED,
    properties: PROPERTIES,
    runsPerProperty: RUNS_PER_PROPERTY,
    generationSamples: 0,
  };
  const timed: {
    runsPerS: number;
    cpuMs: number;
    mainCpuMs: number | undefined;
    h: ReturnType<typeof runCampaign>;
  }[] = [];
  for (const seed of TIMED_SEEDS) {
    const main0 = mainThreadCpuMs();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const h = runCampaign({ ...campaign, seed }, clock);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const main1 = mainThreadCpuMs();
    const mainCpuMs = main0 === undefined || main1 === undefined ? undefined : main1 - main0;
    if (h.verdict !== "passed")
      process.stderr.write(
        `harness: warning: the bench campaign of seed ${seed} did not pass (${h.verdict}); shrink runs are included\n`,
      );
    timed.push({ runsPerS: h.runs / (ms / 1000), cpuMs: (cpu.user + cpu.system) / 1000, mainCpuMs, h });
  }
  const mid = [...timed].sort((a, b) => a.runsPerS - b.runsPerS)[TIMED_SEEDS.length >> 1];
  assert(mid !== undefined, "at least one timed campaign");
  const { h, cpuMs: harnessCpuMs, mainCpuMs: harnessMainCpuMs } = mid;
  const harnessMs = (h.runs / mid.runsPerS) * 1000;

  let bare = { runs: 0, commands: 0 };
  const bareTimes: number[] = [];
  for (let i = 0; i < BARE_REPEATS; i++) {
    const b0 = performance.now();
    bare = bareCampaign();
    bareTimes.push(performance.now() - b0);
  }
  const bareMs = median(bareTimes);
  const harnessRunsPerS = mid.runsPerS;
  const bareRunsPerS = bare.runs / (bareMs / 1000);
  process.stderr.write(
    `harness: timed campaigns (seeds ${TIMED_SEEDS.join(", ")}): ${timed.map((t) => t.runsPerS.toFixed(1)).join(", ")} runs/s; ` +
      `cold (first campaign of the process): ${coldRunsPerS.toFixed(1)} runs/s\n` +
      `harness: median: ${h.runs} runs (${h.commands} commands executed) of ${PROPERTIES.length} properties in ${harnessMs.toFixed(0)} ms ` +
      `= ${harnessRunsPerS.toFixed(1)} runs/s; bare fast-check counters: ${bare.runs} runs (${bare.commands} commands) ` +
      `in ${bareMs.toFixed(1)} ms (median of ${BARE_REPEATS}) = ${bareRunsPerS.toFixed(0)} runs/s; ` +
      `the harness runs at ${((harnessRunsPerS / bareRunsPerS) * 100).toFixed(3)}% of the bare loop's speed\n`,
  );
  for (const p of h.properties)
    process.stderr.write(
      `  ${p.property.padEnd(22)} ${String(p.runs).padStart(4)} runs ${p.runsPerS.toFixed(1).padStart(7)} runs/s\n`,
    );
  process.stderr.write(
    `harness: one thread: ${harnessCpuMs.toFixed(0)} ms CPU = ${(h.runs / (harnessCpuMs / 1000)).toFixed(1)} runs per CPU-second\n`,
  );
  const shared = sharedPrefixCampaigns(campaign, clock);
  process.stderr.write(
    `harness: shared prefixes (${JSON.stringify(SHARED_PREFIX_DEFAULTS)}), seeds ${TIMED_SEEDS.join(", ")}: ${shared.rates.map((r) => r.toFixed(1)).join(", ")} runs/s, median ${shared.runsPerS.toFixed(1)} against ${harnessRunsPerS.toFixed(1)} independent; ${shared.runsPerCpuS.toFixed(1)} runs per CPU-second against ${(h.runs / (harnessCpuMs / 1000)).toFixed(1)}\n`,
  );
  const { user, userWarm } = await userChecks({ runs: h.runs, cpuMs: harnessCpuMs, mainCpuMs: harnessMainCpuMs });
  const userRunsPerS = user.runs / (user.ms / 1000);
  const all = await allCores(campaign);
  process.stderr.write(
    `harness: ${all.threads} worker threads: ${all.runs} runs in ${all.ms.toFixed(0)} ms = ${(all.runs / (all.ms / 1000)).toFixed(1)} runs/s\n`,
  );
  return [
    result("harness-runs-per-s", harnessRunsPerS, "runs/s", bareRunsPerS),
    result("harness-runs-per-s-all-cores", all.runs / (all.ms / 1000), "runs/s", harnessRunsPerS),
    result("harness-runs-per-s-cold", coldRunsPerS, "runs/s", harnessRunsPerS),
    result("harness-user-check-runs-per-s", userRunsPerS, "runs/s", harnessRunsPerS),
    result("harness-runs-per-s-shared-prefixes", shared.runsPerS, "runs/s", harnessRunsPerS),
    result("harness-user-check-vs-same-campaign-warm", userRunsPerS, "runs/s", userWarm.runs / (userWarm.ms / 1000)),
  ];
}

/** The user's check, then its campaign warm in the same build, each reported on stderr. */
async function userChecks(warm: WarmCampaign): Promise<{ user: UserCheck; userWarm: UserCampaignWarm }> {
  const user = await userCheck(SEED);
  reportUserCheck(user, warm);
  const userWarm = await userCampaignWarm(SEED, WARM_UP_RUNS);
  reportSameCampaign(user, userWarm);
  return { user, userWarm };
}

interface WarmCampaign {
  readonly runs: number;
  readonly cpuMs: number;
  readonly mainCpuMs: number | undefined;
}

/** The user's check on stderr: its wall rate, then its CPU (all threads, then the main thread) against the warm campaign's. */
function reportUserCheck(user: UserCheck, warm: WarmCampaign): void {
  process.stderr.write(
    `harness: a user's \`chainsim check --runs ${USER_RUNS} --workers 1\`: ${user.runs} runs in ${user.ms.toFixed(0)} ms from spawn to exit = ${(user.runs / (user.ms / 1000)).toFixed(1)} runs/s (the campaign alone: ${user.campaignRunsPerS.toFixed(1)} runs/s)\n`,
  );
  if (user.cpuMs !== undefined) {
    const warmMsPerRun = warm.cpuMs / warm.runs;
    const userMsPerRun = user.cpuMs / user.runs;
    process.stderr.write(
      `harness: the user's check in CPU: ${user.cpuMs.toFixed(0)} ms = ${userMsPerRun.toFixed(2)} ms per run, against ${warmMsPerRun.toFixed(2)} ms per run warm: ${(warmMsPerRun / userMsPerRun).toFixed(3)}x\n`,
    );
  }
  if (user.mainThreadCpuMs !== undefined && warm.mainCpuMs !== undefined) {
    const warmMsPerRun = warm.mainCpuMs / warm.runs;
    const userMsPerRun = user.mainThreadCpuMs / user.runs;
    process.stderr.write(
      `harness: the user's check's main thread in CPU (what bounds its wall time when V8's background threads have the other core): ${user.mainThreadCpuMs.toFixed(0)} ms = ${userMsPerRun.toFixed(2)} ms per run, against ${warmMsPerRun.toFixed(2)} ms per run warm: ${(warmMsPerRun / userMsPerRun).toFixed(3)}x\n`,
    );
  }
}

/**
 * The user's check against its own campaign warm in the same (bundled) build: what the fresh process alone costs,
 * apart from the build (the warm figure above runs the sources through tsx) and the campaign's mix.
 */
function reportSameCampaign(user: UserCheck, warm: UserCampaignWarm): void {
  const warmRunsPerS = warm.runs / (warm.ms / 1000);
  const userRunsPerS = user.runs / (user.ms / 1000);
  process.stderr.write(
    `harness: the same campaign warm in the bundled build (after ${WARM_UP_RUNS} runs of another seed): ${warm.runs} runs in ${warm.ms.toFixed(0)} ms = ${warmRunsPerS.toFixed(1)} runs/s; the user's check from spawn to exit ${(userRunsPerS / warmRunsPerS).toFixed(3)}x of it, its campaign alone ${(user.campaignRunsPerS / warmRunsPerS).toFixed(3)}x\n`,
  );
  if (user.mainThreadCpuMs !== undefined && warm.mainThreadCpuMs !== undefined)
    process.stderr.write(
      `harness: main thread in CPU: the user's check ${user.mainThreadCpuMs.toFixed(0)} ms, the same campaign warm ${warm.mainThreadCpuMs.toFixed(0)} ms: ${(warm.mainThreadCpuMs / user.mainThreadCpuMs).toFixed(3)}x\n`,
    );
}

/**
 * The timed campaigns again with shared prefixes (`check --prefix-share`, the default sharing), after one warm-up
 * campaign of another seed with them: the median runs/s and the median campaign's runs per CPU-second.
 */
function sharedPrefixCampaigns(
  campaign: CampaignOptions,
  clock: { clock: () => number },
): { rates: number[]; runsPerS: number; runsPerCpuS: number } {
  const sharing: CampaignOptions = { ...campaign, sharedPrefixes: SHARED_PREFIX_DEFAULTS };
  runCampaign({ ...sharing, seed: SEED + 3 }, clock);
  const timed = TIMED_SEEDS.map((seed) => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const h = runCampaign({ ...sharing, seed }, clock);
    const s = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    if (h.verdict !== "passed")
      process.stderr.write(
        `harness: warning: the shared-prefix campaign of seed ${seed} did not pass (${h.verdict})\n`,
      );
    return { runsPerS: h.runs / s, runsPerCpuS: h.runs / ((cpu.user + cpu.system) / 1e6) };
  });
  const mid = [...timed].sort((a, b) => a.runsPerS - b.runsPerS)[TIMED_SEEDS.length >> 1];
  assert(mid !== undefined, "at least one timed campaign");
  return { rates: timed.map((t) => t.runsPerS), runsPerS: mid.runsPerS, runsPerCpuS: mid.runsPerCpuS };
}

/** The campaign on one worker thread per core, timed after a warm-up campaign on the same threads. */
async function allCores(campaign: CampaignOptions): Promise<{ threads: number; runs: number; ms: number }> {
  const threads = Math.max(2, availableParallelism());
  const module = workerModule(new URL("../src/cli/check-run.ts", import.meta.url).href, "check-worker", "check-worker");
  const pool = workerPool<UnitTask, UnitOutcome>(module, threads);
  const runner = { concurrency: threads, run: (t: UnitTask) => pool.run(t) };
  const clock = { clock: () => performance.now() };
  try {
    // Units of 2 runs spread the warm-up evenly: about WARM_UP_RUNS runs per thread.
    const warmUp = Math.ceil((WARM_UP_RUNS * threads) / PROPERTIES.length);
    await runCampaignOn({ ...campaign, seed: SEED + 1, runsPerProperty: warmUp, runsPerUnit: 2 }, clock, runner);
    // The same work per thread as the single-thread campaign: one thread's share of a campaign `threads` times as
    // large (a 240-run campaign on 2 threads ends with one thread idle for much of its last unit).
    const t0 = performance.now();
    const r = await runCampaignOn({ ...campaign, runsPerProperty: RUNS_PER_PROPERTY * threads }, clock, runner);
    return { threads, runs: r.runs, ms: performance.now() - t0 };
  } finally {
    await pool.destroy();
  }
}
