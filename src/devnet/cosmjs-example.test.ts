import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bech32 } from "@scure/base";
import { afterAll, describe, expect, it } from "vitest";
import { openTestChain, upgradeProposalMsg } from "../../test/kit/devnet.js";
import { RpcHandler } from "../api/rpc/handler.js";
import { listenRpc } from "../server/rpc.js";
import { loadKey } from "./keyring.js";
import { devnetRpcSource } from "./rpc-source.js";
import { signTx } from "./tx.js";

/**
 * The cosmjs snippet of docs/node-api.md §10 (a Registry, an accountParser and query extensions for the `chain` names)
 * is taken from the doc and runs as written against a devnet's RPC, so that the doc and the test cannot drift.
 */
const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("docs/node-api.md cosmjs snippet", () => {
  it("reads the chain id, an account with its key, a balance, a proposal's plan and the current plan", async () => {
    const doc = readFileSync(join(ROOT, "docs/node-api.md"), "utf8");
    const snippet = /```js cosmjs-example\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(snippet).toBeDefined();
    const { home, cfg, chain } = await openTestChain("doc-1", dirs);
    const val1 = loadKey(home, "val1");
    if (!val1.ok) throw new Error(val1.error);
    chain.produceBlock(1_800_000_001_000);
    const msg = upgradeProposalMsg(val1.value.address, { name: "v2", height: 100n });
    const checked = chain.checkTx(signTx(val1.value, { chainId: "doc-1", accountNumber: 0n, sequence: 0n, msg }));
    expect(checked).toMatchObject({ kind: "checked", code: 0 });
    for (let h = 2; h <= 3; h++) chain.produceBlock(1_800_000_000_000 + h * 1000);
    await chain.flush();
    const listener = await listenRpc(new RpcHandler(devnetRpcSource(chain, cfg, chain.queryBackend())), "127.0.0.1", 0);
    if (!listener.ok) throw listener.error;
    // Under node_modules so that the snippet's bare imports resolve from the repository's packages.
    const dir = join(ROOT, "node_modules", ".cache", "chainsim-doc");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "cosmjs-example.mjs");
    writeFileSync(file, snippet!);
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [file],
        {
          env: {
            ...process.env,
            CHAINSIM_RPC: `http://127.0.0.1:${listener.value.port}`,
            CHAINSIM_ADDRESS: val1.value.address,
          },
          timeout: 30_000,
        },
        (e, stdout, stderr) => (e === null ? resolve(stdout) : reject(new Error(`${e.message}\n${stderr}`))),
      ),
    );
    // The "abandon ... about" mnemonic's reference address is cosmos19rl4cm2hmr8afy4kldpxz3fka4jguq0auqdal4.
    const bytes = bech32.fromWords(bech32.decode("cosmos19rl4cm2hmr8afy4kldpxz3fka4jguq0auqdal4").words);
    // val1's genesis 1000000000000stake (src/devnet/init.ts) less the 10000000 deposit; the proposal is not passed yet.
    expect(out).toBe(
      [
        "chain doc-1 height 3",
        `address ${bech32.encode("chain", bech32.toWords(bytes))}`,
        "account 0 sequence 1 key tendermint/PubKeySecp256k1",
        "balance 999990000000",
        "proposal 1 carries v2",
        "plan none",
        "",
      ].join("\n"),
    );
    await listener.value.close();
    await chain.close();
  });
});
