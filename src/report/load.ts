/**
 * Parsing of the files a report is rebuilt from (text in, typed data or one error line out; nothing throws). The
 * checks are shallow (format tags and the fields the page reads): the files are written by chainsim itself.
 */
import { err, ok, type Result } from "../core/errors.js";
import type { CheckSummary } from "../harness/summary.js";
import { readTraceLines } from "./trace-read.js";
import type { ExplorationData, ScenarioRecord, ScenariosFile } from "./types.js";

type Parsed<T> = Result<T, string>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function json(name: string, text: string): Parsed<unknown> {
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (e) {
    return err(`${name}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

export function parseSummary(name: string, text: string): Parsed<CheckSummary> {
  const v = json(name, text);
  if (!v.ok) return v;
  const s = v.value;
  if (!isObject(s) || s.format !== "chainsim-check/1")
    return err(`${name}: not a chainsim check summary (format "chainsim-check/1")`);
  if (!Array.isArray(s.properties) || !isObject(s.coverage) || !isObject(s.regions) || !isObject(s.options))
    return err(`${name}: missing properties, coverage, regions or options`);
  return ok(s as unknown as CheckSummary);
}

export function parseScenariosFile(name: string, text: string): Parsed<ScenariosFile> {
  const v = json(name, text);
  if (!v.ok) return v;
  const f = v.value;
  if (!isObject(f) || f.format !== "chainsim-scenarios/1" || !Array.isArray(f.scenarios))
    return err(`${name}: not a chainsim scenarios file (format "chainsim-scenarios/1")`);
  for (const [i, r] of (f.scenarios as unknown[]).entries()) {
    if (!isObject(r) || !isObject(r.report) || !Array.isArray(r.trace) || typeof r.report.name !== "string")
      return err(`${name}: scenarios[${i}] needs a report with a name and trace lines`);
    if (!r.trace.every((l) => typeof l === "string")) return err(`${name}: scenarios[${i}].trace holds only lines`);
    const t = readTraceLines(r.trace as string[]);
    if (!t.ok) return err(`${name}: scenarios[${i}].${t.error}`);
  }
  return ok(f as unknown as ScenariosFile);
}

export function parseExploration(name: string, text: string): Parsed<ExplorationData> {
  const v = json(name, text);
  if (!v.ok) return v;
  const x = v.value;
  if (!isObject(x) || (x.kind !== "cancel-window" && x.kind !== "cancel-window-sweep"))
    return err(`${name}: not a cancel-window exploration (kind "cancel-window" or "cancel-window-sweep")`);
  return ok(x as unknown as ExplorationData);
}

/** The scenarios file `chainsim all` writes next to summary.json. */
export const scenariosFile = (runId: string, scenarios: readonly ScenarioRecord[]): ScenariosFile => ({
  format: "chainsim-scenarios/1",
  runId,
  scenarios,
});
