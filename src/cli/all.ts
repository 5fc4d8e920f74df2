import { availableParallelism } from "node:os";
import { resolve, sep } from "node:path";
import type { Command } from "commander";
import { assert } from "../core/assert.js";
import { scenarioViews } from "../report/html.js";
import { scenarioTimeline } from "../report/timeline.js";
import { timelineChart } from "../report/timeline-chart.js";
import type { ScenarioRecord, SvgRenderer } from "../report/types.js";
import { failureText } from "../scenario/failure.js";
import type { Scenario } from "../scenario/model.js";
import { runScenario } from "../scenario/runner.js";
import { type CheckFlags, parseCheckFlags, prepareOutputDirs } from "./check-options.js";
import { type CommandDefaults, campaignFlags, checkHeader, drawSeed, executeCheck, nodeCheckEnv } from "./check-run.js";
import { ExitCode } from "./exit.js";
import { renderSvg } from "./explore.js";
import { loadScenarios } from "./run.js";

/**
 * `chainsim all` (what `npm start` runs): replays the scenario library, runs the default property campaign and
 * writes the report, then prints the report's path. ALL_DEFAULT_RUNS runs per property (twice that for
 * the properties with `runsMultiplier` 2), capped by ALL_DEFAULT_TIME_LIMIT: on a quiet 2-core machine the whole
 * command takes about 22 s (8,400 runs on two workers;
 * the 3,600 runs it had at 300 per property took 26 s before the harness was made faster, 13 s after).
 */
export const ALL_DEFAULT_RUNS = 600;
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

type ReplayIo = { out: (s: string) => void; err: (s: string) => void; clock: () => number };

/**
 * Replays the scenarios of `dir` one by one, yielding after each (so a caller can let other work run in between);
 * returns the totals. One line per failure and a total line.
 */
function* replaySteps(
  scenarios: readonly Scenario[],
  regressionsDir: string,
  io: ReplayIo,
  keep?: (r: ScenarioRecord) => void,
): Generator<void, ScenarioReplay> {
  const t0 = io.clock();
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
    if (report.passed) passed++;
    else {
      const regression = within(s.file, regressionsDir);
      if (regression) known++;
      failures.push({ name: s.name, file: s.file, failures: report.failures.map(failureText) });
      io.out(`${regression ? "KNOWN REGRESSION" : "FAIL"} ${s.name} (${s.file})`);
      for (const f of report.failures) io.out(`   ${failureText(f)}`);
    }
    yield;
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

/**
 * Replays every scenario under `dir`; one line per failure and a total. Undefined when a file does not load.
 * `keep` receives each scenario's report and trace lines (for the HTML report).
 */
export function replayScenarios(
  dir: string,
  regressionsDir: string,
  io: ReplayIo,
  keep?: (r: ScenarioRecord) => void,
): ScenarioReplay | undefined {
  const scenarios = loadScenarios([dir], io.err);
  if (scenarios === undefined) return undefined;
  const steps = replaySteps(scenarios, regressionsDir, io, keep);
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
  }
}

/**
 * `replayScenarios` over scenarios already loaded, giving the event loop a turn after each scenario: run beside a
 * campaign on worker threads, it lets the pool hand out units and collect outcomes meanwhile (`chainsim all`).
 */
async function replayAlongside(
  scenarios: readonly Scenario[],
  regressionsDir: string,
  io: ReplayIo,
  keep: (r: ScenarioRecord) => void,
): Promise<ScenarioReplay> {
  const steps = replaySteps(scenarios, regressionsDir, io, keep);
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** A renderer that renders each distinct spec once: later calls with an equal spec get the same SVG. */
function memoRenderer(render: SvgRenderer): SvgRenderer {
  const done = new Map<string, Promise<string>>();
  return (spec) => {
    const key = JSON.stringify(spec);
    let svg = done.get(key);
    if (svg === undefined) {
      svg = render(spec);
      done.set(key, svg);
    }
    return svg;
  };
}

/** Renders the report's scenario timelines through `render`, giving the event loop a turn after each. */
async function drawTimelines(records: readonly ScenarioRecord[], render: SvgRenderer): Promise<void> {
  for (const v of scenarioViews(records)) {
    await render(timelineChart(scenarioTimeline(v.record), v.record.report.halts));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
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
    // Charts are rendered through one memo: the scenario timelines are drawn while the campaign runs (this thread is
    // otherwise idle then), and the report takes them from it.
    const render = memoRenderer(renderSvg);
    const env = { ...nodeCheckEnv(io), render };
    const header = checkHeader("all", config, env.commit);
    if (config.json) io.err(header);
    else io.out(header);
    const replayOut = config.json ? io.err : io.out;
    const scenarios = loadScenarios([SCENARIO_DIR], io.err);
    if (scenarios === undefined) {
      setExit(ExitCode.usage);
      return;
    }
    // The library replays in this thread while the campaign's units run on the worker threads (with one worker the
    // campaign runs in this thread, after the replay).
    const records: ScenarioRecord[] = [];
    let replay: ScenarioReplay | undefined;
    const run = await executeCheck(config, env, {
      command: "all",
      runIdPrefix: "all",
      headerPrinted: true,
      defaults: ALL_DEFAULTS,
      alongside: async () => {
        replay = await replayAlongside(
          scenarios,
          config.regressionsDir,
          { out: replayOut, err: io.err, clock: env.clock },
          (r) => records.push(r),
        );
        if (config.workers > 1) await drawTimelines(records, render);
        return { extra: { scenarios: replay }, scenarios: records };
      },
    });
    assert(replay !== undefined, "the scenario replay ran alongside the campaign");
    const scenarioFailed = replay.failed - replay.knownRegressionsFailing > 0;
    const code = run.exitCode === ExitCode.internal ? run.exitCode : scenarioFailed ? ExitCode.failed : run.exitCode;
    (config.json ? io.err : io.out)(`Report: ${run.pagePath ?? run.summaryPath}`);
    setExit(code);
  });
}
