import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { failureText } from "../scenario/failure.js";
import { formatDuration, formatScenarioError, parseScenario, type Scenario } from "../scenario/index.js";
import { runScenario } from "../scenario/runner.js";
import { genesisErrors } from "../scenario/simulate.js";
import { renderTimeline } from "../scenario/timeline.js";
import { ExitCode, UserError } from "./exit.js";
import { collectScenarioFiles, readText } from "./files.js";

export interface RunCliOptions {
  readonly json?: boolean;
  readonly trace?: string;
  readonly seed?: string;
}

/** Loads and validates every file first; nothing runs when any is invalid. */
export function loadScenarios(paths: readonly string[], err: (line: string) => void): Scenario[] | undefined {
  const { files, errors } = collectScenarioFiles(paths);
  const scenarios: Scenario[] = [];
  for (const f of files) {
    const text = readText(f);
    if (!text.ok) {
      errors.push(text.error);
      continue;
    }
    const parsed = parseScenario(f, text.text);
    if (!parsed.ok) {
      errors.push(...parsed.error.map(formatScenarioError));
      continue;
    }
    const genesis = genesisErrors(parsed.value);
    if (genesis.length > 0) errors.push(...genesis.map(formatScenarioError));
    else scenarios.push(parsed.value);
  }
  if (files.length === 0 && errors.length === 0)
    errors.push(`${paths.join(" ")}: no scenario files (.yaml, .yml, .json) found`);
  for (const e of errors) err(e);
  return errors.length > 0 ? undefined : scenarios;
}

export function parseSeed(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v)))
    throw new UserError(`--seed: expected a non-negative integer, got "${v}"`);
  return Number(v);
}

/** Simulated time, wall time and their ratio. */
function simulatedText(simMs: number, wallMs: number): string {
  const ratio = wallMs > 0 ? Math.round(simMs / wallMs) : 0;
  return `${formatDuration(simMs)} simulated in ${wallMs.toFixed(1)} ms (${ratio.toLocaleString("en-US")}x real time)`;
}

export function runCommand(
  paths: readonly string[],
  o: RunCliOptions,
  out: (s: string) => void,
  err: (s: string) => void,
): number {
  const seed = parseSeed(o.seed);
  const scenarios = loadScenarios(paths, err);
  if (scenarios === undefined) return ExitCode.usage;
  let failed = 0;
  const keepTrace = o.trace !== undefined || o.json !== true;
  if (o.trace !== undefined && scenarios.length > 1) mkdirSync(o.trace, { recursive: true });
  for (const s of scenarios) {
    const { report, sim } = runScenario(s, {
      ...(seed === undefined ? {} : { seed }),
      keepTrace,
      wallClockMs: () => performance.now(),
    });
    if (!report.passed) failed++;
    if (o.trace !== undefined) {
      const file = scenarios.length > 1 ? join(o.trace, `${s.name}.jsonl`) : o.trace;
      writeFileSync(
        file,
        sim
          .traceLines()
          .map((l) => `${l}\n`)
          .join(""),
      );
    }
    if (o.json === true) {
      out(JSON.stringify(report));
      continue;
    }
    const labels = new Map(sim.proposals.filter((p) => p.label !== null).map((p) => [String(p.id), p.label!]));
    out(`== ${s.name} (${s.file}) seed ${report.seed}`);
    for (const l of renderTimeline(sim.traceEvents(), labels)) out(l);
    for (const f of report.failures) out(`   FAIL ${failureText(f)}`);
    out(
      `${report.passed ? "PASS" : "FAIL"} ${s.name}: height ${report.final.height}, ${report.halts.length} halt(s), trace ${report.traceHash.slice(0, 16)}, ${simulatedText(sim.nowMs - s.chain.genesisTime, report.wallMs)}`,
    );
    out("");
  }
  if (o.json !== true) out(`${scenarios.length - failed} passed, ${failed} failed`);
  return failed > 0 ? ExitCode.failed : ExitCode.ok;
}

export function registerRun(
  program: Command,
  io: { out: (s: string) => void; err: (s: string) => void },
  setExit: (c: number) => void,
): void {
  program
    .command("run")
    .description("replay scenario files (or directories of them) and check their expectations")
    .argument("<paths...>", "scenario files or directories")
    .option("--json", "print one JSON object per scenario (the public contract of docs/scenario-format.md §3)")
    .option("--trace <file>", "write the canonical JSON-lines trace (a directory when several scenarios run)")
    .option("--seed <n>", "override every scenario's seed")
    .action((paths: string[], opts: RunCliOptions) => setExit(runCommand(paths, opts, io.out, io.err)));
}
