import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
import {
  assertIsDeliverTxSuccess,
  createProtobufRpcClient,
  QueryClient,
  SigningStargateClient,
  StargateClient,
} from "@cosmjs/stargate";
import { connectComet } from "@cosmjs/tendermint-rpc";
import { VoteOption } from "cosmjs-types/cosmos/gov/v1/gov";
import { MsgSubmitProposalResponse } from "cosmjs-types/cosmos/gov/v1/tx";
import { QueryClientImpl as UpgradeQuery } from "cosmjs-types/cosmos/upgrade/v1beta1/query";
import { MsgSoftwareUpgrade } from "cosmjs-types/cosmos/upgrade/v1beta1/tx";
import { afterAll, describe, expect, it } from "vitest";
import { bundleCli, exited, freePort, runCli, spawnCli, VISOR_ENV_GRACEFUL, waitFor } from "../../test/kit/devnet.js";

/**
 * The `cosmos` wire namespace end to end (docs/node-api.md §0): a devnet initialised with `--namespace cosmos
 * --bech32-prefix cosmos`, run by `chainsim visor`, driven by cosmjs UNMODIFIED with `cosmos1…` addresses (an HD wallet
 * with prefix `cosmos`): `SigningStargateClient` with its default registry and account parser signs and broadcasts a
 * gov v1 `MsgSubmitProposal` carrying `MsgSoftwareUpgrade` (authority: the well-known x/gov module account
 * `cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn`) and a `MsgVote`;
 * `StargateClient` reads accounts, sequences and balances; cosmjs-types' own upgrade query client follows the plan
 * through the halt and the visor's swap; `buf curl` prints a gov Proposal, an auth Account and GetTx through
 * reflection. Real processes on loopback; generous waits (the machine is shared).
 */
const run = promisify(execFile);
/** The x/gov module account of every Cosmos SDK chain whose prefix is `cosmos` (bech32 of sha256("gov")[0:20]). */
const COSMOS_GOV_AUTHORITY = "cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn";
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const curl = (base: string, path: string, body?: string) =>
  run(
    "node_modules/.bin/buf",
    ["curl", "--protocol", "grpc", "--http2-prior-knowledge", ...(body === undefined ? [] : ["-d", body]), base + path],
    { timeout: 60_000 },
  ).then((r) => JSON.parse(r.stdout) as Record<string, unknown>);

