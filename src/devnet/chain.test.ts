import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, fromBinary } from "@bufbuild/protobuf";
import { AnySchema } from "@bufbuild/protobuf/wkt";
import { base64 } from "@scure/base";
import { afterEach, describe, expect, it } from "vitest";
import { upgradeProposalMsg, voteMsg } from "../../test/kit/devnet.js";
import { inProcessQuery } from "../api/in-process.js";
import { TxMsgDataSchema } from "../gen/chain/base/abci/v1beta1/abci_pb.js";
import { MsgSubmitProposalResponseSchema } from "../gen/chain/gov/v1/tx_pb.js";
import { HostFs } from "../node/host-fs.js";
import { DevnetChain } from "./chain.js";
import { readHome } from "./home.js";
import { initNode } from "./init.js";
import { loadKey } from "./keyring.js";
import { signTx } from "./tx.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function newHome(): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), "devnet-chain-"));
  dirs.push(home);
  const r = await initNode({
    home,
    chainId: "devnet-test",
    validators: 1,
    keySeed: "t",
    votingPeriod: "3s",
    depositPeriod: "3s",
  });
  if (!r.ok) throw new Error(r.error);
  return home;
}

async function open(home: string, binary: string) {
  const cfg = readHome(home);
  if (!cfg.ok) throw new Error(cfg.error.join("\n"));
  const r = await DevnetChain.open({ config: cfg.value, binary, skipHeights: [], fs: new HostFs(), sync: false });
  if (!r.ok) throw new Error(r.error);
  return r.value;
}
async function running(home: string, binary: string) {
  const o = await open(home, binary);
  if (o.kind !== "running") throw new Error(`halted: ${o.halt.message}`);
  return o.chain;
}

const T0 = 1_800_000_000_000;
const query = (c: DevnetChain, path: string) => {
  const r = inProcessQuery(c.queryBackend(), { path });
  if (!r.ok) throw new Error(r.error);
  return { status: r.value.status, body: JSON.parse(r.value.body) };
};

