// The mutation-testing detectors and the code they are scored on (docs/mutation.md). Plain data, shared by
// stryker.config.mjs (one Stryker run per detector) and scripts/mutate.ts (the driver and its report).

/** The decision logic under mutation: each entry a file, or `file:start-end` lines of it (Stryker's syntax). */
export const DECISION_LOGIC = [
  "src/upgrade/preblocker.ts",
  "src/upgrade/keeper.ts",
  "src/upgrade/msg-server.ts",
  "src/upgrade/store-loader.ts",
  "src/chain/consensus.ts",
  "src/gov/tally.ts",
  "src/gov/end-blocker.ts",
  "src/gov/deposit.ts",
  "src/gov/cancel.ts",
  // The operator model (issue 25): cosmovisor's sequence and the person, and the engine's side of it.
  "src/chain/operator-plan.ts",
  "src/chain/operator.ts",
  "src/chain/lifecycle.ts",
  // What the product runs around those decisions (docs/mutation.md, "New files: what the product runs"): the
  // supervisor choosing the binary, the plan's ValidateBasic and ShouldExecute, upgrade-info.json, and the vote and
  // submit rules of x/gov.
  "src/upgrade/plan.ts",
  "src/upgrade/upgrade-info.ts",
  "src/gov/vote.ts",
  "src/gov/submit.ts",
];

/** The devnet's own logic, which only a devnet runs (the simulated world never signs a transaction). */
export const DEVNET_LOGIC = ["src/devnet/ante.ts"];

/** The files a detector is scored on unless `--files` names others. */
export const detectorFiles = (detector) => (detector === "devnet" ? DEVNET_LOGIC : DECISION_LOGIC);

/** The campaign detector's seed unless `npm run mutate -- --seed N` gives another. */
export const DEFAULT_SEED = 20261124;

/**
 * The campaign detector's command at a seed; `prefixShare` adds `check --prefix-share` (the campaign's runs as
 * extensions of shared command prefixes, docs/performance.md "Shared prefixes").
 */
export const campaignCommand = (seed, prefixShare = false) =>
  // One thread: Stryker already runs a detector per core, and each worker thread would load the sources anew.
  `node mutation/detect.mjs check --seed ${seed} --bail --no-page --workers 1 --json --report-dir .mutation-out --regressions-dir .mutation-out${prefixShare ? " --prefix-share" : ""}`;

/**
 * Each detector, as the command Stryker's command runner executes per mutant (a non-zero exit kills it), or the
 * vitest runner (`vitestConfig`) for the unit suite and the devnet's tests. Commands run the TypeScript sources through tsx (never a pre-built bundle, which
 * would not contain the mutant) from the sandbox Stryker copies the project into.
 */
export const DETECTORS = {
  campaign: {
    statement: "the property campaign: chainsim check with the default budget and a fixed seed, no faults",
    command: campaignCommand(DEFAULT_SEED),
  },
  scenarios: {
    statement: "the scenario library's own expect blocks (chainsim run scenarios/; golden hashes are not a detector)",
    command: "node mutation/detect.mjs run scenarios/ --json --bail",
  },
  units: {
    statement: "the unit suite (vitest, per-test coverage), without the scenario golden suite and the property suites",
    command: undefined,
    vitestConfig: "mutation/vitest.units.config.ts",
  },
  devnet: {
    statement:
      "the devnet's own in-process tests (vitest, per-test coverage): transactions, the ante handler, RPC, REST",
    command: undefined,
    vitestConfig: "mutation/vitest.devnet.config.ts",
  },
};
