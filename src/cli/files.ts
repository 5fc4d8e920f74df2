import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const SCENARIO_EXT = /\.(ya?ml|json)$/i;
/** Files in scenario folders that are not scenarios. */
const NOT_SCENARIOS = new Set(["schema.json"]);

/**
 * Expands files and directories (recursively, sorted) into scenario file paths. Missing paths are reported as
 * errors, not thrown.
 */
export function collectScenarioFiles(args: readonly string[]): { files: string[]; errors: string[] } {
  const files: string[] = [];
  const errors: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (SCENARIO_EXT.test(name) && !NOT_SCENARIOS.has(name)) files.push(p);
    }
  };
  for (const a of args) {
    let st: ReturnType<typeof statSync> | undefined;
    try {
      st = statSync(a);
    } catch {
      errors.push(`${a}: no such file or directory`);
      continue;
    }
    if (st.isDirectory()) walk(a);
    else files.push(a);
  }
  return { files, errors };
}

export function readText(path: string): { ok: true; text: string } | { ok: false; error: string } {
  try {
    return { ok: true, text: readFileSync(path, "utf8") };
  } catch (e) {
    return { ok: false, error: `${path}: ${e instanceof Error ? e.message : String(e)}` };
  }
}