describe("cosmos namespace: unmodified cosmjs and buf curl against a devnet (real processes)", () => {
  it("SigningStargateClient proposes an upgrade and votes; the chain halts and the visor applies it", async () => {
    const cli = await bundleCli("main");
    const home = mkdtempSync(join(tmpdir(), "devnet-cosmos-"));
    dirs.push(home);
    const [api, grpc, rpcPort] = [await freePort(), await freePort(), await freePort()];
    const rpcUrl = `http://127.0.0.1:${rpcPort}`;
    const chainId = "devnet-cosmos";
    const init = await runCli(cli, [
      ...["init", "--home", home, "--chain-id", chainId, "--key-seed", "cosmos-ns", "--namespace", "cosmos"],
      ...["--bech32-prefix", "cosmos"],
      ...["--voting-period", "8s", "--api-address", `tcp://127.0.0.1:${api}`, "--grpc-address", `127.0.0.1:${grpc}`],
      ...["--rpc-address", `tcp://127.0.0.1:${rpcPort}`],
    ]);
    expect(init.code, init.output).toBe(0);
    expect(readFileSync(join(home, "config", "app.toml"), "utf8")).toContain('namespace = "cosmos"');
    expect(JSON.parse(readFileSync(join(home, "config", "genesis.json"), "utf8")).chain.bech32Prefix).toBe("cosmos");
    const visor = spawnCli(
      cli,
      ["visor", "--home", home, "--", "--binary", "v1", "--block-time", "200ms"],
      VISOR_ENV_GRACEFUL,
    );
    try {
      const client = await waitFor(() => StargateClient.connect(rpcUrl), 60_000, "the RPC to answer");
      await waitFor(async () => ((await client.getHeight()) >= 2 ? true : undefined), 60_000, "height 2");
      const walletOf = async (name: string) => {
        const mnemonic = JSON.parse(readFileSync(join(home, "keyring-test", `${name}.json`), "utf8")).mnemonic;
        const wallet = await DirectSecp256k1HdWallet.fromMnemonic(mnemonic, { prefix: "cosmos" });
        return { wallet, address: (await wallet.getAccounts())[0]!.address };
      };
      const alice = await walletOf("alice");
      const val1 = await walletOf("val1");
      expect(alice.address).toMatch(/^cosmos1[02-9ac-hj-np-z]{38}$/);

      // 1. StargateClient's account and bank reads, default account parser.
      const account = await client.getAccount(alice.address);
      expect(account).toMatchObject({ address: alice.address, pubkey: null, sequence: 0 });
      expect(await client.getSequence(alice.address)).toEqual({
        accountNumber: account!.accountNumber,
        sequence: 0,
      });
      const stake = await client.getBalance(alice.address, "stake");
      expect(stake.denom).toBe("stake");
      expect(BigInt(stake.amount)).toBeGreaterThan(10_000_000n);
      expect(await client.getAllBalances(alice.address)).toContainEqual(stake);

      // 2. SigningStargateClient with its default registry: gov v1 MsgSubmitProposal(MsgSoftwareUpgrade), MsgVote.
      const fee = { amount: [], gas: "200000" };
      const signer = async (w: typeof alice) => SigningStargateClient.connectWithSigner(rpcUrl, w.wallet);
      const aliceClient = await signer(alice);
      const planHeight = (await client.getHeight()) + 90;
      const proposed = await aliceClient.signAndBroadcast(
        alice.address,
        [
          {
            typeUrl: "/cosmos.gov.v1.MsgSubmitProposal",
            value: {
              messages: [
                {
                  typeUrl: "/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade",
                  value: MsgSoftwareUpgrade.encode({
                    authority: COSMOS_GOV_AUTHORITY,
                    plan: {
                      name: "v2",
                      height: BigInt(planHeight),
                      info: "",
                      time: { seconds: -62135596800n, nanos: 0 },
                    },
                  }).finish(),
                },
              ],
              initialDeposit: [{ denom: "stake", amount: "10000000" }],
              proposer: alice.address,
              metadata: "",
              title: "cosmos names",
              summary: "unmodified cosmjs",
              expedited: false,
            },
          },
        ],
        fee,
        "cosmjs default registry",
      );
      assertIsDeliverTxSuccess(proposed);
      expect(proposed.msgResponses.map((r) => r.typeUrl)).toEqual(["/cosmos.gov.v1.MsgSubmitProposalResponse"]);
      const proposalId = MsgSubmitProposalResponse.decode(proposed.msgResponses[0]!.value).proposalId;
      expect(await client.getSequence(alice.address)).toMatchObject({ sequence: 1 });
      const fetched = await client.getAccount(alice.address);
      expect(fetched?.pubkey?.type).toBe("tendermint/PubKeySecp256k1");

      const voted = await (await signer(val1)).signAndBroadcast(
        val1.address,
        [
          {
            typeUrl: "/cosmos.gov.v1.MsgVote",
            value: { proposalId, voter: val1.address, option: VoteOption.VOTE_OPTION_YES, metadata: "" },
          },
        ],
        fee,
      );
      assertIsDeliverTxSuccess(voted);
      expect(await client.searchTx("message.action='/cosmos.gov.v1.MsgVote'")).toHaveLength(1);

      // 3. buf curl through reflection: gov Proposal, auth Account, GetTx, all in cosmos names.
      const base = `http://127.0.0.1:${grpc}`;
      const proposal = await curl(base, "/cosmos.gov.v1.Query/Proposal", `{"proposal_id":"${proposalId}"}`);
      expect(proposal.proposal).toMatchObject({ proposer: alice.address });
      expect((proposal.proposal as { messages: unknown[] }).messages[0]).toMatchObject({
        "@type": "/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade",
        authority: COSMOS_GOV_AUTHORITY,
        plan: { name: "v2", height: String(planHeight) },
      });
      expect(await curl(base, "/cosmos.upgrade.v1beta1.Query/Authority")).toEqual({ address: COSMOS_GOV_AUTHORITY });
      const acc = await curl(base, "/cosmos.auth.v1beta1.Query/Account", `{"address":"${alice.address}"}`);
      expect(acc.account).toMatchObject({
        "@type": "/cosmos.auth.v1beta1.BaseAccount",
        address: alice.address,
        pubKey: { "@type": "/cosmos.crypto.secp256k1.PubKey" },
      });
      const got = await curl(base, "/cosmos.tx.v1beta1.Service/GetTx", `{"hash":"${proposed.transactionHash}"}`);
      expect((got.tx as { body: { messages: unknown[] } }).body.messages[0]).toMatchObject({
        "@type": "/cosmos.gov.v1.MsgSubmitProposal",
        messages: [{ "@type": "/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade" }],
      });

      // 4. cosmjs-types' own upgrade query client (cosmos.upgrade.v1beta1.Query over abci_query) follows the plan.
      const comet = await connectComet(rpcUrl);
      const upgrade = new UpgradeQuery(createProtobufRpcClient(new QueryClient(comet)));
      const plan = await waitFor(async () => (await upgrade.CurrentPlan({})).plan, 90_000, "the plan to be scheduled");
      expect([plan.name, plan.height]).toEqual(["v2", BigInt(planHeight)]);
      await waitFor(
        async () => ((await upgrade.AppliedPlan({ name: "v2" })).height === BigInt(planHeight) ? true : undefined),
        150_000,
        "the visor to apply v2",
      );
      expect(visor.output()).toContain(`UPGRADE "v2" NEEDED at height: ${planHeight}`);
      expect((await upgrade.CurrentPlan({})).plan).toBeUndefined();
      // The REST gateway speaks the same names, height header included.
      const rest = await fetch(`http://127.0.0.1:${api}/cosmos/upgrade/v1beta1/applied_plan/v2`);
      expect(await rest.json()).toEqual({ height: String(planHeight) });
      expect(rest.headers.get("x-cosmos-block-height")).toMatch(/^[0-9]+$/);
      const balances = await fetch(`http://127.0.0.1:${api}/cosmos/bank/v1beta1/balances/${alice.address}`);
      expect(((await balances.json()) as { balances: { denom: string }[] }).balances.map((b) => b.denom)).toContain(
        "stake",
      );
      comet.disconnect();
      aliceClient.disconnect();
      client.disconnect();
    } finally {
      visor.child.kill("SIGTERM");
      const code = await exited(visor.child);
      if (code !== 0) console.error(visor.output());
    }
  }, 420_000);
});
