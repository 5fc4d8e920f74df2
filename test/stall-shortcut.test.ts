import { describe, expect, it, vi } from "vitest";
import { SimNodeProcess } from "../src/app/node-process.js";
import type { Scenario } from "../src/scenario/index.js";
import { FAULT_BLOCKS_MAX, libraryUnderFaults, loadScenario, runEnd, scenarioFiles } from "./scenario-suite.js";

/**
 * The stalled-retry shortcut (a retry that cannot commit, by nodes that already executed the height without halting,
 * is not executed again: chain/produce.ts) must be invisible: every library scenario, alone and under each planted
 * fault, gives the same trace hash, report and per-node final state with the shortcut on and off.
 */
const outcome = (s: Scenario, noStallShortcut: boolean, maxBlocks?: number) =>
  runEnd(s, { noStallShortcut }, maxBlocks);

describe("the stalled-retry shortcut over the scenario library", () => {
  const files = scenarioFiles();
  it("takes effect: the library's stalled chains execute fewer blocks with it (the equivalence below is not vacuous)", () => {
    const executions = (noStallShortcut: boolean) => {
      const spy = vi.spyOn(SimNodeProcess.prototype, "execute");
      try {
        for (const file of files) runEnd(loadScenario(file), { noStallShortcut });
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
      }
    };
    expect(executions(false)).toBeLessThan(executions(true));
  });
  for (const file of files) {
    it(`${file}: same trace hash, report and node states with the shortcut on and off`, () => {
      const s = loadScenario(file);
      expect(outcome(s, false)).toEqual(outcome(s, true));
    });
  }
  for (const { fault, scenarios } of libraryUnderFaults(files)) {
    it(`under the planted fault ${fault}: same outcome with the shortcut on and off`, () => {
      for (const s of scenarios()) {
        const on = outcome(s, false, FAULT_BLOCKS_MAX);
        const off = outcome(s, true, FAULT_BLOCKS_MAX);
        expect({ file: s.file, ...on }).toEqual({ file: s.file, ...off });
      }
    }, 240_000);
  }
});
