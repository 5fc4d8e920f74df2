#!/usr/bin/env node
// One detector run for one mutant, as Stryker's command runner calls it: runs `chainsim <args>` from the sources
// (tsx), and appends `{mutant, detector, ms, cpuMs, searchMs, exitCode}` to $MUTATE_TIMINGS (if set) so the driver can
// report the time to kill. Output is not printed: only the exit code matters (0 = the mutant survived this detector).
// `searchMs`, for a `check --json` detector, is the campaign's own time until it stopped: the wall time of the units
// that ran, which under `--bail` ends with the first failing run (no process start, report or statistics).
import { appendFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
// The clock starts after the sources are loaded: the time to kill is the detector's own work, not tsx's start-up.
const started = performance.now();
const cpuStarted = process.cpuUsage();
let stdout = "";
process.stdout.write = (chunk) => {
  stdout += String(chunk);
  return true;
};
process.stderr.write = () => true;
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
    ...searchOf(stdout),
    exitCode,
  };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}
process.exit(exitCode);

/** `{searchMs}` from the one JSON line `check --json` prints (the summary), or nothing. */
function searchOf(text) {
  const line = text.trim().split("\n").pop() ?? "";
  try {
    const summary = JSON.parse(line);
    let ms = 0;
    for (const p of summary.properties ?? []) for (const u of p.units ?? []) ms += u.wallMs ?? 0;
    return { searchMs: Math.round(ms) };
  } catch {
    return {};
  }
}
