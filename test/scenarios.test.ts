import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { failureText } from "../src/scenario/failure.js";
import { runScenario } from "../src/scenario/runner.js";
import { GOLDEN_FILE, loadScenario, scenarioFiles } from "./scenario-suite.js";

const golden = JSON.parse(readFileSync(GOLDEN_FILE, "utf8")) as Record<string, string>;

// The behavioural regression suite: every scenario's expectations hold, two runs give the same trace hash, and
// the hash equals the reviewed golden value (update with `npm run golden:update` and review the diff).
describe("scenario library", () => {
  const files = scenarioFiles();
  it("has scenarios and a golden hash for each of them", () => {
    expect(files.length).toBeGreaterThan(0);
    expect(Object.keys(golden).sort()).toEqual([...files].sort());
  });
  for (const file of files) {
    it(file, () => {
      const s = loadScenario(file);
      const a = runScenario(s).report;
      const b = runScenario(s).report;
      expect(a.failures.map(failureText)).toEqual([]);
      expect(b.traceHash).toBe(a.traceHash);
      expect(a.traceHash).toBe(golden[file]);
    });
  }
});
