import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bech32 } from "@scure/base";
import { afterAll, describe, expect, it } from "vitest";
import { openTestChain } from "../../test/kit/devnet.js";
import { RpcHandler } from "../api/rpc/handler.js";
import { listenRpc } from "../server/rpc.js";
import { devnetRpcSource } from "./rpc-source.js";

/** The cosmjs snippet of docs/node-api.md §10 runs as written against a devnet's RPC. */
const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("docs/node-api.md cosmjs snippet", () => {
  it("connects, queries the plan through abci_query and derives a chain address", async () => {
    const doc = readFileSync(join(ROOT, "docs/node-api.md"), "utf8");
    const snippet = /```js cosmjs-example\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(snippet).toBeDefined();
    const { cfg, chain } = await openTestChain("doc-1", dirs);
    for (let h = 1; h <= 3; h++) {
      chain.produceBlock(1_800_000_000_000 + h * 1000);
      await chain.flush();
    }
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
        { env: { ...process.env, CHAINSIM_RPC: `http://127.0.0.1:${listener.value.port}` }, timeout: 30_000 },
        (e, stdout, stderr) => (e === null ? resolve(stdout) : reject(new Error(`${e.message}\n${stderr}`))),
      ),
    );
    // The "abandon ... about" mnemonic's reference address is cosmos19rl4cm2hmr8afy4kldpxz3fka4jguq0auqdal4.
    const bytes = bech32.fromWords(bech32.decode("cosmos19rl4cm2hmr8afy4kldpxz3fka4jguq0auqdal4").words);
    expect(out).toBe(`chain doc-1 height 3\nplan none\naddress ${bech32.encode("chain", bech32.toWords(bytes))}\n`);
    await listener.value.close();
    await chain.close();
  });
});
