import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, startUntilFirstBlock } from "../../test/kit/devnet.js";
import { loadDevnetConfig } from "./genesis.js";
import { initNode } from "./init.js";
import { loadKey } from "./keyring.js";
import { runNode } from "./node.js";

// The bech32 prefix of a devnet is chain-wide state in genesis.json (`chain.bech32Prefix`, docs/node-api.md §0.2):
// init writes it, every address derives from it, and a node configured with another prefix is refused.
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function home(bech32Prefix?: string): Promise<string> {
  const h = join(mkdtempSync(join(tmpdir(), "devnet-prefix-")), "home");
  dirs.push(join(h, ".."));
  const init = await initNode({
    home: h,
    chainId: "p",
    validators: 1,
    keySeed: "p",
    apiAddress: "tcp://127.0.0.1:0",
    grpcAddress: "127.0.0.1:0",
    rpcAddress: "",
    ...(bech32Prefix === undefined ? {} : { bech32Prefix }),
  });
  if (!init.ok) throw new Error(init.error);
  return h;
}

describe("a devnet's bech32 prefix", () => {
  it("is written to genesis by init --bech32-prefix and carried by every key and genesis address", async () => {
    const h = await home("cosmos");
    const genesis = JSON.parse(readFileSync(join(h, "config", "genesis.json"), "utf8"));
    expect(genesis.chain.bech32Prefix).toBe("cosmos");
    for (const a of genesis.accounts) expect(a.address).toMatch(/^cosmos1[02-9ac-hj-np-z]{38}$/);
    const alice = loadKey(h, "alice", "cosmos");
    expect(alice.ok && alice.value.address).toBe(
      genesis.accounts.find((a: { name: string }) => a.name === "alice").address,
    );
    // The same key under the default prefix is the same 20 bytes with another human-readable part.
    const plain = await home();
    expect(JSON.parse(readFileSync(join(plain, "config", "genesis.json"), "utf8")).chain.bech32Prefix).toBeUndefined();
  });

  it("refuses a node whose configured prefix (flag or app.toml) disagrees with genesis, in one line", async () => {
    const h = await home("cosmos");
    expect(await startUntilFirstBlock(h, "cosmos")).toEqual({ code: 0, err: [] });
    expect(await startUntilFirstBlock(h, "chain")).toEqual({
      code: 2,
      err: [
        'Error: --bech32-prefix "chain" does not match the chain\'s bech32 prefix "cosmos" (genesis.json chain.bech32Prefix)',
      ],
    });
    const appToml = join(h, "config", "app.toml");
    writeFileSync(appToml, `${readFileSync(appToml, "utf8")}bech32-prefix = "osmo"\n`);
    expect(await startUntilFirstBlock(h)).toEqual({
      code: 2,
      err: [
        'Error: app.toml [chainsim] bech32-prefix "osmo" does not match the chain\'s bech32 prefix "cosmos" (genesis.json chain.bech32Prefix)',
      ],
    });
    expect((await startUntilFirstBlock(h, "cosmos")).code).toBe(0); // the flag wins over app.toml
  });

  it("start's namespace overrides app.toml, a prefix equal to genesis's is accepted: cosmos names and addresses", async () => {
    const api = await freePort();
    const h = join(mkdtempSync(join(tmpdir(), "devnet-prefix-")), "home");
    dirs.push(join(h, ".."));
    const init = await initNode({
      home: h,
      chainId: "p",
      validators: 1,
      keySeed: "p",
      apiAddress: `tcp://127.0.0.1:${api}`,
      grpcAddress: "127.0.0.1:0",
      rpcAddress: "",
      bech32Prefix: "cosmos",
    });
    if (!init.ok) throw new Error(init.error);
    const abort = new AbortController();
    const answers: unknown[] = [];
    let asked = false;
    const code = await runNode({
      home: h,
      binary: "v1",
      skipHeights: [],
      blockTimeMs: 20,
      out: (l) => {
        if (!l.startsWith("INF committed block") || asked) return;
        asked = true;
        void (async () => {
          for (const path of ["/cosmos/upgrade/v1beta1/authority", "/chain/upgrade/v1beta1/authority"]) {
            const r = await fetch(`http://127.0.0.1:${api}${path}`);
            answers.push(r.status === 200 ? await r.json() : r.status);
          }
          abort.abort();
        })();
      },
      err: () => {},
      signal: abort.signal,
      sync: false,
      namespace: "cosmos",
      bech32Prefix: "cosmos",
    });
    expect(code).toBe(0);
    expect(answers).toEqual([{ address: "cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn" }, 501]);
  });

  it("rejects an invalid genesis prefix, and addresses under another prefix, naming the file and key", () => {
    const doc = (prefix: unknown, address?: string) =>
      JSON.stringify({
        chain: { chainId: "x", bech32Prefix: prefix, validators: [{ name: "v", power: 1 }] },
        accounts: [
          {
            name: "v",
            pubkey: "A+nAS9xuHMn1FwX3DJPy6hx3K9cX4OeC+dJRv9Mc4JR1",
            ...(address === undefined ? {} : { address }),
          },
        ],
      });
    const bin = JSON.stringify({ binaries: { v1: {} } });
    expect(loadDevnetConfig("genesis.json", doc("Cosmos"), "b.json", bin)).toEqual({
      ok: false,
      error: ['genesis.json: chain.bech32Prefix: a bech32 prefix must be lowercase, got "Cosmos"'],
    });
    expect(loadDevnetConfig("genesis.json", doc(""), "b.json", bin)).toEqual({
      ok: false,
      error: ["genesis.json: chain.bech32Prefix: a bech32 prefix must not be empty"],
    });
    const cosmos = loadDevnetConfig("genesis.json", doc("cosmos"), "b.json", bin);
    expect(cosmos.ok && cosmos.value.genesis.bech32Prefix).toBe("cosmos");
    const chainAddr = cosmos.ok ? [...cosmos.value.accounts.keys()][0]! : "";
    expect(chainAddr).toMatch(/^cosmos1/);
    const wrong = loadDevnetConfig("genesis.json", doc("osmo", chainAddr), "b.json", bin);
    expect(wrong.ok).toBe(false);
    expect(wrong.ok ? [] : wrong.error[0]).toMatch(/^genesis\.json: accounts\.0\.address: expected osmo1/);
  });
});
