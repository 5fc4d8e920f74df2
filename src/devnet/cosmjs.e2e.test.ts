import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DirectSecp256k1HdWallet,
  type GeneratedType,
  makeAuthInfoBytes,
  makeSignDoc,
  Registry,
} from "@cosmjs/proto-signing";
import { assertIsDeliverTxSuccess, createProtobufRpcClient, QueryClient, StargateClient } from "@cosmjs/stargate";
import { connectComet } from "@cosmjs/tendermint-rpc";
import { BaseAccount } from "cosmjs-types/cosmos/auth/v1beta1/auth";
import { QueryClientImpl as AuthQuery } from "cosmjs-types/cosmos/auth/v1beta1/query";
import { ServiceClientImpl as CometService } from "cosmjs-types/cosmos/base/tendermint/v1beta1/query";
import { PubKey } from "cosmjs-types/cosmos/crypto/secp256k1/keys";
import { VoteOption } from "cosmjs-types/cosmos/gov/v1/gov";
import { MsgSubmitProposal, MsgSubmitProposalResponse, MsgVote } from "cosmjs-types/cosmos/gov/v1/tx";
import { TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { QueryClientImpl as UpgradeQuery } from "cosmjs-types/cosmos/upgrade/v1beta1/query";
import { MsgCancelUpgrade, MsgSoftwareUpgrade } from "cosmjs-types/cosmos/upgrade/v1beta1/tx";
import { afterAll, describe, expect, it } from "vitest";
import { bundleCli, exited, freePort, runCli, spawnCli, VISOR_ENV_GRACEFUL, waitFor } from "../../test/kit/devnet.js";
import { govAuthority } from "../core/address.js";

/**
 * cosmjs as the acceptance client of the devnet: real processes on loopback (`chainsim visor` running `chainsim
 * start`), and only cosmjs and cosmjs-types on the client side, configured for this chain's names as any chain with
 * its own type names configures them: the `chain` bech32 prefix, a Registry of `/chain.*` type URLs over cosmjs-types'
 * generated codecs (same field numbers), the `/chain.crypto.secp256k1.PubKey` type URL for the signer's key, and the
 * `chain.*` service names for cosmjs-types' query clients.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const registry = new Registry([
  ["/chain.gov.v1.MsgSubmitProposal", MsgSubmitProposal as GeneratedType],
  ["/chain.gov.v1.MsgVote", MsgVote as GeneratedType],
  ["/chain.upgrade.v1beta1.MsgSoftwareUpgrade", MsgSoftwareUpgrade as GeneratedType],
  ["/chain.upgrade.v1beta1.MsgCancelUpgrade", MsgCancelUpgrade as GeneratedType],
]);

/** cosmjs-types' query clients call `cosmos.*` services; this chain names them `chain.*`. */
type Rpc = ReturnType<typeof createProtobufRpcClient>;
const renamed = (rpc: Rpc, service: string): Rpc => ({
  request: (_service, method, data) => rpc.request(service, method, data),
});

describe("cosmjs drives the devnet through an upgrade (real processes)", () => {
  it("status, keys, abci_query plan, MsgSubmitProposal + MsgVote, halt, visor restart, applied plan; then a cancel", async () => {
    const cli = await bundleCli("main");
    const home = mkdtempSync(join(tmpdir(), "devnet-cosmjs-"));
    dirs.push(home);
    const [api, grpc, rpcPort] = [await freePort(), await freePort(), await freePort()];
    const rpcUrl = `http://127.0.0.1:${rpcPort}`;
    const chainId = "devnet-cosmjs";
    const init = await runCli(cli, [
      "init",
      "--home",
      home,
      "--chain-id",
      chainId,
      "--key-seed",
      "cosmjs",
      "--voting-period",
      "3s",
      "--api-address",
      `tcp://127.0.0.1:${api}`,
      "--grpc-address",
      `127.0.0.1:${grpc}`,
      "--rpc-address",
      `tcp://127.0.0.1:${rpcPort}`,
    ]);
    expect(init.code, init.output).toBe(0);
    const visor = spawnCli(
      cli,
      ["visor", "--home", home, "--", "--binary", "v1", "--block-time", "200ms"],
      VISOR_ENV_GRACEFUL,
    );
    try {
      // 1. Connect over CometBFT RPC and read status.
      const client = await waitFor(() => StargateClient.connect(rpcUrl), 30_000, "the RPC to answer");
      const comet = await connectComet(rpcUrl);
      const status = await comet.status();
      expect(status.nodeInfo.network).toBe(chainId);
      expect(status.nodeInfo.version).toBe("0.38.17");
      expect(await client.getChainId()).toBe(chainId);
      await waitFor(async () => ((await client.getHeight()) >= 2 ? true : undefined), 30_000, "height 2");

      // 2. Accounts from mnemonics: the same addresses as `chainsim keys show`.
      const walletOf = async (name: string) => {
        const mnemonic = JSON.parse(readFileSync(join(home, "keyring-test", `${name}.json`), "utf8")).mnemonic;
        const wallet = await DirectSecp256k1HdWallet.fromMnemonic(mnemonic, { prefix: "chain" });
        const [account] = await wallet.getAccounts();
        const shown = await runCli(cli, ["keys", "show", name, "-a", "--home", home]);
        expect(account!.address).toBe(shown.output.trim());
        return { wallet, account: account! };
      };
      const alice = await walletOf("alice");
      const val1 = await walletOf("val1");

      // 3. Queries through abci_query with cosmjs-types' clients given the chain.* service names.
      const rpc = createProtobufRpcClient(new QueryClient(comet));
      const upgrade = new UpgradeQuery(renamed(rpc, "chain.upgrade.v1beta1.Query"));
      const auth = new AuthQuery(renamed(rpc, "chain.auth.v1beta1.Query"));
      const cometService = new CometService(renamed(rpc, "chain.base.tendermint.v1beta1.Service"));
      expect((await upgrade.CurrentPlan({})).plan).toBeUndefined();

      // 4. Sign (SIGN_MODE_DIRECT) and broadcast with cosmjs's building blocks.
      const send = async (who: typeof alice, typeUrl: string, value: unknown) => {
        const any = (await auth.Account({ address: who.account.address })).account!;
        expect(any.typeUrl).toBe("/chain.auth.v1beta1.BaseAccount");
        const acc = BaseAccount.decode(any.value);
        const bodyBytes = registry.encodeTxBody({ messages: [{ typeUrl, value }], memo: "cosmjs" });
        const pubkey = {
          typeUrl: "/chain.crypto.secp256k1.PubKey",
          value: PubKey.encode({ key: who.account.pubkey }).finish(),
        };
        const authInfoBytes = makeAuthInfoBytes(
          [{ pubkey, sequence: acc.sequence }],
          [],
          200_000,
          undefined,
          undefined,
        );
        const signDoc = makeSignDoc(bodyBytes, authInfoBytes, chainId, Number(acc.accountNumber));
        const { signature } = await who.wallet.signDirect(who.account.address, signDoc);
        const tx = TxRaw.encode({
          bodyBytes,
          authInfoBytes,
          signatures: [Uint8Array.from(Buffer.from(signature.signature, "base64"))],
        }).finish();
        const res = await client.broadcastTx(tx, 20_000, 200);
        assertIsDeliverTxSuccess(res);
        return res;
      };
      const propose = async (inner: { typeUrl: string; value: Uint8Array }) => {
        const res = await send(alice, "/chain.gov.v1.MsgSubmitProposal", {
          messages: [inner],
          initialDeposit: [{ denom: "stake", amount: "10000000" }],
          proposer: alice.account.address,
          metadata: "",
          title: "cosmjs",
          summary: "driven by cosmjs",
          expedited: false,
        });
        const ev = res.events.find((e) => e.type === "submit_proposal")!;
        const id = BigInt(ev.attributes.find((a) => a.key === "proposal_id")!.value);
        // The tx result's data is the reference's TxMsgData: cosmjs reads the message responses from it.
        expect(res.msgResponses.map((r) => r.typeUrl)).toEqual(["/chain.gov.v1.MsgSubmitProposalResponse"]);
        expect(MsgSubmitProposalResponse.decode(res.msgResponses[0]!.value).proposalId).toBe(id);
        const indexed = await client.getTx(res.transactionHash);
        expect(indexed?.msgResponses[0]?.typeUrl).toBe("/chain.gov.v1.MsgSubmitProposalResponse");
        await send(val1, "/chain.gov.v1.MsgVote", {
          proposalId: id,
          voter: val1.account.address,
          option: VoteOption.VOTE_OPTION_YES,
          metadata: "",
        });
        return id;
      };

      // 5. An upgrade proposal; the plan is scheduled once the vote passes.
      const planHeight = (await client.getHeight()) + 45;
      const software = (name: string, height: number) => ({
        typeUrl: "/chain.upgrade.v1beta1.MsgSoftwareUpgrade",
        value: MsgSoftwareUpgrade.encode({
          authority: govAuthority(),
          // Go's zero time (0001-01-01), what gogoproto's stdtime writes: any other time is refused (deprecated).
          plan: { name, height: BigInt(height), info: "", time: { seconds: -62135596800n, nanos: 0 } },
        }).finish(),
      });
      await propose(software("v2", planHeight));
      const plan = await waitFor(
        async () => (await upgrade.CurrentPlan({})).plan ?? undefined,
        20_000,
        "the plan to be scheduled",
      );
      expect([plan.name, plan.height]).toEqual(["v2", BigInt(planHeight)]);

      // 6. Follow the blocks to the halt; the visor restarts the node with v2, which applies the plan.
      let seen = 0;
      await waitFor(
        async () => {
          const h = await client.getHeight();
          seen = Math.max(seen, h);
          return h >= planHeight ? h : undefined;
        },
        60_000,
        "blocks past the plan height",
      );
      expect(seen).toBeGreaterThanOrEqual(planHeight);
      const nodeInfo = await cometService.GetNodeInfo({});
      expect(nodeInfo.applicationVersion!.version).toBe("v2");
      expect(visor.output()).toContain(`UPGRADE "v2" NEEDED at height: ${planHeight}`);
      expect(visor.output()).toContain("INF upgrade binary switched binary=v2");

      // 7. applied_plan and the block at the applied height.
      expect((await upgrade.AppliedPlan({ name: "v2" })).height).toBe(BigInt(planHeight));
      const applied = await client.getBlock(planHeight);
      expect(applied.header.height).toBe(planHeight);
      expect(applied.header.chainId).toBe(chainId);
      expect((await upgrade.CurrentPlan({})).plan).toBeUndefined();

      // 8. The same client schedules a second plan and cancels it by a MsgCancelUpgrade proposal.
      const farHeight = (await client.getHeight()) + 500;
      await propose(software("v3", farHeight));
      await waitFor(async () => (await upgrade.CurrentPlan({})).plan?.name === "v3" || undefined, 20_000, "plan v3");
      await propose({
        typeUrl: "/chain.upgrade.v1beta1.MsgCancelUpgrade",
        value: MsgCancelUpgrade.encode({ authority: govAuthority() }).finish(),
      });
      await waitFor(
        async () => ((await upgrade.CurrentPlan({})).plan === undefined ? true : undefined),
        20_000,
        "the plan to be cancelled",
      );
      const votes = await client.searchTx(`message.action='/chain.gov.v1.MsgVote'`);
      expect(votes).toHaveLength(3);
      comet.disconnect();
      client.disconnect();
    } finally {
      visor.child.kill("SIGTERM");
      const code = await exited(visor.child);
      if (code !== 0) console.error(visor.output());
    }
  }, 150_000);
});
