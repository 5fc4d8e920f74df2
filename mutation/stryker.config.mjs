// StrykerJS configuration for one detector at a time (`MUTATE_DETECTOR=campaign|scenarios|units`); the driver
// `scripts/mutate.ts` (npm run mutate) runs each detector and merges the reports. MUTATE_FILES narrows the
// mutated files (comma-separated), MUTATE_OUT is the detector's report folder, MUTATE_SEED the campaign's seed,
// MUTATE_TIMEOUT_MS Stryker's timeoutMS, MUTATE_PREFIX_SHARE=1 the campaign with shared prefixes.
import { availableParallelism } from "node:os";
import { campaignCommand, DEFAULT_SEED, DETECTORS, detectorFiles } from "./detectors.mjs";

const detector = process.env.MUTATE_DETECTOR ?? "scenarios";
if (!(detector in DETECTORS)) throw new Error(`MUTATE_DETECTOR: unknown detector "${detector}"`);
const files = process.env.MUTATE_FILES ? process.env.MUTATE_FILES.split(",") : detectorFiles(detector);
const out = process.env.MUTATE_OUT ?? `reports/mutation/${detector}`;
const seed = process.env.MUTATE_SEED;
if (seed !== undefined && !/^\d+$/.test(seed)) throw new Error(`MUTATE_SEED: expected an integer, got "${seed}"`);
const prefixShare = process.env.MUTATE_PREFIX_SHARE === "1";
const command =
  detector === "campaign" && (seed !== undefined || prefixShare)
    ? campaignCommand(seed === undefined ? DEFAULT_SEED : Number(seed), prefixShare)
    : DETECTORS[detector].command;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: files,
  ...(command === undefined
    ? {
        testRunner: "vitest",
        vitest: { configFile: DETECTORS[detector].vitestConfig },
        coverageAnalysis: "perTest",
        plugins: ["@stryker-mutator/vitest-runner"],
      }
    : { testRunner: "command", commandRunner: { command }, coverageAnalysis: "off" }),
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? availableParallelism()),
  // A mutant that hangs (an endless loop in a decision) is killed by timeout: the limit is the unmutated run's
  // time times timeoutFactor, plus timeoutMS (MUTATE_TIMEOUT_MS, `--timeout-ms`). The unmutated run is timed once,
  // at the start: when the machine's load grows later, a survivor slowed past the limit would count as a kill, so a
  // run on a shared machine raises timeoutMS.
  timeoutFactor: 2,
  timeoutMS: Number(process.env.MUTATE_TIMEOUT_MS ?? 20_000),
  // The unit suite's dry run (every test, with per-test coverage) takes over Stryker's default 5 minutes on the
  // shared 2-core machine under load.
  dryRunTimeoutMinutes: 30,
  reporters: ["json", "html", "clear-text"],
  jsonReporter: { fileName: `${out}/mutation.json` },
  htmlReporter: { fileName: `${out}/index.html` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: ".stryker-tmp",
  ignorePatterns: ["reports", "scenarios/regressions", ".mutation-out", "coverage", ".vitest-reports"],
  cleanTempDir: true,
  logLevel: "warn",
  fileLogLevel: "off",
};
