import { describe, expect, it } from "vitest";
import { machineTransitions } from "../../models/coverage.js";
import { runCampaign } from "./campaign.js";
import { HOLDS, type Property } from "./property.js";
import { checkSummary } from "./summary.js";

/** The counts come from the runs, whatever the property: one that always holds keeps every run to the end. */
const anything: Property = {
  name: "anything",
  statement: "always: true",
  kind: "always",
  catches: [],
  check: () => HOLDS,
};

describe("per-transition counts of a campaign", () => {
  const r = runCampaign(
    { seed: 11, properties: [anything], runsPerProperty: 6, runsPerUnit: 3, generationSamples: 0 },
    { clock: () => 0 },
  );

  it("counts every fired transition at least once, and only fired ones", () => {
    expect(r.verdict).toBe("passed");
    expect(Object.keys(r.transitionCounts).sort()).toEqual(r.fired);
    for (const n of Object.values(r.transitionCounts)) expect(n).toBeGreaterThanOrEqual(1);
  });

  it("counts firings, not runs: every committed block fires one commit transition", () => {
    const commits =
      (r.transitionCounts["progressing.BLOCK.commit"] ?? 0) + (r.transitionCounts["stalled.BLOCK.commit"] ?? 0);
    expect(commits).toBe(r.regions.simHeights);
    expect(commits).toBeGreaterThan(r.runs);
  });

  it("lists every model transition in summary.json, 0 for the missing ones", () => {
    const s = checkSummary(r, { runId: "x", command: "check", startedAt: "", commit: "c", regressionFiles: new Map() });
    expect(Object.keys(s.coverage.counts)).toEqual(machineTransitions().map((t) => t.id));
    for (const id of s.coverage.missing) expect(s.coverage.counts[id]).toBe(0);
    for (const [id, n] of Object.entries(r.transitionCounts)) expect(s.coverage.counts[id]).toBe(n);
  });
});
