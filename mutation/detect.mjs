#!/usr/bin/env node
// One detector run for one mutant, as Stryker's command runner calls it: runs `chainsim <args>` from the sources
// (tsx), and appends `{mutant, detector, ms, cpuMs, exitCode}` to $MUTATE_TIMINGS (if set) so the driver can report the
// time to kill. Output goes to /dev/null: only the exit code matters (0 = the mutant survived this detector).
import { appendFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
// The clock starts after the sources are loaded: the time to kill is the detector's own work, not tsx's start-up.
const started = performance.now();
const cpuStarted = process.cpuUsage();
const quiet = () => true;
process.stdout.write = quiet;
process.stderr.write = quiet;
let exitCode;
try {
  exitCode = await main(process.argv.slice(2));
} catch {
  exitCode = 3;
}
const file = process.env.MUTATE_TIMINGS;
if (file) {
  const line = {
    mutant: process.env.__STRYKER_ACTIVE_MUTANT__ ?? null,
    detector: process.env.MUTATE_DETECTOR ?? null,
    ms: Math.round(performance.now() - started),
    // CPU time over the same span (every thread of the process): the load-independent figure.
    cpuMs: Math.round(((cpu) => (cpu.user + cpu.system) / 1000)(process.cpuUsage(cpuStarted))),
    exitCode,
  };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}
process.exit(exitCode);
