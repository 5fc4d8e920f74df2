import { afterAll, describe, expect, it } from "vitest";
import { determinism } from "../../properties/determinism.js";
import { modelAgreement } from "../../properties/model-agreement.js";
import { runOnce } from "../../properties/run-once.js";
import { timeless } from "../../test/kit/campaign.js";
import { workerModule, workerPool } from "../core/worker-pool.js";
import { type CampaignOptions, runCampaignOn, type UnitOutcome, type UnitTask } from "../harness/campaign.js";
import { SHARED_PREFIX_DEFAULTS } from "../harness/shared-prefix.js";
import { runCampaignOnThreads } from "./check-run.js";

const clock = () => performance.now();
const SHARING = { ...SHARED_PREFIX_DEFAULTS, families: 2 };

/**
 * `chainsim check --workers N`: the same seed gives the same campaign for any number of worker threads: the same
 * runs, verdicts, counterexamples (shrunk alike), coverage, transition counts and regions. The units of a
 * property after its failing one are skipped alike, even when a thread had already started them.
 *
 * The first case runs `runCampaignOnThreads` itself on 2 fresh threads (its pool started and stopped). Every
 * case also runs on one pool of 3 threads kept for the whole file, 2 and then 3 units at a time: threads that
 * already ran other campaigns (other options, faults, shared prefixes) must give the same result as fresh ones,
 * which is the worker's contract (a worker keeps nothing between tasks that an outcome could depend on). Starting
 * a thread costs more CPU than these campaigns (docs/performance.md, "`npm test`").
 */
describe("a campaign on worker threads", () => {
  const base: CampaignOptions = {
    seed: 11,
    properties: [runOnce, modelAgreement, determinism],
    runsPerProperty: 6,
    runsPerUnit: 2,
    generationSamples: 20,
  };
  const pool = workerPool<UnitTask, UnitOutcome>(workerModule(import.meta.url, "check-worker", "check-worker"), 3);
  afterAll(() => pool.destroy());
  const onPool = (o: CampaignOptions, concurrency: number) =>
    runCampaignOn(o, { clock }, { concurrency, run: (t) => pool.run(t) });

  for (const [i, o] of [
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
  ].entries()) {
    it(`${o.name}: the same result on 1, 2 and 3 workers`, async () => {
      const one = timeless(await runCampaignOnThreads(o.options, { clock }, 1));
      expect(one.verdict).toBe(o.verdict);
      if (o.verdict === "failed") expect(one.properties.some((p) => p.counterexample !== undefined)).toBe(true);
      if (i === 0) expect(timeless(await runCampaignOnThreads(o.options, { clock }, 2))).toEqual(one);
      for (const workers of [2, 3]) expect(timeless(await onPool(o.options, workers))).toEqual(one);
    }, 180_000);
  }
});
