import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runOnce } from "../../properties/run-once.js";
import { outOfTimeBeforeFirstRun, runProperty } from "./run-property.js";

describe("a unit whose time runs out before its first run passes", () => {
  it("is what fast-check reports as failed without an error or counterexample, and only that", () => {
    const base = { failed: true, interrupted: true, counterexamplePath: null, errorInstance: null };
    expect(outOfTimeBeforeFirstRun(base)).toBe(true);
    expect(outOfTimeBeforeFirstRun({ ...base, interrupted: false })).toBe(false); // too many skips
    expect(outOfTimeBeforeFirstRun({ ...base, counterexamplePath: "3:1" })).toBe(false); // a real failure
    expect(outOfTimeBeforeFirstRun({ ...base, errorInstance: new Error("boom") })).toBe(false);
    expect(outOfTimeBeforeFirstRun({ ...base, failed: false })).toBe(false);
    // fast-check itself: every run is skipped, then the time limit ends the check with no run passed.
    const d = fc.check(
      fc.property(fc.integer(), () => {
        fc.pre(false);
      }),
      { interruptAfterTimeLimit: 20, numRuns: 1_000_000_000, maxSkipsPerRun: 1_000_000_000 },
    );
    expect(outOfTimeBeforeFirstRun(d)).toBe(true);
  });

  it("comes back from the harness as interrupted with no runs, not as a crash", () => {
    // A cold first call with a 1 ms budget: fast-check's clock often runs out before the first run passes.
    for (const seed of [1, 2, 3]) {
      const r = runProperty({ property: runOnce, seed, numRuns: 50, timeLimitMs: 1 });
      expect(r.error).toBeUndefined();
      expect(r.passed).toBe(true);
      expect(r.interrupted).toBe(true);
    }
  });
});
