import { defineConfig } from "vitest/config";
import { UNIT_TEST_FOLDERS } from "./related-tests.mjs";

// The unit suite as a mutation detector: every test beside the code, without the golden trace-hash suite (which
// flags nearly any change, so it would say nothing about the tests) and without the property suites and the
// network, browser and process end-to-end tests of the outer layers (api, server, cli, devnet, report): they reach
// the decision logic only through the layers below, whose own tests are here. Per mutated file, the detector runs
// only the related ones of these (mutation/related-tests.mjs, Stryker's `testFiles`).
export default defineConfig({
  test: {
    include: UNIT_TEST_FOLDERS.map((d) => `${d}/**/*.test.ts`),
    setupFiles: ["test/setup.ts"],
    testTimeout: 60_000,
  },
});
