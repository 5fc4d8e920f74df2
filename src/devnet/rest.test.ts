import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { voteMsg } from "../../test/kit/devnet.js";
import { Gateway } from "../api/gateway/gateway.js";
import { NODE_JSON } from "../api/node-backend.js";
import { HostFs } from "../node/host-fs.js";
import { DevnetChain } from "./chain.js";
import { readHome } from "./home.js";
import { initNode } from "./init.js";
import { loadKey } from "./keyring.js";
import { devnetRest } from "./rest.js";
import { signTx } from "./tx.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("devnet REST routes", () => {
  it("serves txs, accounts, balances, block metas and status in front of the gateway", async () => {
    const home = mkdtempSync(join(tmpdir(), "devnet-rest-"));
    dirs.push(home);
    const init = await initNode({ home, chainId: "r", validators: 1, keySeed: "r" });
    if (!init.ok) throw new Error(init.error);
    const cfg = readHome(home);
    if (!cfg.ok) throw new Error("cfg");
    const o = await DevnetChain.open({
      config: cfg.value,
      binary: "v1",
      skipHeights: [],
      fs: new HostFs(),
      sync: false,
    });
    if (!o.ok || o.value.kind !== "running") throw new Error("open");
    const chain = o.value.chain;
    const gw = Gateway.create(chain.queryBackend(), { cors: false, swagger: false, json: NODE_JSON });
    if (!gw.ok) throw new Error(gw.error);
    const rest = devnetRest(gw.value, chain);
    const req = (method: string, target: string, body = "", limit = 1 << 20) =>
      rest.handle({
        method,
        target,
        rawHeaders: [],
        readBody: async () => (body.length > limit ? { ok: false, error: "too-large" } : { ok: true, value: body }),
      });
    const get = async (target: string) => {
      const r = await req("GET", target);
      return { status: r.status, body: JSON.parse(r.body) };
    };
    chain.produceBlock(1_800_000_000_000);
    await chain.flush();
    const val1 = loadKey(home, "val1");
    if (!val1.ok) throw new Error("key");
    expect(await get(`/chain/auth/v1beta1/accounts/${val1.value.address}`)).toEqual({
      status: 200,
      body: {
        account: {
          "@type": "/chain.auth.v1beta1.BaseAccount",
          address: val1.value.address,
          pub_key: null,
          account_number: "0",
          sequence: "0",
        },
      },
    });
    const nobody = "chain1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqxp55vg";
    expect(await get(`/chain/auth/v1beta1/accounts/${nobody}`)).toEqual({
      status: 404,
      body: { code: 5, message: `account ${nobody} not found`, details: [] },
    });
    expect((await get(`/chain/bank/v1beta1/balances/${val1.value.address}`)).body).toEqual({
      balances: [{ denom: "stake", amount: "1000000000000" }],
      pagination: { next_key: null, total: "1" },
    });
    const tx = signTx(val1.value, { chainId: "r", accountNumber: 0n, sequence: 0n, msg: voteMsg(val1.value.address) });
    const body = JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_SYNC" });
    const posted = JSON.parse((await req("POST", "/chain/tx/v1beta1/txs", body)).body).tx_response;
    expect(posted).toEqual({
      height: "0",
      txhash: expect.stringMatching(/^[0-9A-F]{64}$/),
      codespace: "",
      code: 0,
      data: "",
      raw_log: "",
      logs: [],
      info: "",
      gas_wanted: "0",
      gas_used: "0",
      tx: null,
      timestamp: "",
      events: [],
    });
    // The same bytes again: the mempool cache's error as the SDK reports it (code 19).
    const again = JSON.parse((await req("POST", "/chain/tx/v1beta1/txs", body)).body).tx_response;
    expect(again).toMatchObject({ code: 19, codespace: "sdk", txhash: posted.txhash });
    // Repeated keys decode as the reference's gateway does: the last occurrence wins, and the proto name beats its
    // JSON name whatever the order. Code 19 shows the signed bytes were read; 400 shows the empty ones were.
    const good = JSON.stringify(Buffer.from(tx).toString("base64"));
    const post = async (text: string) => {
      const r = await req("POST", "/chain/tx/v1beta1/txs", text);
      return r.status === 200 ? JSON.parse(r.body).tx_response.code : JSON.parse(r.body).message;
    };
    expect(await post(`{"tx_bytes":"","tx_bytes":${good},"mode":"BROADCAST_MODE_SYNC"}`)).toBe(19);
    expect(await post(`{"tx_bytes":${good},"tx_bytes":"","mode":"BROADCAST_MODE_SYNC"}`)).toBe("invalid empty tx");
    expect(await post(`{"txBytes":"","tx_bytes":${good},"mode":"BROADCAST_MODE_SYNC"}`)).toBe(19);
    expect(await post(`{"tx_bytes":${good},"txBytes":"","mode":"BROADCAST_MODE_SYNC"}`)).toBe(19);
    const badMode = await req("POST", "/chain/tx/v1beta1/txs", body.replace("SYNC", "BLOCK"));
    expect(JSON.parse(badMode.body).message).toBe(
      "codespace sdk code 18: invalid request: unsupported return type BROADCAST_MODE_BLOCK; supported types: sync, async",
    );
    expect((await req("POST", "/chain/tx/v1beta1/txs", "{")).status).toBe(400);
    expect(await get(`/chain/tx/v1beta1/txs/${posted.txhash}`)).toEqual({
      status: 404,
      body: { code: 5, message: `tx not found: ${posted.txhash}`, details: [] },
    });
    chain.produceBlock(1_800_000_001_000);
    await chain.flush();
    const got = await get(`/chain/tx/v1beta1/txs/${posted.txhash}`);
    expect(got.body.tx_response).toMatchObject({
      height: "2",
      code: 1,
      data: "",
      raw_log: expect.stringContaining("inactive proposal"),
      tx: { "@type": "/chain.tx.v1beta1.Tx", body: { messages: [{ "@type": "/chain.gov.v1.MsgVote" }] } },
    });
    expect(got.body.tx.auth_info.signer_infos[0].public_key["@type"]).toBe("/chain.crypto.secp256k1.PubKey");
    const account = (await get(`/chain/auth/v1beta1/accounts/${val1.value.address}`)).body.account;
    expect(account.sequence).toBe("1");
    expect(account.pub_key).toEqual({
      "@type": "/chain.crypto.secp256k1.PubKey",
      key: Buffer.from(val1.value.pubkey).toString("base64"),
    });
    expect((await get("/chain/devnet/v1/block_meta/2")).body.num_txs).toBe("1");
    expect((await get("/chain/devnet/v1/block_meta/3")).status).toBe(404);
    expect((await get("/chain/devnet/v1/status")).body).toMatchObject({
      chain_id: "r",
      binary: "v1",
      latest_block_height: "2",
    });
    const big = await req("POST", "/chain/tx/v1beta1/txs", "x".repeat(100), 10);
    expect(big.status).toBe(413);
    // Everything else is the gateway's.
    expect((await get("/chain/upgrade/v1beta1/current_plan")).body).toEqual({ plan: null });
    expect(
      rest.handleWithoutBody({ method: "GET", target: "/chain/upgrade/v1beta1/current_plan", rawHeaders: [] })?.status,
    ).toBe(200);
    expect(rest.handleWithoutBody({ method: "POST", target: "/chain/tx/v1beta1/txs", rawHeaders: [] })).toBeUndefined();
    await chain.close();
  });
});
