import { writeFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import type { Command } from "commander";
import { formatDuration } from "../core/go/duration.js";
import { failureText } from "../scenario/failure.js";
import { formatScenarioError, parseScenario, type Scenario, type ScenarioOverrides } from "../scenario/index.js";
import { runScenario } from "../scenario/runner.js";
import { genesisErrors } from "../scenario/simulate.js";
import { renderTimeline } from "../scenario/timeline.js";
import { ExitCode, UserError } from "./exit.js";
import { collectScenarioFiles, readProfileText, readText, reason } from "./files.js";
import { ensureDir } from "./out-dir.js";

export interface RunCliOptions {
  readonly json?: boolean;
  readonly trace?: string;
  readonly seed?: string;
  /** Stop at the first scenario that fails (the rest are not run); the exit code is the same. */
  readonly bail?: boolean;
}

/** Loads and validates every file first; nothing runs when any is invalid. */
export function loadScenarios(
  paths: readonly string[],
  err: (line: string) => void,
  overrides: ScenarioOverrides = {},
): Scenario[] | undefined {
  const { files, errors } = collectScenarioFiles(paths);
  const scenarios: Scenario[] = [];
  for (const f of files) {
    const text = readText(f);
    if (!text.ok) {
      errors.push(text.error);
      continue;
    }
    const parsed = parseScenario(f, text.text, readProfileText, overrides);
    if (!parsed.ok) {
      // A syntax error is reported once: the first, with its line and column (later ones are its echoes).
      const syntax = parsed.error.find((e) => e.path === "" && e.message.startsWith("YAML syntax error"));
      errors.push(...(syntax === undefined ? parsed.error : [syntax]).map(formatScenarioError));
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

/**
 * Where `--trace` writes each scenario's trace: one scenario writes the file named (its folder created); several
 * write `<dir>/<scenario file name>.jsonl` (the folder created), named by file so that two scenarios with the same
 * `name:` keep both traces. Two files with the same file name in different folders are refused. Errors name the
 * path; nothing has run yet.
 */
export function traceFiles(
  scenarios: readonly Scenario[],
  trace: string,
): { ok: true; value: string[] } | { ok: false; error: string } {
  const single = scenarios.length === 1;
  const files = single ? [trace] : scenarios.map((s) => join(trace, `${basename(s.file, extname(s.file))}.jsonl`));
  const seen = new Map<string, string>();
  for (const [i, f] of files.entries()) {
    const other = seen.get(f);
    if (other !== undefined)
      return { ok: false, error: `--trace ${trace}: ${other} and ${scenarios[i]!.file} would both write ${f}` };
    seen.set(f, scenarios[i]!.file);
  }
  const bad = ensureDir("--trace", single ? dirname(trace) : trace);
  if (bad !== undefined) return { ok: false, error: bad };
  return { ok: true, value: files };
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
  let ran = 0;
  const keepTrace = o.trace !== undefined || o.json !== true;
  let traces: string[] = [];
  if (o.trace !== undefined) {
    const t = traceFiles(scenarios, o.trace);
    if (!t.ok) {
      err(`Error: ${t.error}`);
      return ExitCode.usage;
    }
    traces = t.value;
  }
  for (const [i, s] of scenarios.entries()) {
    const { report, sim } = runScenario(s, {
      ...(seed === undefined ? {} : { seed }),
      keepTrace,
      wallClockMs: () => performance.now(),
    });
    ran++;
    if (!report.passed) failed++;
    const stop = !report.passed && o.bail === true;
    if (o.trace !== undefined) {
      const file = traces[i]!;
      try {
        writeFileSync(
          file,
          sim
            .traceLines()
            .map((l) => `${l}\n`)
            .join(""),
        );
      } catch (e) {
        err(`Error: --trace ${file}: ${reason(e)}`);
        return ExitCode.usage;
      }
    }
    if (o.json === true) {
      out(JSON.stringify(report));
      if (stop) break;
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
    if (stop) {
      out(`stopped at the first failure (--bail): ${scenarios.length - i - 1} scenario(s) not run`);
      break;
    }
  }
  if (o.json !== true) out(`${ran - failed} passed, ${failed} failed`);
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
    .option(
      "--trace <file>",
      "write the canonical JSON-lines trace to this file; with several scenarios a directory of <file name>.jsonl",
    )
    .option("--seed <n>", "override every scenario's seed")
    .option("--bail", "stop at the first scenario that fails; the scenarios after it are not run (exit 1 as before)")
    .action((paths: string[], opts: RunCliOptions) => setExit(runCommand(paths, opts, io.out, io.err)));
}
