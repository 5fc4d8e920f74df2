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
import { commandArbitraries } from "../src/harness/commands.js";
import { sidecarArb } from "../src/harness/run-property.js";
import { type BenchResult, median, result } from "./bench.js";

/**
 * Harness throughput: runs per second of the default property campaign (every property, full generated command
 * sequences against the real chain and the oracle, with the property checks after each command).
 * Baseline: the same fast-check checks (same unit seeds, same run counts, same command arbitraries, `maxCommands`
 * and `size`, so the same generated sequences) against a trivial system: the model and the real system are two
 * counters, each command increments both and compares them. The ratio is the share of the harness's time that
 * fast-check's own generation and model-run loop would cost.
 *
 * All cores: the same campaign on one worker thread per core (`chainsim check --workers N`, the threads started and
 * warmed up before the clock starts), against the single thread above. CPU time is reported beside wall time on
 * stderr: on a shared machine runs per CPU-second are the steadier figure.
 *
 * Both figures are steady-state: each thread first runs WARM_UP_RUNS runs (another seed) before the clock starts.
 * A thread's first couple of hundred runs are markedly slower while V8 compiles the hot paths (measured: two worker
 * threads warmed with 12 runs each took 3.4 s CPU for the 240-run campaign, warmed with 240 each 2.0 s), a cost
 * each thread pays once per process; `chainsim check` pays it once per worker.
 */
export const name = "harness";

/** A seed whose campaign passes (so no shrinking is timed; a failing campaign is reported on stderr). */
const SEED = 7;
const RUNS_PER_PROPERTY = 20;
const MAX_COMMANDS = 30;
const BARE_REPEATS = 5;
/** Warm-up runs per thread before the clock starts (see above). */
const WARM_UP_RUNS = 240;

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
  // Warm-up: WARM_UP_RUNS runs of another seed and one bare pass.
  runCampaign(
    {
      seed: SEED + 1,
      properties: PROPERTIES,
      runsPerProperty: Math.ceil(WARM_UP_RUNS / PROPERTIES.length),
      generationSamples: 0,
    },
    { clock: () => performance.now() },
  );
  bareCampaign();

  const campaign: CampaignOptions = {
    seed: SEED,
    properties: PROPERTIES,
    runsPerProperty: RUNS_PER_PROPERTY,
    generationSamples: 0,
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const h = runCampaign(campaign, { clock: () => performance.now() });
  const harnessMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const harnessCpuMs = (cpu.user + cpu.system) / 1000;
  if (h.verdict !== "passed")
    process.stderr.write(
      `harness: warning: the bench campaign did not pass (${h.verdict}); shrink runs are included\n`,
    );

  let bare = { runs: 0, commands: 0 };
  const bareTimes: number[] = [];
  for (let i = 0; i < BARE_REPEATS; i++) {
    const b0 = performance.now();
    bare = bareCampaign();
    bareTimes.push(performance.now() - b0);
  }
  const bareMs = median(bareTimes);
  const harnessRunsPerS = h.runs / (harnessMs / 1000);
  const bareRunsPerS = bare.runs / (bareMs / 1000);
  process.stderr.write(
    `harness: ${h.runs} runs (${h.commands} commands executed) of ${PROPERTIES.length} properties in ${harnessMs.toFixed(0)} ms ` +
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
  const all = await allCores(campaign);
  process.stderr.write(
    `harness: ${all.threads} worker threads: ${all.runs} runs in ${all.ms.toFixed(0)} ms = ${(all.runs / (all.ms / 1000)).toFixed(1)} runs/s\n`,
  );
  return [
    result("harness-runs-per-s", harnessRunsPerS, "runs/s", bareRunsPerS),
    result("harness-runs-per-s-all-cores", all.runs / (all.ms / 1000), "runs/s", harnessRunsPerS),
  ];
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
    const t0 = performance.now();
    const r = await runCampaignOn(campaign, clock, runner);
    return { threads, runs: r.runs, ms: performance.now() - t0 };
  } finally {
    await pool.destroy();
  }
}
