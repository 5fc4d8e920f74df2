import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProtobufRpcClient, QueryClient, StargateClient } from "@cosmjs/stargate";
import { connectComet } from "@cosmjs/tendermint-rpc";
import { QueryClientImpl as UpgradeQuery } from "cosmjs-types/cosmos/upgrade/v1beta1/query";
import { afterAll, describe, expect, it } from "vitest";
import { UPGRADE_SCENARIO } from "../../test/kit/node-fixture.js";

// cosmjs reading blocks and transactions from `chainsim serve --rpc-address` (a child process on loopback), as an
// explorer indexes a chain through its upgrade halt.
const dir = mkdtempSync(join(tmpdir(), "chainsim-serve-rpc-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
});

describe("chainsim serve: the read-only CometBFT RPC", () => {
  it("serves a scenario's blocks, txs, results and abci queries to cosmjs", async () => {
    const toml = join(dir, "app.toml");
    writeFileSync(toml, `[api]\nenable = false\n[grpc]\nenable = false\n`);
    const child = spawn(
      process.execPath,
      ["bin/chainsim.js", "serve", UPGRADE_SCENARIO, "--config", toml, "--rpc-address", "tcp://127.0.0.1:0"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    children.push(child);
    let out = "";
    child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
    const deadline = Date.now() + 60_000;
    let url: string | undefined;
    while (url === undefined) {
      url = /RPC {3}(http:\/\/\S+)/.exec(out)?.[1];
      if (Date.now() > deadline) throw new Error(`no RPC address: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }

    const client = await StargateClient.connect(url);
    const comet = await connectComet(url);
    const height = await client.getHeight();
    expect(height).toBeGreaterThan(5);
    // Index every block: contiguous heights, each header chained to the previous block id.
    let prevId = "";
    let txCount = 0;
    for (let h = 1; h <= height; h++) {
      const b = await client.getBlock(h);
      expect(b.header.height).toBe(h);
      if (h > 1)
        expect(
          Buffer.from((await comet.block(h)).block.header.lastBlockId!.hash)
            .toString("hex")
            .toUpperCase(),
        ).toBe(prevId);
      prevId = b.id;
      txCount += b.txs.length;
    }
    expect(txCount).toBeGreaterThan(0);
    const all = await client.searchTx("tx.height>=1");
    expect(all).toHaveLength(txCount);
    const first = all[0]!;
    expect((await client.getTx(first.hash))?.height).toBe(first.height);
    const results = await comet.blockResults(first.height);
    expect(results.results.length).toBeGreaterThan(0);
    const proposals = await client.searchTx("message.action='/chain.gov.v1.MsgSubmitProposal'");
    expect(proposals.length).toBeGreaterThan(0);
    expect(proposals[0]!.events.some((e) => e.type === "submit_proposal")).toBe(true);

    // The upgrade's applied height, through abci_query with the chain.* service name.
    const rpc = createProtobufRpcClient(new QueryClient(comet));
    const upgrade = new UpgradeQuery({ request: (_s, m, d) => rpc.request("chain.upgrade.v1beta1.Query", m, d) });
    const versions = await upgrade.ModuleVersions({ moduleName: "" });
    expect(versions.moduleVersions.length).toBeGreaterThan(0);
    // A future height is CometBFT's error.
    await expect(comet.block(height + 1)).rejects.toThrow(
      `height ${height + 1} must be less than or equal to the current blockchain height ${height}`,
    );
    // No broadcast on a read-only node.
    const r = await fetch(url, {
      method: "POST",
      body: '{"jsonrpc":"2.0","id":1,"method":"broadcast_tx_sync","params":{"tx":"AA=="}}',
    });
    expect(((await r.json()) as { error: unknown }).error).toEqual({ code: -32601, message: "Method not found" });
    comet.disconnect();
    client.disconnect();
    child.kill("SIGTERM");
  }, 90_000);
});
