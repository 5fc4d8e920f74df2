import { PROPERTIES } from "../properties/index.js";
import { DEFAULT_MAX_COMMANDS, runCampaign } from "../src/harness/campaign.js";
import { mainThreadCpuMs, USER_RUNS } from "./user-check.js";

/**
 * The user's campaign warm, in the code the user runs: bench/user-check.ts bundles this file as the CLI is built
 * and runs it as a child. It runs WARM_UP_RUNS runs of another seed, then the campaign `chainsim check --runs
 * USER_RUNS --workers 1 --seed <seed>` runs (every property, the CLI's defaults: units and command budget, the generation
 * statistics), timed, and prints one JSON line: its runs, wall ms and main-thread CPU ms.
 * Usage: node <bundle> <seed> <warm-up runs>
 */
const seed = Number(process.argv[2]);
const warmUpRuns = Number(process.argv[3]);
if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(warmUpRuns) || warmUpRuns < 0)
  throw new Error("usage: user-check-warm <seed> <warm-up runs>");

const clock = { clock: () => performance.now() };
runCampaign(
  { seed: seed + 2, properties: PROPERTIES, runsPerProperty: Math.ceil(warmUpRuns / PROPERTIES.length) },
  clock,
);
const main0 = mainThreadCpuMs();
const t0 = performance.now();
const h = runCampaign(
  { seed, properties: PROPERTIES, runsPerProperty: USER_RUNS, maxCommands: DEFAULT_MAX_COMMANDS },
  clock,
);
const ms = performance.now() - t0;
const main1 = mainThreadCpuMs();
process.stdout.write(
  `${JSON.stringify({
    runs: h.runs,
    verdict: h.verdict,
    ms,
    mainThreadCpuMs: main0 === undefined || main1 === undefined ? null : main1 - main0,
  })}\n`,
);
