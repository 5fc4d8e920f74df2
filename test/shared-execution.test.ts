import { describe, expect, it } from "vitest";
import type { Scenario } from "../src/scenario/index.js";
import { FAULT_BLOCKS_MAX, libraryUnderFaults, loadScenario, runEnd, scenarioFiles } from "./scenario-suite.js";

/**
 * Execution sharing (nodes with identical state execute a block once) must be invisible: every library scenario,
 * alone and under each planted fault, gives the same trace hash, report and per-node final state with sharing on
 * and off. Per node the store's execution key pins its whole committed history (history digest, versions, stores).
 */
const outcome = (s: Scenario, noSharedExecution: boolean, maxBlocks?: number) =>
  runEnd(s, { noSharedExecution }, maxBlocks);

describe("shared execution over the scenario library", () => {
  const files = scenarioFiles();
  it("has scenarios", () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(`${file}: same trace hash, report and node states with sharing on and off`, () => {
      const s = loadScenario(file);
      expect(outcome(s, false)).toEqual(outcome(s, true));
    });
  }
  for (const { fault, scenarios } of libraryUnderFaults(files)) {
    it(`under the planted fault ${fault}: same outcome with sharing on and off`, () => {
      for (const s of scenarios()) {
        const on = outcome(s, false, FAULT_BLOCKS_MAX);
        const off = outcome(s, true, FAULT_BLOCKS_MAX);
        expect({ file: s.file, ...on }).toEqual({ file: s.file, ...off });
      }
    });
  }
});
