import { defineConfig } from "vitest/config";

// The unit suite as a mutation detector: every test beside the code, without the golden trace-hash suite (which
// flags nearly any change, so it would say nothing about the tests) and without the property suites and the
// network, browser and process end-to-end tests of the outer layers (api, server, cli, devnet, report): they reach
// the decision logic only through the layers below, whose own tests are here.
export default defineConfig({
  test: {
    include: [
      "src/{core,store,bank,gov,upgrade,app,chain,scenario,harness,explore,faults}/**/*.test.ts",
      "models/**/*.test.ts",
    ],
    setupFiles: ["test/setup.ts"],
    testTimeout: 60_000,
  },
});
