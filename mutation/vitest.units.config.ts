import { defineConfig } from "vitest/config";

// The unit suite as a mutation detector: every test beside the code, without the golden trace-hash suite (which
// flags nearly any change, so it would say nothing about the tests) and without the property suites and the
// browser/process end-to-end tests (they are the campaign's and the CLI's, scored separately or too slow per mutant).
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "models/**/*.test.ts"],
    exclude: ["src/devnet/**", "src/cli/**", "**/node_modules/**"],
    setupFiles: ["test/setup.ts"],
    testTimeout: 60_000,
  },
});
