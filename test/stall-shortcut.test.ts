import { describe, expect, it, vi } from "vitest";
import { SimNodeProcess } from "../src/app/node-process.js";
import { onAndOff } from "./kit/reference-runs.js";
import { libraryUnderFaults, loadScenario, runEnd, scenarioFiles } from "./scenario-suite.js";

/**
 * The stalled-retry shortcut (a retry that cannot commit, by nodes that already executed the height without halting,
 * is not executed again: chain/produce.ts) must be invisible: every library scenario, alone and under each planted
 * fault, gives the same trace hash, report and per-node final state with the shortcut on and off. The shortcut on is
 * the default engine: that run is the library's reference run (test/kit/reference-runs.ts), computed once for all the
 * equivalence files.
 */
const OFF = { noStallShortcut: true };

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
      const { on, off } = onAndOff(file, OFF);
      expect(on).toEqual(off);
    });
  }
  for (const { fault, files: underFault } of libraryUnderFaults(files)) {
    it(`under the planted fault ${fault}: same outcome with the shortcut on and off`, () => {
      for (const file of underFault) {
        const { on, off } = onAndOff(file, OFF, fault);
        expect(on).toEqual(off);
      }
    }, 240_000);
  }
});
