import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseScenario, type Scenario } from "../src/scenario/index.js";
import { runScenario } from "../src/scenario/runner.js";

/**
 * Every scenario file under `scenarios/` (recursively), sorted, excluding the JSON Schema and
 * `scenarios/regressions/`: counterexamples written by `chainsim check` replay a failure until the bug is fixed,
 * and `chainsim all` reports them separately.
 */
export function scenarioFiles(dir = "scenarios"): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (p !== join("scenarios", "regressions")) out.push(...scenarioFiles(p));
      continue;
    }
    if (/\.(ya?ml|json)$/.test(name) && name !== "schema.json") out.push(p);
  }
  return out;
}

export function loadScenario(file: string): Scenario {
  const r = parseScenario(file, readFileSync(file, "utf8"));
  if (!r.ok) throw new Error(r.error.map((e) => `${e.file}: ${e.path}: ${e.message}`).join("\n"));
  return r.value;
}

export const GOLDEN_FILE = "test/golden/trace-hashes.json";

/** Trace hash of every scenario, keyed by file path. */
export function traceHashes(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of scenarioFiles()) out[f] = runScenario(loadScenario(f)).report.traceHash;
  return out;
}
