import { spawn } from "node:child_process";
import { type BenchResult, median, result } from "./bench.js";

/**
 * CLI start-up: wall time from spawning `node bin/chainsim.js --help` to its first byte on stdout (the pre-built
 * bundle when it is built and current, else the sources through tsx), against `node -e ''` to its exit, measured
 * in turn in the same run. Target: at most 0.5 s on an idle machine. Shared machines inflate both; the ratio holds.
 */
export const name = "startup";

const RUNS = 7;

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

export async function run(): Promise<BenchResult[]> {
  const cli: number[] = [];
  const bare: number[] = [];
  await firstOutputMs(["bin/chainsim.js", "--help"]);
  for (let i = 0; i < RUNS; i++) {
    cli.push(await firstOutputMs(["bin/chainsim.js", "--help"]));
    bare.push(await firstOutputMs(["-e", ""]));
  }
  const c = median(cli);
  const b = median(bare);
  process.stderr.write(`startup: chainsim --help first output ${c.toFixed(0)} ms, node -e '' ${b.toFixed(0)} ms\n`);
  return [result("cli-help-first-output-ms", c, "ms", b)];
}
