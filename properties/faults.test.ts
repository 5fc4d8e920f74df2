import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FAULT_NAMES, FAULTS } from "../src/faults/index.js";
import { parseScenario } from "../src/scenario/load.js";
import { runScenario } from "../src/scenario/runner.js";
import { PROPERTIES } from "./index.js";

const scenarioPath = (name: string) => new URL(`../scenarios/${name}.yaml`, import.meta.url);

/**
 * The planted-fault catalog (src/faults/) and the properties' declarations of the faults they catch (`catches` on
 * each property, a list of the catalog's fault names: a name outside the catalog does not compile). This file
 * checks that every fault is declared by at least one registered property, and that each scenario a fault declares
 * fails with it enabled. That each declared fault is caught by its property when planted is in each property's
 * suite (test/kit/property-suite.ts: a shrunk counterexample within the planted-bug budget of runs).
 */
describe("the planted-fault catalog", () => {
  it("has unique names, and every fault is declared caught by at least one registered property", () => {
    expect(new Set(FAULT_NAMES).size).toBe(FAULTS.length);
    const declaredBy = (fault: string) =>
      PROPERTIES.filter((p) => p.catches.some((f) => f === fault)).map((p) => p.name);
    for (const f of FAULT_NAMES) expect(declaredBy(f), `${f}: no property declares it`).not.toEqual([]);
  });

  it("each property declares a fault at most once", () => {
    for (const p of PROPERTIES) expect(new Set(p.catches).size, p.name).toBe(p.catches.length);
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
