import { describe, expect, it } from "vitest";
import { determinism } from "../../properties/determinism.js";
import { modelAgreement } from "../../properties/model-agreement.js";
import { runOnce } from "../../properties/run-once.js";
import { timeless } from "../../test/kit/campaign.js";
import type { CampaignOptions } from "../harness/campaign.js";
import { SHARED_PREFIX_DEFAULTS } from "../harness/shared-prefix.js";
import { runCampaignOnThreads } from "./check-run.js";

const clock = () => performance.now();
const SHARING = { ...SHARED_PREFIX_DEFAULTS, families: 2 };

/**
 * `chainsim check --workers N`: the same seed gives the same campaign for any number of worker threads: the same
 * runs, verdicts, counterexamples (shrunk alike), coverage, transition counts and regions. The units of a
 * property after its failing one are skipped alike, even when a thread had already started them.
 */
describe("a campaign on worker threads", () => {
  const base: CampaignOptions = {
    seed: 11,
    properties: [runOnce, modelAgreement, determinism],
    runsPerProperty: 6,
    runsPerUnit: 2,
    generationSamples: 20,
  };
  for (const o of [
    { name: "that passes", options: base, verdict: "passed" },
    {
      name: "that finds a planted fault",
      options: { ...base, faults: ["off-by-one-due-height" as const] },
      verdict: "failed",
    },
    // Shared prefixes: each thread runs a family's prefix itself (its own cache), the results the same.
    { name: "whose runs share prefixes", options: { ...base, sharedPrefixes: SHARING }, verdict: "passed" },
    {
      name: "whose runs share prefixes and find a planted fault",
      options: { ...base, sharedPrefixes: SHARING, faults: ["off-by-one-due-height" as const] },
      verdict: "failed",
    },
  ]) {
    it(`${o.name}: the same result on 1, 2 and 3 workers`, async () => {
      const one = timeless(await runCampaignOnThreads(o.options, { clock }, 1));
      expect(one.verdict).toBe(o.verdict);
      if (o.verdict === "failed") expect(one.properties.some((p) => p.counterexample !== undefined)).toBe(true);
      for (const workers of [2, 3])
        expect(timeless(await runCampaignOnThreads(o.options, { clock }, workers))).toEqual(one);
    }, 180_000);
  }
});
