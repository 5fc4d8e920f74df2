import { describe, expect, it } from "vitest";
import { crashVerdict, type DetectorRun, detectorVerdict, repoFrames } from "./mutation-verdict.js";

const SANDBOX = "/work/repo/.stryker-tmp/sandbox-Ab12";
const productStack = [
  "AssertionError: a done marker decodes",
  `    at assert (file://${SANDBOX}/src/core/assert.ts:12:11)`,
  `    at UpgradeKeeper.getDoneHeight (file://${SANDBOX}/src/upgrade/keeper.ts:286:5)`,
  `    at runSession (file://${SANDBOX}/src/harness/session.ts:90:3)`,
  "    at Property.run (file:///work/repo/node_modules/fast-check/lib/fast-check.js:1:1)",
].join("\n");
const harnessStack = [
  "TypeError: Cannot read properties of undefined (reading 'height')",
  `    at compareHalts (file://${SANDBOX}/properties/model-agreement.ts:77:20)`,
  `    at UpgradeKeeper.getDoneHeight (file://${SANDBOX}/src/upgrade/keeper.ts:286:5)`,
].join("\n");

const check = (exitCode: number | null, errors: (string | undefined)[], loaded = true): DetectorRun => ({
  command: "check",
  exitCode,
  loaded,
  stdout: `${JSON.stringify({ verdict: "crashed", properties: errors.map((error) => ({ property: "p", error })) })}\n`,
  stderr: "",
});

describe("a detector run's verdict on its mutant", () => {
  it("reads the repository frames of a stack, top first, without node_modules", () => {
    expect(repoFrames(productStack)).toEqual(["src/core/assert.ts", "src/upgrade/keeper.ts", "src/harness/session.ts"]);
  });

  it("exit 0 survives; a failed property or expectation kills", () => {
    expect(detectorVerdict(check(0, []))).toBe("survived");
    expect(detectorVerdict(check(1, []))).toBe("property");
    expect(detectorVerdict({ command: "run", exitCode: 1, loaded: true, stdout: "", stderr: "" })).toBe("property");
  });

  it("a crash kills only when thrown in the product; in the harness, or with no frame at all, it is no verdict", () => {
    expect(detectorVerdict(check(3, [productStack]))).toBe("productCrash");
    expect(detectorVerdict(check(3, [harnessStack]))).toBe("harnessCrash");
    // fast-check's interrupted check before any run: failed, with the error `null`
    expect(detectorVerdict(check(3, ["null"]))).toBe("harnessCrash");
    expect(detectorVerdict(check(3, [harnessStack, productStack]))).toBe("productCrash");
    // `chainsim run`'s internal error goes to stderr
    const run = {
      command: "run",
      exitCode: 3,
      loaded: true,
      stdout: "",
      stderr: `chainsim: internal error: ${productStack}`,
    };
    expect(detectorVerdict(run)).toBe("productCrash");
  });

  it("the machine's failures, a usage error, a signal, or sources that never loaded are environment failures", () => {
    expect(
      crashVerdict(`Error: ENOSPC: no space left on device, write\n    at x (file://${SANDBOX}/src/cli/report.ts:1:1)`),
    ).toBe("environment");
    expect(crashVerdict("FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory")).toBe(
      "environment",
    );
    expect(
      detectorVerdict(
        check(3, [`Error: EMFILE: too many open files\n    at y (file://${SANDBOX}/src/store/kv.ts:3:3)`]),
      ),
    ).toBe("environment");
    expect(detectorVerdict(check(2, []))).toBe("environment");
    expect(detectorVerdict(check(null, []))).toBe("environment");
    expect(detectorVerdict(check(137, []))).toBe("environment");
    expect(detectorVerdict(check(0, [], false))).toBe("environment");
  });
});
