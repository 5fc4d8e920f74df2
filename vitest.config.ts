import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "models/**/*.test.ts", "properties/**/*.test.ts", "test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    // One directory per run for the reference runs the library-wide equivalence files share.
    globalSetup: ["test/kit/reference-runs-setup.ts"],
    sequence: { shuffle: false },
    // Test files share their worker processes' module graphs: each file re-imported the source tree in a fresh
    // process, about half of the suite's CPU (docs/performance.md, "npm test"). No test mocks modules, stubs the
    // environment or fakes timers; spies are restored by the files that make them.
    isolate: false,
    testTimeout: 60_000,
    reporters: process.env.CI ? ["default", "junit", "json"] : ["default"],
    outputFile: { junit: "reports/ci/junit.xml", json: "reports/ci/vitest.json" },
    coverage: { provider: "v8", include: ["src/**", "models/**"], exclude: ["src/gen/**"] },
  },
});
