import { describe, expect, it } from "vitest";
import { addressOfName } from "../core/address.js";
import { err, ok } from "../core/errors.js";
import { formatScenarioError } from "./errors.js";
import { parseScenario } from "./load.js";

const PROFILE = `profile: 1
source: {namespace: chain, chainId: c-1}
at: {height: 100, time: "2026-01-01T00:00:00Z"}
chain: {chainId: c-1, validators: [{name: alice, power: 10}], modules: {bank: 1, gov: 1, upgrade: 1}}
plan: {name: v2, height: 500}
`;
const files = (m: Record<string, string>) => (p: string) => (p in m ? ok(m[p] as string) : err("no such file"));
const scenario = (extra = "") => `from: ./p.yaml\nname: s\nbinaries: {v1: {}}\n${extra}`;

describe("scenario from: a profile", () => {
  it("starts at the profile's height and time, with its validators and plan", () => {
    const r = parseScenario(
      "dir/s.yaml",
      scenario("steps: [{at: 101, stop: {node: alice}}]"),
      files({ "dir/p.yaml": PROFILE }),
    );
    if (!r.ok) throw new Error(r.error.map(formatScenarioError).join("\n"));
    expect(r.value.start?.height).toBe(100);
    expect(r.value.chain.validators).toEqual([{ name: "alice", power: 10 }]);
    expect(r.value.start?.plan).toEqual({ name: "v2", height: 500n, info: "" });
  });

  it("keeps an imported proposer under the chain's bech32 prefix, and gives the plan that prefix's gov authority", () => {
    const proposer = "cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu";
    const profile = `${PROFILE}proposals:
  - id: 1
    status: deposit
    proposer: ${proposer}
    submitTime: "2025-12-31T23:00:00Z"
    depositEndTime: "2026-01-02T00:00:00Z"
    messages: [{softwareUpgrade: {name: v3, height: 900}}]
`;
    const load = (extra: string) => {
      const r = parseScenario("dir/s.yaml", scenario(extra), files({ "dir/p.yaml": profile }));
      if (!r.ok) throw new Error(r.error.map(formatScenarioError).join("\n"));
      return r.value.start!.proposals[0]!;
    };
    const cosmos = load("chain: {bech32Prefix: cosmos}\n");
    expect(cosmos.proposer).toBe(proposer);
    expect(cosmos.messages[0]).toMatchObject({ authority: "cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn" });
    // Under the default prefix the cosmos address is not the chain's: a name-derived proposer stands in.
    const plain = load("");
    expect(plain.proposer).toBe(addressOfName("proposal-1"));
    expect(plain.messages[0]).toMatchObject({ authority: "chain10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax" });
  });

  it("a missing or invalid profile is one error at `from`, naming the scenario file", () => {
    const missing = parseScenario("dir/s.yaml", scenario(), files({}));
    expect(missing.ok ? [] : missing.error.map(formatScenarioError)).toEqual([
      "dir/s.yaml: from: cannot read profile dir/p.yaml: no such file",
    ]);
    const bad = parseScenario("dir/s.yaml", scenario(), files({ "dir/p.yaml": "profile: 2\n" }));
    expect(bad.ok ? [] : bad.error.map(formatScenarioError)).toHaveLength(1);
    expect(bad.ok ? "" : formatScenarioError(bad.error[0]!)).toMatch(
      /^dir\/s.yaml: from: invalid profile: dir\/p.yaml: /,
    );
  });

  it("a step at or below the imported height, and a genesis binary without the profile's modules, are errors", () => {
    const r = parseScenario(
      "s.yaml",
      "from: p.yaml\nname: s\nbinaries: {v1: {modules: {foo: 1}}}\nsteps: [{at: 100, stop: {node: alice}}]\n",
      files({ "p.yaml": PROFILE }),
    );
    expect(r.ok ? [] : r.error.map(formatScenarioError)).toEqual([
      "s.yaml: binaries.v1.modules: the genesis binary must carry the profile's module versions (foo: binary 1, profile none)",
      "s.yaml: steps[0].at: must be above the profile's height 100",
    ]);
  });

  it("chain keys of the scenario override the profile's", () => {
    const r = parseScenario("s.yaml", scenario("chain: {blockTime: 2s}"), files({ "p.yaml": PROFILE }));
    expect(r.ok && r.value.chain.blockTime).toEqual({ kind: "fixed", intervalMs: 2000 });
  });
});
