import { describe, expect, it } from "vitest";
import type { CheckSummary } from "../harness/summary.js";
import { verdictLine } from "./check-render.js";

/** A summary of `n` properties of 700 planned runs each (14 units of 50), `interrupted` as given. */
function summary(runs: number, interrupted: boolean, verdict: CheckSummary["verdict"] = "passed"): CheckSummary {
  const units = Array.from({ length: 14 }, (_, index) => ({
    index,
    block: index,
    seed: index,
    numRuns: 50,
    status: "passed",
    runs: 0,
    wallMs: 0,
  }));
  const properties = Array.from({ length: 12 }, (_, i) => ({
    property: `p${i}`,
    interrupted: i === 0 && interrupted,
    units,
  }));
  return { verdict, runs, options: { timeLimitMs: 100_000 }, properties } as unknown as CheckSummary;
}

describe("the campaign's verdict line", () => {
  it("says how far a campaign got when the time limit stopped it", () => {
    expect(verdictLine(summary(1956, true), "reports/x/index.html")).toBe(
      "PASSED, interrupted at 1,956 of 8,400 runs (time limit 1m40s): 12 properties; report reports/x/index.html",
    );
    expect(verdictLine(summary(1956, true, "failed"), "r")).toMatch(/^FAILED, interrupted at 1,956 of 8,400 runs/);
  });

  it("is the bare verdict when every planned run ran", () => {
    expect(verdictLine(summary(8400, false), "r")).toBe("PASSED: 8400 runs of 12 properties; report r");
  });
});
