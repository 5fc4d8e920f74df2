import { describe, expect, it } from "vitest";
import type { Fault } from "../src/faults/index.js";
import { claimReferenceEnd, referenceEnd } from "./kit/reference-runs.js";
import { FAULT_BLOCKS_MAX, libraryUnderFaults, runEnd, scenarioFiles, scenarioUnder } from "./scenario-suite.js";

/**
 * Execution sharing (nodes with identical state execute a block once) must be invisible: every library scenario,
 * alone and under each planted fault, gives the same trace hash, report and per-node final state with sharing on
 * and off. Per node the store's execution key pins its whole committed history (history digest, versions, stores).
 * Sharing on is the default engine: that run is the library's reference run (test/kit/reference-runs.ts), computed
 * once for all the equivalence files.
 */
function onAndOff(file: string, fault?: Fault) {
  const claimed = claimReferenceEnd(file, fault);
  const off = runEnd(
    scenarioUnder(file, fault),
    { noSharedExecution: true },
    fault === undefined ? undefined : FAULT_BLOCKS_MAX,
  );
  return { on: { file, ...(claimed ?? referenceEnd(file, fault)) }, off: { file, ...off } };
}

describe("shared execution over the scenario library", () => {
  const files = scenarioFiles();
  it("has scenarios", () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(`${file}: same trace hash, report and node states with sharing on and off`, () => {
      const { on, off } = onAndOff(file);
      expect(on).toEqual(off);
    });
  }
  for (const { fault, files: underFault } of libraryUnderFaults(files)) {
    it(`under the planted fault ${fault}: same outcome with sharing on and off`, () => {
      for (const file of underFault) {
        const { on, off } = onAndOff(file, fault);
        expect(on).toEqual(off);
      }
    });
  }
});
