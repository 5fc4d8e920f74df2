import { describe, expect, it } from "vitest";
import { onAndOff } from "./kit/reference-runs.js";
import { libraryUnderFaults, scenarioFiles } from "./scenario-suite.js";

/**
 * Execution sharing (nodes with identical state execute a block once) must be invisible: every library scenario,
 * alone and under each planted fault, gives the same trace hash, report and per-node final state with sharing on
 * and off. Per node the store's execution key pins its whole committed history (history digest, versions, stores).
 * Sharing on is the default engine: that run is the library's reference run (test/kit/reference-runs.ts), computed
 * once for all the equivalence files.
 */
const OFF = { noSharedExecution: true };

describe("shared execution over the scenario library", () => {
  const files = scenarioFiles();
  it("has scenarios", () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(`${file}: same trace hash, report and node states with sharing on and off`, () => {
      const { on, off } = onAndOff(file, OFF);
      expect(on).toEqual(off);
    });
  }
  for (const { fault, files: underFault } of libraryUnderFaults(files)) {
    it(`under the planted fault ${fault}: same outcome with sharing on and off`, () => {
      for (const file of underFault) {
        const { on, off } = onAndOff(file, OFF, fault);
        expect(on).toEqual(off);
      }
    });
  }
});
