import { describe, expect, it } from "vitest";
import { addressOfName } from "../core/address.js";
import { DEFAULT_BINARIES, genesisDocument, loadDevnetConfig } from "./genesis.js";
import { keyFromSeed } from "./keyring.js";

const val1 = keyFromSeed("val1", "s");
const alice = keyFromSeed("alice", "s");
const genesis = (gov: Record<string, string> = {}) =>
  JSON.stringify(
    genesisDocument({
      chainId: "g-1",
      validators: [{ key: val1, power: 100 }],
      accounts: [{ key: alice, coins: "5stake" }],
      gov,
    }),
  );
const load = (g: string, b: string = JSON.stringify(DEFAULT_BINARIES), bName = "config/binaries.json") =>
  loadDevnetConfig("config/genesis.json", g, bName, b);

describe("devnet genesis and binaries", () => {
  it("resolves like a scenario: balances by named address, short gov periods, auth mounted in every binary", () => {
    const r = load(genesis());
    if (!r.ok) throw new Error(r.error.join("\n"));
    const c = r.value;
    expect(c.chainId).toBe("g-1");
    expect(c.genesis.balances).toEqual([
      { address: addressOfName("alice"), coins: [{ denom: "stake", amount: 5n }] },
      { address: addressOfName("val1"), coins: [{ denom: "stake", amount: 1000000000000n }] },
    ]);
    expect(c.scenario.chain.gov.votingPeriodMs).toBe(20_000);
    expect(c.scenario.chain.gov.maxDepositPeriodMs).toBe(20_000);
    expect(c.pubkeys.get(addressOfName("val1"))).toEqual(val1.pubkey);
    expect([...c.binaries.get("v1")!.modules.keys()]).toEqual(["auth", "bank", "gov", "upgrade"]);
    expect([...c.binaries.get("v2")!.upgrades.keys()]).toEqual(["v2"]);
    const noAuth = load(genesis(), JSON.stringify({ binaries: { a: {} } }));
    expect(noAuth.ok && [...noAuth.value.binaries.get("a")!.modules.keys()]).toEqual([
      "auth",
      "bank",
      "gov",
      "upgrade",
    ]);
  });

  it("registers each account's key once, also a validator that has a balance", () => {
    const doc = genesisDocument({
      chainId: "g-1",
      validators: [{ key: val1, power: 100 }],
      accounts: [
        { key: val1, coins: "5stake" },
        { key: alice, coins: "5stake" },
      ],
    });
    expect(doc.accounts.map((a) => a.name)).toEqual(["val1", "alice"]);
  });

  it("reports errors with the file and the path inside it", () => {
    expect(load(genesis({ votingPeriod: "soon" }))).toEqual({
      ok: false,
      error: [expect.stringMatching(/^config\/genesis\.json: chain\.gov\.votingPeriod: /)],
    });
    expect(load(genesis(), "binaries: {v1: {modules: {x: 0}}}", "config/binaries.yaml")).toEqual({
      ok: false,
      error: [expect.stringMatching(/^config\/binaries\.yaml: binaries\.v1\.modules\.x: /)],
    });
    const doc = JSON.parse(genesis());
    doc.accounts[0].pubkey = "AAAA";
    doc.extra = 1;
    expect(load(JSON.stringify(doc))).toEqual({
      ok: false,
      error: [
        "config/genesis.json: extra: unknown key",
        "config/genesis.json: accounts.0.pubkey: expected base64 of a 33-byte key",
      ],
    });
  });
});
