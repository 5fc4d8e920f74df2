import { describe, expect, it } from "vitest";
import { PROPERTIES } from "../../properties/index.js";
import { timeless } from "../../test/kit/campaign.js";
import { type CampaignOptions, runCampaign } from "./campaign.js";
import { runProperty } from "./run-property.js";

/**
 * The harness's shortcuts change no campaign: with every session's chain forked from its world's ready chain (one
 * snapshot per world, given each run's seed and sidecars) and the oracle's direct steps, a campaign gives exactly
 * what the reference gives, every chain built fresh: the same runs, verdicts, counterexamples (shrunk alike, the
 * same scenario documents), coverage, transition counts and regions. Under planted faults (failing campaigns, their
 * shrinking included) and without.
 */
describe("the harness's shortcuts, on and off", () => {
  const base: CampaignOptions = {
    seed: 3,
    properties: PROPERTIES,
    runsPerProperty: 3,
    runsPerUnit: 3,
    generationSamples: 0,
  };
  const clock = () => 0;
  const reference = (o: CampaignOptions) =>
    timeless(runCampaign(o, { clock, runProperty: (r) => runProperty({ ...r, freshChains: true }) }));

  it("every property, no fault: the same campaign", () => {
    const fast = timeless(runCampaign(base, { clock }));
    expect(fast.verdict).toBe("passed");
    expect(fast).toEqual(reference(base));
  }, 300_000);

  // Faults these small campaigns catch (a counterexample, shrunk), and faults they miss in 4 runs (which ones follows
  // the generator's draws for the seed); the passing campaign is the test above. Not
  // nondeterministic-genesis: its genesis carries a process-global counter, so no two campaigns in one process print
  // the same violation (session.test.ts holds forks to fresh chains under it).
  // Under missed-halt no chain settles (a due plan stays stored), so every block of an advance executes: at the
  // default 30 commands its two campaigns cost about 16 s of CPU, half the file. At 15 commands they cost about 10 s
  // and still fail, with four counterexamples to shrink alike instead of three (correct-height,
  // graceful-halt, liveness, model-agreement; docs/performance.md, "`npm test`").
  for (const [fault, verdict, maxCommands] of [
    ["off-by-one-due-height", "failed", undefined],
    ["ignore-cancel", "passed", undefined],
    ["unanimous-consensus", "failed", undefined],
    ["missed-halt", "failed", 15],
    ["no-early-halt", "failed", undefined],
    ["keep-first-schedule", "passed", undefined],
    ["allow-past-plans", "failed", undefined],
  ] as const) {
    it(`under ${fault}: the same campaign, counterexamples included`, () => {
      const o: CampaignOptions = {
        ...base,
        runsPerProperty: 4,
        runsPerUnit: 4,
        faults: [fault],
        ...(maxCommands === undefined ? {} : { maxCommands }),
      };
      const fast = timeless(runCampaign(o, { clock }));
      expect(fast.verdict).toBe(verdict);
      expect(fast).toEqual(reference(o));
    }, 300_000);
  }
});
