import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { addressFromBytes, decodeAddress } from "../src/core/address.js";
import { parseScenario, type ScenarioOverrides } from "../src/scenario/index.js";
import { runScenario } from "../src/scenario/runner.js";
import { genesisErrors } from "../src/scenario/simulate.js";
import { readProfile, scenarioFiles } from "./scenario-suite.js";

/**
 * The bech32 prefix is a setting, not a constant: every library scenario, with its literal `chain1…` addresses
 * re-encoded under `cosmos` and run with `chain.bech32Prefix: cosmos`, reaches the same verdict and the same final
 * state (heights, halts, plans, versions) as under the default prefix. Only the app hash may differ (proposals store
 * their proposer's address text).
 */
const ADDRESS = /\bchain1[02-9ac-hj-np-z]{38}\b/g;
const recode = (text: string): string =>
  text.replace(ADDRESS, (a) => {
    const bytes = decodeAddress(a);
    return bytes === undefined ? a : addressFromBytes(bytes, "cosmos");
  });

function run(file: string, text: string, overrides: ScenarioOverrides = {}) {
  const parsed = parseScenario(file, text, readProfile, overrides);
  if (!parsed.ok) throw new Error(parsed.error.map((e) => `${e.path}: ${e.message}`).join("\n"));
  const { report } = runScenario(parsed.value);
  const { appHash: _appHash, ...final } = report.final;
  return { passed: report.passed, failures: report.failures.map((f) => f.at), final };
}

describe("chain.bech32Prefix", () => {
  it("leaves every library scenario's outcome unchanged under the cosmos prefix", () => {
    const files = scenarioFiles();
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const plain = run(file, text);
      const cosmos = run(file, recode(text), { bech32Prefix: "cosmos" });
      expect(cosmos, file).toEqual(plain);
    }
  }, 300_000);

  it("rejects an invalid prefix with one line naming the key", () => {
    const parsed = parseScenario("p.yaml", "name: p\nchain:\n  bech32Prefix: Cosmos\nbinaries:\n  v1: {}\n");
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? [] : parsed.error).toEqual([
      {
        file: "p.yaml",
        path: "chain.bech32Prefix",
        message: 'a bech32 prefix must be lowercase, got "Cosmos"',
        line: 3,
        column: 3,
      },
    ]);
  });

  it("refuses a chain1 address on a cosmos chain, as the reference's address codec does", () => {
    const text = readFileSync("scenarios/cancel-proposal-in-deposit-period.yaml", "utf8");
    const parsed = parseScenario("x.yaml", text, readProfile, { bech32Prefix: "cosmos" });
    if (!parsed.ok) throw new Error("the file parses");
    expect(genesisErrors(parsed.value)).toEqual([
      {
        file: "x.yaml",
        path: "chain.gov",
        message: "deposits destination address is invalid: chain190vqdjtlpcq27xslcveglfmr4ynfwg7g4evumx",
      },
    ]);
  });
});
