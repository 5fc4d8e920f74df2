import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { type BenchResult, median, result } from "./bench.js";

/**
 * CLI start-up (docs/performance.md "Start-up"), wall time from spawning a process to its first byte on stdout, each against
 * `node -e ''` to its exit, measured in turn (A B A B …) in the same run:
 * - `cli-help-first-output-ms`: `node bin/chainsim.js --help` (goal: at most 3× the baseline);
 * - `cli-run-first-output-ms`: `node bin/chainsim.js run` of one small library scenario, a real command's start
 *   with its engine loaded (its first output comes when the scenario has run).
 * Both run the pre-built CLI when it is built and current, else the sources through tsx (then far slower). Shared
 * machines inflate both sides of a pair; the ratio holds better than either figure (the load average goes to stderr).
 */
export const name = "startup";

const RUNS = 7;

/** A scenario that runs in a few milliseconds: what is left is the start. */
const SMALL_SCENARIO = "scenarios/proposal-plan-at-execution-height-fires-next-block.yaml";

/** ms from spawn to the first stdout byte (or to exit when it prints nothing). */
function firstOutputMs(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let t: number | undefined;
    const p = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
    p.stdout.once("data", () => {
      t ??= performance.now() - t0;
    });
    p.stdout.resume();
    p.once("error", reject);
    p.once("close", () => resolve(t ?? performance.now() - t0));
  });
}

/** The medians of `args` and of `node -e ''`, in turn, after one unmeasured start of each. */
async function pair(args: readonly string[]): Promise<{ cli: number; bare: number }> {
  const cli: number[] = [];
  const bare: number[] = [];
  await firstOutputMs(args);
  await firstOutputMs(["-e", ""]);
  for (let i = 0; i < RUNS; i++) {
    cli.push(await firstOutputMs(args));
    bare.push(await firstOutputMs(["-e", ""]));
  }
  return { cli: median(cli), bare: median(bare) };
}

export async function run(): Promise<BenchResult[]> {
  const load = loadavg()[0]!.toFixed(1);
  const help = await pair(["bin/chainsim.js", "--help"]);
  const scenario = await pair(["bin/chainsim.js", "run", SMALL_SCENARIO]);
  process.stderr.write(
    `startup: chainsim --help first output ${help.cli.toFixed(0)} ms (node -e '' ${help.bare.toFixed(0)} ms), ` +
      `chainsim run ${SMALL_SCENARIO} ${scenario.cli.toFixed(0)} ms (node -e '' ${scenario.bare.toFixed(0)} ms); ` +
      `load average ${load} before, ${loadavg()[0]!.toFixed(1)} after\n`,
  );
  return [
    result("cli-help-first-output-ms", help.cli, "ms", help.bare),
    result("cli-run-first-output-ms", scenario.cli, "ms", scenario.bare),
  ];
}
