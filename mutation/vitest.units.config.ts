import { defineConfig } from "vitest/config";
import { unitDetectorTests } from "./related-tests.mjs";

// The unit suite as a mutation detector: every test beside the code, without the golden trace-hash suite (which
// flags nearly any change, so it would say nothing about the tests) and without the property suites and the
// network, browser and process end-to-end tests of the outer layers (api, server, cli, devnet, report): they reach
// the decision logic only through the layers below, whose own tests are here. Of these, the detector runs only the
// ones related to the mutated files (MUTATE_FILES, set by npm run mutate; default: the detector's files), computed
// from the import graph when the config loads (mutation/related-tests.mjs).
//
// The list is the vitest `include`, not Stryker's `testFiles`: with `testFiles`, Stryker 9.5 activates a static
// mutant (one evaluated when its module loads) after the module loaded, and reports it survived unseen
// (stryker-js issue #6144).
export default defineConfig({
  test: {
    include: unitDetectorTests(process.env.MUTATE_FILES),
    setupFiles: ["test/setup.ts"],
    testTimeout: 60_000,
  },
});
