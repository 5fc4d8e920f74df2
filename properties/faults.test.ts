import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FAULTS } from "../src/faults/index.js";
import { parseScenario } from "../src/scenario/load.js";
import { runScenario } from "../src/scenario/runner.js";
import { PROPERTY_NAMES } from "./index.js";

const scenarioPath = (name: string) => new URL(`../scenarios/${name}.yaml`, import.meta.url);

/**
 * The planted-fault catalog (src/faults/) holds every fault to what it declares. The properties' half is in each
 * property's suite (property-suite.ts runs every fault a property is declared to catch); this file checks that the
 * declarations name real properties and scenarios, and that each declared scenario fails with its fault enabled.
 */
describe("the planted-fault catalog", () => {
  it("has unique names, and every fault is declared caught by at least one registered property", () => {
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
    for (const f of FAULTS) {
      expect(f.caughtBy.properties.length, f.name).toBeGreaterThan(0);
      for (const p of f.caughtBy.properties) expect(PROPERTY_NAMES, `${f.name} → ${p}`).toContain(p);
    }
  });

  for (const f of FAULTS) {
    for (const name of f.caughtBy.scenarios) {
      it(`"${f.name}" is caught by scenario ${name}: it passes without the fault and fails with it`, () => {
        expect(existsSync(scenarioPath(name)), name).toBe(true);
        const parsed = parseScenario(`${name}.yaml`, readFileSync(scenarioPath(name), "utf8"));
        expect(parsed.ok ? [] : parsed.error).toEqual([]);
        if (!parsed.ok) return;
        expect(runScenario(parsed.value).report.passed).toBe(true);
        const faulty = { ...parsed.value, options: { ...parsed.value.options, faults: [f.name] } };
        expect(runScenario(faulty).report.passed).toBe(false);
      });
    }
  }
});
