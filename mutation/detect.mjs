#!/usr/bin/env node
// One detector run for one mutant, as Stryker's command runner calls it: runs `chainsim <args>` from the sources
// (tsx), and appends to $MUTATE_TIMINGS (if set) a mark once the sources are loaded, then `{mutant, detector, ms,
// cpuMs, searchMs, exitCode, verdict}` so the driver can report the time to kill and tell the detector's verdicts
// apart (src/report/mutation-verdict.ts): a property failure or a crash of the product kills the mutant; a crash of
// the harness, an environment failure or a start that never finished (no mark) are no verdict. Output is not
// printed. Exit: 0 when the mutant survived, 1 otherwise (Stryker's "killed"; the driver reclassifies no-verdicts).
// `searchMs`, for a `check --json` detector, is the campaign's own time until it stopped: the wall time of the units
// that ran, which under `--bail` ends with the first failing run (no process start, report or statistics).
import { appendFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const file = process.env.MUTATE_TIMINGS;
const mutant = process.env.__STRYKER_ACTIVE_MUTANT__ ?? null;
const detector = process.env.MUTATE_DETECTOR ?? null;
const record = (line) => {
  if (file) appendFileSync(file, `${JSON.stringify({ mutant, detector, ...line })}\n`);
};
const args = process.argv.slice(2);

let main;
let detectorVerdict;
let loadError = "";
try {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../src/cli/main.ts"));
  ({ detectorVerdict } = await import("../src/report/mutation-verdict.ts"));
  record({ phase: "loaded" });
} catch (e) {
  loadError = e instanceof Error ? (e.stack ?? e.message) : String(e);
}
// The clock starts after the sources are loaded: the time to kill is the detector's own work, not tsx's start-up.
const started = performance.now();
const cpuStarted = process.cpuUsage();
let stdout = "";
let stderr = "";
process.stdout.write = (chunk) => {
  stdout += String(chunk);
  return true;
};
process.stderr.write = (chunk) => {
  stderr += String(chunk);
  return true;
};
let exitCode = 3;
if (main !== undefined) {
  try {
    exitCode = await main(args);
  } catch (e) {
    stderr += e instanceof Error ? (e.stack ?? e.message) : String(e);
    exitCode = 3;
  }
}
const verdict =
  detectorVerdict === undefined
    ? "environment"
    : detectorVerdict({ command: args[0] ?? "", exitCode, loaded: main !== undefined, stdout, stderr });
record({
  ms: Math.round(performance.now() - started),
  // CPU time over the same span (every thread of the process): the load-independent figure.
  cpuMs: Math.round(((cpu) => (cpu.user + cpu.system) / 1000)(process.cpuUsage(cpuStarted))),
  ...searchOf(stdout),
  exitCode,
  verdict,
  // The first lines of a crash's error, so a run's harness crashes and environment failures can be read back.
  ...(verdict === "harnessCrash" || verdict === "environment" || verdict === "productCrash"
    ? { error: (loadError || crashText(stdout, stderr)).split("\n").slice(0, 4).join("\n") }
    : {}),
});
process.exit(verdict === "survived" ? 0 : 1);

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

/** A crash's error text: the first crashed property's error of a `check --json` summary, else stderr. */
function crashText(out, err) {
  try {
    const summary = JSON.parse(out.trim().split("\n").pop() ?? "");
    const crashed = (summary.properties ?? []).find((p) => typeof p.error === "string");
    if (crashed !== undefined) return crashed.error;
  } catch {}
  return err;
}
