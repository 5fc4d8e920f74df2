import { availableParallelism } from "node:os";
import { resolve, sep } from "node:path";
import type { Command } from "commander";
import type { ScenarioRecord } from "../report/types.js";
import { failureText } from "../scenario/failure.js";
import { runScenario } from "../scenario/runner.js";
import { type CheckFlags, parseCheckFlags, prepareOutputDirs } from "./check-options.js";
import { type CommandDefaults, campaignFlags, checkHeader, drawSeed, executeCheck, nodeCheckEnv } from "./check-run.js";
import { ExitCode } from "./exit.js";
import { loadScenarios } from "./run.js";

/**
 * `chainsim all` (what `npm start` runs): replays the scenario library, runs the default property campaign and
 * writes the report, then prints the report's path. Sized to finish in about two minutes on a 2-core machine:
 * ALL_DEFAULT_RUNS runs per property (measured: see the report of the issue), capped by ALL_DEFAULT_TIME_LIMIT.
 */
export const ALL_DEFAULT_RUNS = 300;
export const ALL_DEFAULT_TIME_LIMIT = "100s";
const ALL_DEFAULTS: CommandDefaults = { runs: ALL_DEFAULT_RUNS, timeLimit: ALL_DEFAULT_TIME_LIMIT };
export const SCENARIO_DIR = "scenarios";

export interface ScenarioReplay {
  readonly files: number;
  readonly passed: number;
  readonly failed: number;
  /** Failing scenarios under the regressions directory: reported, but they do not fail the run. */
  readonly knownRegressionsFailing: number;
  readonly wallMs: number;
  readonly failures: readonly { readonly name: string; readonly file: string; readonly failures: readonly string[] }[];
}

const within = (file: string, dir: string) => resolve(file).startsWith(resolve(dir) + sep);

/**
 * Replays every scenario under `dir`; one line per failure and a total. Undefined when a file does not load.
 * `keep` receives each scenario's report and trace lines (for the HTML report).
 */
export function replayScenarios(
  dir: string,
  regressionsDir: string,
  io: { out: (s: string) => void; err: (s: string) => void; clock: () => number },
  keep?: (r: ScenarioRecord) => void,
): ScenarioReplay | undefined {
  const t0 = io.clock();
  const scenarios = loadScenarios([dir], io.err);
  if (scenarios === undefined) return undefined;
  let passed = 0;
  let known = 0;
  const failures: ScenarioReplay["failures"][number][] = [];
  for (const s of scenarios) {
    const { report, sim } = runScenario(s, { wallClockMs: io.clock, keepTrace: keep !== undefined });
    keep?.({
      report,
      trace: sim.traceLines(),
      ...(report.passed || !within(s.file, regressionsDir) ? {} : { knownRegression: true }),
    });
    if (report.passed) {
      passed++;
      continue;
    }
    const regression = within(s.file, regressionsDir);
    if (regression) known++;
    failures.push({ name: s.name, file: s.file, failures: report.failures.map(failureText) });
    io.out(`${regression ? "KNOWN REGRESSION" : "FAIL"} ${s.name} (${s.file})`);
    for (const f of report.failures) io.out(`   ${failureText(f)}`);
  }
  const wallMs = io.clock() - t0;
  const failed = scenarios.length - passed;
  io.out(
    `scenarios: ${passed}/${scenarios.length} passed` +
      (known > 0 ? `, ${known} known regression(s) still failing` : "") +
      ` (${(wallMs / 1000).toFixed(1)} s)`,
  );
  return { files: scenarios.length, passed, failed, knownRegressionsFailing: known, wallMs, failures };
}

export function registerAll(
  program: Command,
  io: { out: (s: string) => void; err: (s: string) => void },
  setExit: (c: number) => void,
): void {
  const cmd = program
    .command("all")
    .description(
      `replay ${SCENARIO_DIR}/, run the default property campaign and write the report (npm start); exit 0 all passed, 1 a scenario or property failed, 2 bad flags or scenario files, 3 harness crash`,
    );
  campaignFlags(cmd, ALL_DEFAULTS).action(async (flags: CheckFlags) => {
    const config = parseCheckFlags(flags, {
      drawSeed,
      cores: availableParallelism(),
      defaultRuns: ALL_DEFAULT_RUNS,
      defaultTimeLimit: ALL_DEFAULT_TIME_LIMIT,
    });
    prepareOutputDirs(config);
    const env = nodeCheckEnv(io);
    const header = checkHeader("all", config, env.commit);
    if (config.json) io.err(header);
    else io.out(header);
    const replayOut = config.json ? io.err : io.out;
    const records: ScenarioRecord[] = [];
    const replay = replayScenarios(
      SCENARIO_DIR,
      config.regressionsDir,
      { out: replayOut, err: io.err, clock: env.clock },
      (r) => records.push(r),
    );
    if (replay === undefined) {
      setExit(ExitCode.usage);
      return;
    }
    const run = await executeCheck(config, env, {
      command: "all",
      runIdPrefix: "all",
      headerPrinted: true,
      extra: { scenarios: replay },
      defaults: ALL_DEFAULTS,
      scenarios: records,
    });
    const scenarioFailed = replay.failed - replay.knownRegressionsFailing > 0;
    const code = run.exitCode === ExitCode.internal ? run.exitCode : scenarioFailed ? ExitCode.failed : run.exitCode;
    (config.json ? io.err : io.out)(`Report: ${run.pagePath ?? run.summaryPath}`);
    setExit(code);
  });
}