describe("DevnetChain", () => {
  it("advertises only what the node serves: no gRPC-Web in app.toml, an RPC address only while an RPC listener runs", async () => {
    const home = await newHome();
    const cfg = readHome(home);
    if (!cfg.ok) throw new Error(cfg.error.join("\n"));
    expect(cfg.value.app.grpcWebEnable).toBe(false);
    expect(readFileSync(join(home, "config", "app.toml"), "utf8")).toMatch(/\[grpc-web\][^[]*\nenable = false\n/);
    const c = await running(home, "v1");
    c.produceBlock(T0);
    await c.flush();
    const info = (b: ReturnType<DevnetChain["queryBackend"]>) => {
      const r = inProcessQuery(b, { path: "/chain/base/tendermint/v1beta1/node_info" });
      if (!r.ok) throw new Error(r.error);
      return JSON.parse(r.value.body).default_node_info.other;
    };
    expect(info(c.queryBackend())).toEqual({ tx_index: "on", rpc_address: "" });
    const listeners: { rpc?: string } = {};
    const backend = c.queryBackend(() => listeners);
    listeners.rpc = "tcp://127.0.0.1:36657";
    expect(info(backend).rpc_address).toBe("tcp://127.0.0.1:36657");
    await c.close();
  });

  it("runs a governance upgrade: proposal, vote, halt with upgrade-info.json, restart with v2 applies it", async () => {
    const home = await newHome();
    const val1 = loadKey(home, "val1");
    if (!val1.ok) throw new Error(val1.error);
    let c = await running(home, "v1");
    let t = T0;
    const block = () => c.produceBlock((t += 1000));
    expect(block()).toMatchObject({ kind: "committed", height: 1 });
    await c.flush();
    const planHeight = 8;
    const submit = upgradeProposalMsg(val1.value.address, { name: "v2", height: BigInt(planHeight) });
    const sign = (sequence: bigint, msg: typeof submit) =>
      signTx(val1.value, { chainId: "devnet-test", accountNumber: 0n, sequence, msg });
    const sub = c.checkTx(sign(0n, submit));
    expect(sub).toMatchObject({ kind: "checked", code: 0 });
    const v = c.checkTx(sign(1n, voteMsg(val1.value.address)));
    expect(v).toMatchObject({ kind: "checked", code: 0 });
    // The same bytes again are refused by the mempool's cache; a replayed sequence by the ante handler.
    expect(c.checkTx(sign(1n, voteMsg(val1.value.address)))).toMatchObject({
      kind: "mempool",
      message: "tx already exists in cache",
    });
    const replay = c.checkTx(sign(1n, voteMsg(val1.value.address, 1n, 3)));
    expect(replay).toMatchObject({
      code: 32,
      log: "account sequence mismatch, expected 2, got 1: incorrect account sequence",
    });
    expect(block()).toMatchObject({ kind: "committed", height: 2, numTxs: 2 });
    expect(c.txResult(sub.hash)).toBeUndefined(); // not durable yet
    await c.flush();
    expect(c.txResult(sub.hash)).toMatchObject({ code: 0, height: "2", proposal_id: "1" });
    // data: TxMsgData{msg_responses: [Any(MsgSubmitProposalResponse{proposal_id: 1})]}, as the reference's BaseApp.
    const data = fromBinary(TxMsgDataSchema, base64.decode(c.txResult(sub.hash)!.data!));
    expect(data.msgResponses.map((a) => a.typeUrl)).toEqual(["/chain.gov.v1.MsgSubmitProposalResponse"]);
    expect(fromBinary(MsgSubmitProposalResponseSchema, data.msgResponses[0]!.value).proposalId).toBe(1n);
    expect(fromBinary(TxMsgDataSchema, base64.decode(c.txResult(v.hash)!.data!)).msgResponses[0]!.typeUrl).toBe(
      "/chain.gov.v1.MsgVoteResponse",
    );
    expect(c.txResult(v.hash)).toMatchObject({ code: 0, height: "2" });
    expect(query(c, "/chain/gov/v1/proposals/1").body.proposal.status).toBe("PROPOSAL_STATUS_VOTING_PERIOD");
    for (let h = 3; h < planHeight; h++) {
      expect(block()).toMatchObject({ kind: "committed", height: h });
      await c.flush();
    }
    expect(query(c, "/chain/gov/v1/proposals/1").body.proposal.status).toBe("PROPOSAL_STATUS_PASSED");
    expect(query(c, "/chain/upgrade/v1beta1/current_plan").body.plan.name).toBe("v2");
    const halted = block();
    expect(halted).toEqual({
      kind: "halted",
      height: planHeight,
      halt: { kind: "upgrade-needed", message: `UPGRADE "v2" NEEDED at height: ${planHeight}: ` },
    });
    expect(readFileSync(join(home, "data", "upgrade-info.json"), "utf8")).toBe(
      `{"name":"v2","time":"0001-01-01T00:00:00Z","height":${planHeight}}`,
    );
    await c.close();

    // The old binary halts again at once; the new one applies the upgrade at the plan height.
    c = await running(home, "v1");
    expect(c.produceBlock((t += 1000)).kind).toBe("halted");
    await c.close();
    c = await running(home, "v2");
    expect(c.height).toBe(planHeight - 1);
    expect(c.produceBlock((t += 1000))).toMatchObject({ kind: "committed", height: planHeight, applied: "v2" });
    await c.flush();
    expect(query(c, "/chain/upgrade/v1beta1/applied_plan/v2").body).toEqual({ height: String(planHeight) });
    expect(query(c, "/chain/upgrade/v1beta1/current_plan").body).toEqual({ plan: null });
    await c.close();
  });

  it("refuses a proposal's plan that carries a time or a client state (Plan.ValidateBasic) instead of dropping them", async () => {
    const home = await newHome();
    const val1 = loadKey(home, "val1");
    if (!val1.ok) throw new Error(val1.error);
    const c = await running(home, "v1");
    let t = T0;
    c.produceBlock((t += 1000));
    const sign = (sequence: bigint, msg: ReturnType<typeof voteMsg>) =>
      signTx(val1.value, { chainId: "devnet-test", accountNumber: 0n, sequence, msg });
    const timed = upgradeProposalMsg(val1.value.address, { name: "v2", height: 100n, time: { seconds: 0n, nanos: 0 } });
    const client = upgradeProposalMsg(val1.value.address, {
      name: "v2",
      height: 100n,
      upgradedClientState: create(AnySchema, { typeUrl: "/chain.gov.v1.MsgVote" }),
    });
    expect(c.checkTx(sign(0n, timed))).toMatchObject({ code: 0 });
    expect(c.checkTx(sign(1n, client))).toMatchObject({ code: 0 });
    expect(c.checkTx(sign(2n, voteMsg(val1.value.address, 1n)))).toMatchObject({ code: 0 });
    expect(c.checkTx(sign(3n, voteMsg(val1.value.address, 2n)))).toMatchObject({ code: 0 });
    for (let i = 0; i < 6; i++) c.produceBlock((t += 1000));
    await c.flush();
    const proposal = (id: number) => query(c, `/chain/gov/v1/proposals/${id}`).body.proposal;
    expect(proposal(1)).toMatchObject({
      status: "PROPOSAL_STATUS_FAILED",
      failed_reason: "plan: time-based upgrades have been deprecated in the SDK: invalid request",
    });
    expect(proposal(2)).toMatchObject({
      status: "PROPOSAL_STATUS_FAILED",
      failed_reason: "plan: upgrade logic for IBC has been moved to the IBC module: invalid request",
    });
    expect(query(c, "/chain/upgrade/v1beta1/current_plan").body).toEqual({ plan: null });
    await c.close();
  });

  it("reopens at the last flushed block with the same app hashes, dropping unflushed ones", async () => {
    const home = await newHome();
    let c = await running(home, "v1");
    const hashes: string[] = [];
    for (let h = 1; h <= 5; h++) {
      const o = c.produceBlock(T0 + h * 1000);
      if (o.kind !== "committed") throw new Error("halt");
      hashes.push(o.appHash);
      if (h <= 4) await c.flush();
    }
    expect(c.height).toBe(5);
    expect(c.durableHeight).toBe(4);
    expect(query(c, "/chain/base/tendermint/v1beta1/blocks/latest").body.block.header.height).toBe("4");
    await c.close();
    c = await running(home, "v1");
    expect(c.height).toBe(4);
    expect(c.blocks.height).toBe(4);
    for (let h = 1; h <= 4; h++) expect(c.blocks.appHash(h)).toBe(hashes[h - 1]);
    const o = c.produceBlock(T0 + 5000);
    expect(o.kind === "committed" && o.appHash).toBe(hashes[4]);
    await c.close();
  });

  it("refuses an unknown binary and transactions before the first block", async () => {
    const home = await newHome();
    const cfg = readHome(home);
    if (!cfg.ok) throw new Error("cfg");
    const bad = await DevnetChain.open({ config: cfg.value, binary: "v9", skipHeights: [], fs: new HostFs() });
    expect(bad).toEqual({ ok: false, error: expect.stringMatching(/^unknown binary "v9" \(.*defines v1, v2\)$/) });
    const c = await running(home, "v1");
    const val1 = loadKey(home, "val1");
    if (!val1.ok) throw new Error("key");
    const r = c.checkTx(
      signTx(val1.value, { chainId: "devnet-test", accountNumber: 0n, sequence: 0n, msg: voteMsg(val1.value.address) }),
    );
    expect(r).toMatchObject({ code: 26, log: "chain is not ready; please wait for first block: invalid height" });
    expect(existsSync(join(home, "data", "application.db"))).toBe(true);
    await c.close();
  });
});
