import { rmSync } from "node:fs";
import { fromBinary } from "@bufbuild/protobuf";
import { afterAll, describe, expect, it } from "vitest";
import { openTestChain, upgradeProposalMsg, voteMsg } from "../../test/kit/devnet.js";
import { RpcHandler } from "../api/rpc/handler.js";
import { TxMsgDataSchema } from "../gen/chain/base/abci/v1beta1/abci_pb.js";
import { MsgSubmitProposalResponseSchema } from "../gen/chain/gov/v1/tx_pb.js";
import { loadKey } from "./keyring.js";
import { devnetRpcSource } from "./rpc-source.js";
import { signTx } from "./tx.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function setup() {
  const { home, cfg, chain } = await openTestChain("r", dirs);
  const rpc = new RpcHandler(devnetRpcSource(chain, cfg, chain.queryBackend()));
  const val1 = loadKey(home, "val1");
  if (!val1.ok) throw new Error("key");
  return { chain, rpc, val1: val1.value };
}

type Rpc = RpcHandler;
const call = async (rpc: Rpc, method: string, params: unknown = {}) => {
  const r = await rpc.handle({
    method: "POST",
    target: "/",
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  return { status: r.status, body: JSON.parse(r.body) };
};
const get = async (rpc: Rpc, target: string) => {
  const r = await rpc.handle({ method: "GET", target, body: "" });
  return { status: r.status, body: r.contentType.includes("json") ? JSON.parse(r.body) : r.body };
};

describe("CometBFT RPC over a devnet node", () => {
  it("serves blocks, heights' errors, broadcasts, tx and tx_search, block_results and abci_query", async () => {
    const { chain, rpc, val1 } = await setup();
    let t = 1_800_000_000_000;
    const block = async () => {
      chain.produceBlock((t += 1000));
      await chain.flush();
    };
    await block();
    await block();
    expect((await call(rpc, "health")).body).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
    const b = (await call(rpc, "block", { height: "2" })).body.result;
    expect(b.block.header).toMatchObject({ height: "2", chain_id: "r", version: { block: "11", app: "0" } });
    expect(b.block.last_commit.height).toBe("1");
    expect(b.block.data.txs).toBeNull();
    expect((await call(rpc, "block", { height: "1" })).body.result.block.last_commit.block_id.hash).toBe("");
    expect((await call(rpc, "block", { height: "3" })).body.error).toEqual({
      code: -32603,
      message: "Internal error",
      data: "height 3 must be less than or equal to the current blockchain height 2",
    });
    expect((await call(rpc, "block", { height: "0" })).body.error.data).toBe(
      "height must be greater than 0, but got 0",
    );
    expect((await call(rpc, "block", { height: "x" })).body.error).toMatchObject({
      code: -32602,
      message: "Invalid params",
      data: expect.stringMatching(/^error converting json params to arguments: /),
    });
    const byHash = await call(rpc, "block_by_hash", { hash: Buffer.from(b.block_id.hash, "hex").toString("base64") });
    expect(byHash.body.result.block.header.height).toBe("2");

    // broadcast_tx_sync, then the tx appears in a block, in tx, tx_search and block_results.
    const proposal = upgradeProposalMsg(val1.address, { name: "v2", height: 100n });
    const tx = signTx(val1, { chainId: "r", accountNumber: 0n, sequence: 0n, msg: proposal });
    const sent = (await call(rpc, "broadcast_tx_sync", { tx: Buffer.from(tx).toString("base64") })).body.result;
    expect(sent).toEqual({ code: 0, data: "", log: "", codespace: "", hash: expect.stringMatching(/^[0-9A-F]{64}$/) });
    expect((await call(rpc, "num_unconfirmed_txs")).body.result).toMatchObject({ n_txs: "1", total: "1" });
    const again = await call(rpc, "broadcast_tx_sync", { tx: Buffer.from(tx).toString("base64") });
    expect(again.body.error).toEqual({ code: -32603, message: "Internal error", data: "tx already exists in cache" });
    const replay = signTx(val1, { chainId: "r", accountNumber: 0n, sequence: 0n, msg: voteMsg(val1.address, 2n) });
    const rejected = (await call(rpc, "broadcast_tx_sync", { tx: Buffer.from(replay).toString("base64") })).body.result;
    expect(rejected).toMatchObject({
      code: 32,
      codespace: "sdk",
      log: "account sequence mismatch, expected 1, got 0: incorrect account sequence",
    });
    const garbage = (await call(rpc, "broadcast_tx_sync", { tx: "AAEC" })).body.result;
    expect(garbage).toMatchObject({ code: 2, codespace: "sdk" });
    await block();
    const got = (await call(rpc, "tx", { hash: Buffer.from(sent.hash, "hex").toString("base64") })).body.result;
    expect(got).toMatchObject({ hash: sent.hash, height: "3", index: 0, tx: Buffer.from(tx).toString("base64") });
    expect(got.tx_result).toMatchObject({ code: 0, gas_wanted: "200000" });
    // data: the TxMsgData of the reference's BaseApp, whose response carries the new proposal's id.
    const data = fromBinary(TxMsgDataSchema, Buffer.from(got.tx_result.data, "base64"));
    expect(data.msgResponses[0]).toMatchObject({ typeUrl: "/chain.gov.v1.MsgSubmitProposalResponse" });
    expect(fromBinary(MsgSubmitProposalResponseSchema, data.msgResponses[0]!.value).proposalId).toBe(1n);
    const unknown = await call(rpc, "tx", { hash: Buffer.alloc(32).toString("base64") });
    expect(unknown.body.error.data).toBe(`tx (${"00".repeat(32)}) not found`);
    const search = await call(rpc, "tx_search", { query: "message.action='/chain.gov.v1.MsgSubmitProposal'" });
    expect(search.body.result).toMatchObject({ total_count: "1", txs: [{ hash: sent.hash }] });
    expect((await call(rpc, "tx_search", { query: "tx.height=2" })).body.result).toEqual({ txs: [], total_count: "0" });
    expect(
      (await call(rpc, "tx_search", { query: `tx.height=3 AND tx.hash='${sent.hash}'` })).body.result.total_count,
    ).toBe("1");
    expect((await call(rpc, "tx_search", { query: "tx.height=3", page: "2" })).body.error.data).toBe(
      "page should be within [1, 1] range, given 2",
    );
    const results = (await call(rpc, "block_results", { height: "3" })).body.result;
    expect(results.txs_results).toHaveLength(1);
    expect(results.txs_results[0].events.map((e: { type: string }) => e.type)).toEqual([
      "tx",
      "tx",
      "tx",
      "message",
      "submit_proposal",
    ]);
    // A failed message keeps only the ante handler's events (as the reference), so message.action misses it.
    const vote = signTx(val1, { chainId: "r", accountNumber: 0n, sequence: 1n, msg: voteMsg(val1.address, 9n) });
    expect((await call(rpc, "broadcast_tx_sync", { tx: Buffer.from(vote).toString("base64") })).body.result.code).toBe(
      0,
    );
    await block();
    expect(
      (await call(rpc, "tx_search", { query: "message.action='/chain.gov.v1.MsgVote'" })).body.result.total_count,
    ).toBe("0");
    expect(
      (await call(rpc, "tx_search", { query: "tx.height>=3", order_by: "desc" })).body.result.txs.map(
        (x: { height: string }) => x.height,
      ),
    ).toEqual(["4", "3"]);

    // abci_query: the gRPC method's path and request bytes, on the query services' code path.
    const q = (await get(rpc, '/abci_query?path="/chain.upgrade.v1beta1.Query/CurrentPlan"')).body;
    expect(q.result.response).toMatchObject({ code: 0, value: null, height: "4" });
    const future = (
      await call(rpc, "abci_query", { path: "/chain.upgrade.v1beta1.Query/CurrentPlan", data: "", height: "9" })
    ).body.result.response;
    expect(future).toMatchObject({
      code: 26,
      codespace: "sdk",
      log: "cannot query with height in the future; please provide a valid height: invalid height",
    });
    const missing = (await call(rpc, "abci_query", { path: "/chain.gov.v1.Query/Proposal", data: "0805" })).body.result
      .response;
    expect(missing).toMatchObject({ code: 22, log: expect.stringMatching(/^rpc error: code = NotFound desc = /) });
    expect((await call(rpc, "abci_query", { path: "/nope", data: "" })).body.result.response).toMatchObject({
      code: 6,
      log: "unknown query path: unknown request",
    });
    await chain.close();
  });

  it("answers malformed JSON-RPC with its error codes and keeps serving", async () => {
    const { chain, rpc } = await setup();
    const raw = async (body: string, target = "/") => {
      const r = await rpc.handle({ method: "POST", target, body });
      return { status: r.status, body: r.body === "" ? "" : JSON.parse(r.body) };
    };
    expect(await raw("{")).toMatchObject({ status: 500, body: { error: { code: -32700, message: "Parse error" } } });
    expect((await raw("1")).body.error.code).toBe(-32700);
    expect((await raw('{"jsonrpc":"2.0","id":{},"method":"health"}')).body.error.code).toBe(-32700);
    expect((await raw('{"jsonrpc":"2.0","id":1,"method":"nope"}')).body).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32601, message: "Method not found" },
    });
    expect((await raw('{"jsonrpc":"2.0","id":1,"method":"health"}', "/x")).body.error).toEqual({
      code: -32600,
      message: "Invalid Request",
      data: "path /x is invalid",
    });
    expect((await raw('{"jsonrpc":"2.0","id":1,"method":"block","params":[1,2]}')).body.error.code).toBe(-32602);
    expect(await raw('{"jsonrpc":"2.0","method":"health"}')).toEqual({ status: 200, body: "" });
    // A repeated key: the last one wins, as Go's encoding/json decodes CometBFT's RPCRequest.
    expect((await raw('{"jsonrpc":"2.0","id":1,"method":"nope","method":"health"}')).body).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {},
    });
    expect((await raw('{"jsonrpc":"2.0","id":1,"method":"health","method":"nope"}')).body.error.code).toBe(-32601);
    const batch = await raw('[{"jsonrpc":"2.0","id":1,"method":"health"},{"jsonrpc":"2.0","id":"b","method":"nope"}]');
    expect(batch.body.map((r: { id: unknown }) => r.id)).toEqual([1, "b"]);
    expect((await get(rpc, "/block?height=abc")).status).toBe(500);
    expect((await get(rpc, "/abci_query?path=/unquoted")).body.error.code).toBe(-32602);
    expect((await get(rpc, "/nope")).status).toBe(404);
    expect((await get(rpc, "/health")).body).toEqual({ jsonrpc: "2.0", id: -1, result: {} });
    await chain.close();
  });

  it("broadcast_tx_commit answers the delivered result, whose data carries the message responses", async () => {
    const { chain, rpc, val1 } = await setup();
    let t = 1_800_000_000_000;
    const block = async () => {
      chain.produceBlock((t += 1000));
      await chain.flush();
    };
    await block();
    const proposal = upgradeProposalMsg(val1.address, { name: "v2", height: 100n });
    const tx = signTx(val1, { chainId: "r", accountNumber: 0n, sequence: 0n, msg: proposal });
    const committed = call(rpc, "broadcast_tx_commit", { tx: Buffer.from(tx).toString("base64") });
    for (let i = 0; i < 50 && chain.blocks.height < 2; i++) {
      await new Promise((r) => setTimeout(r, 10));
      if (chain.mempoolSize > 0) await block();
    }
    const r = (await committed).body.result;
    expect(r).toMatchObject({ check_tx: { code: 0 }, tx_result: { code: 0 }, height: "2" });
    const data = fromBinary(TxMsgDataSchema, Buffer.from(r.tx_result.data, "base64"));
    expect(data.msgResponses.map((a) => a.typeUrl)).toEqual(["/chain.gov.v1.MsgSubmitProposalResponse"]);
    expect(fromBinary(MsgSubmitProposalResponseSchema, data.msgResponses[0]!.value).proposalId).toBe(1n);
    await chain.close();
  });
});
