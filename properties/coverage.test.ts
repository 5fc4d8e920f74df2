import { describe, expect, it } from "vitest";
import { machineTransitions } from "../models/coverage.js";
import { chainCoverage } from "../src/harness/coverage-run.js";

// Structural coverage: the xstate/graph paths of the oracle, run on the real chain, drive every transition of the
// model, and the model agrees with the chain along all of them.
describe("transition coverage of the oracle, driven by the real chain", () => {
  it("covers 100% of the machine's transitions with no disagreement", () => {
    const c = chainCoverage();
    expect(c.disagreements).toEqual([]);
    expect(c.report.missing).toEqual([]);
    expect(c.report.total).toBe(machineTransitions().length);
    expect(c.report.ratio).toBe(1);
  }, 120_000);
});
