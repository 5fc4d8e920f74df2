import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { relatedTests } from "../mutation/related-tests.mjs";

// The unit detector runs only the unit tests related to the mutated file (docs/mutation.md, "The detectors"): the
// tests whose imports reach it, in its own layer. The list is computed from the import graph when the detector
// starts, so an engineer who adds a test (or an import through a test kit) gets it scored without editing a list.

describe("the unit detector's related test files", () => {
  it("a module file gets its layer's tests that reach it, through the test kits too, and none from above", () => {
    const vote = relatedTests(["src/gov/vote.ts"]);
    // vote.test.ts reaches vote.ts only through test/kit/gov.ts.
    expect(vote).toContain("src/gov/vote.test.ts");
    expect(vote).toContain("src/gov/submit.test.ts");
    expect(
      vote.every((f) => f.startsWith("src/gov/") || f.startsWith("src/bank/") || f.startsWith("src/upgrade/")),
    ).toBe(true);
    // The engine's tests run the gov module too, but they are the chain layer's.
    expect(vote.some((f) => f.startsWith("src/chain/"))).toBe(false);
  });

  it("a line range is the file's: the same tests as the whole file", () => {
    expect(relatedTests(["src/upgrade/upgrade-info.ts:90-120"])).toEqual(relatedTests(["src/upgrade/upgrade-info.ts"]));
    expect(relatedTests(["src/upgrade/upgrade-info.ts"])).toContain("src/upgrade/upgrade-info.test.ts");
  });

  describe("in a project of its own", () => {
    let root = "";
    afterEach(() => rmSync(root, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };

    it("follows the imports as they are now: a new import makes a test related, another layer's test is not", () => {
      root = mkdtempSync(join(tmpdir(), "chainsim-related-"));
      write("lint/layers.cjs", 'module.exports = { LAYERS: [["core", ["core"]], ["chain", ["chain"]]] };\n');
      write("src/core/rule.ts", "export const rule = 1;\n");
      write("src/core/other.ts", "export const other = 2;\n");
      write("test/kit/rules.ts", 'export { rule } from "../../src/core/rule.js";\n');
      write("src/core/other.test.ts", 'import { other } from "./other.js";\n');
      write("src/core/kit-user.test.ts", 'import { rule } from "../../test/kit/rules.js";\n');
      write("src/chain/engine.test.ts", 'import { rule } from "../core/rule.js";\n');
      expect(relatedTests(["src/core/rule.ts"], root)).toEqual(["src/core/kit-user.test.ts"]);

      write("src/core/other.test.ts", 'import { other } from "./other.js";\nimport "./rule.js";\n');
      expect(relatedTests(["src/core/rule.ts"], root)).toEqual(["src/core/kit-user.test.ts", "src/core/other.test.ts"]);
      expect(relatedTests(["src/chain/engine.ts"], root)).toEqual([]);
    });
  });
});
