import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { promisify } from "node:util";
import { fromBinary } from "@bufbuild/protobuf";
import { afterAll, describe, expect, it } from "vitest";
import { loopbackConfig } from "../../test/kit/api.js";
import { openTestChain, upgradeProposalMsg } from "../../test/kit/devnet.js";
import { NODE_JSON } from "../api/node-backend.js";
import { TxMsgDataSchema } from "../gen/chain/base/abci/v1beta1/abci_pb.js";
import { MsgSubmitProposalResponseSchema } from "../gen/chain/gov/v1/tx_pb.js";
import { startApiServers } from "../server/server.js";
import { loadKey } from "./keyring.js";
import { signTx } from "./tx.js";

// docs/node-api.md §5: buf curl (the pinned @bufbuild/buf) prints, through server reflection alone, the devnet's
// answers that hold an Any: an auth Account (BaseAccount, its secp256k1 PubKey) and a GetTx (the Tx and its messages).
const run = promisify(execFile);
const curl = (...args: string[]) =>
  run("node_modules/.bin/buf", ["curl", "--protocol", "grpc", "--http2-prior-knowledge", ...args], { timeout: 30_000 });

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("buf curl against a devnet node", () => {
  it("prints an auth Account and a GetTx response through reflection", async () => {
    const { home, chain } = await openTestChain("bc", dirs);
    const val1 = loadKey(home, "val1");
    if (!val1.ok) throw new Error(val1.error);
    chain.produceBlock(1_800_000_000_000);
    const msg = upgradeProposalMsg(val1.value.address, { name: "v2", height: 100n });
    const checked = chain.checkTx(signTx(val1.value, { chainId: "bc", accountNumber: 0n, sequence: 0n, msg }));
    chain.produceBlock(1_800_000_001_000);
    await chain.flush();
    const r = await startApiServers(loopbackConfig(), chain.queryBackend(), { json: NODE_JSON });
    if (!r.ok) throw new Error(r.error.message);
    const base = `http://${r.value.grpcAddress}`;
    try {
      const account = await curl(
        "-d",
        JSON.stringify({ address: val1.value.address }),
        `${base}/chain.auth.v1beta1.Query/Account`,
      );
      expect(JSON.parse(account.stdout).account).toMatchObject({
        "@type": "/chain.auth.v1beta1.BaseAccount",
        address: val1.value.address,
        pubKey: { "@type": "/chain.crypto.secp256k1.PubKey" },
        sequence: "1",
      });
      const got = await curl("-d", JSON.stringify({ hash: checked.hash }), `${base}/chain.tx.v1beta1.Service/GetTx`);
      const body = JSON.parse(got.stdout);
      expect(body.tx.body.messages[0]).toMatchObject({
        "@type": "/chain.gov.v1.MsgSubmitProposal",
        messages: [{ "@type": "/chain.upgrade.v1beta1.MsgSoftwareUpgrade", plan: { name: "v2", height: "100" } }],
      });
      expect(body.txResponse.tx["@type"]).toBe("/chain.tx.v1beta1.Tx");
      expect(body.txResponse.data).toMatch(/^[0-9A-F]+$/);
      // data: the hex of TxMsgData, whose response carries the new proposal's id (as the reference's GetTx).
      const data = fromBinary(TxMsgDataSchema, Buffer.from(body.txResponse.data, "hex"));
      expect(data.msgResponses.map((a) => a.typeUrl)).toEqual(["/chain.gov.v1.MsgSubmitProposalResponse"]);
      expect(fromBinary(MsgSubmitProposalResponseSchema, data.msgResponses[0]!.value).proposalId).toBe(1n);
    } finally {
      await r.value.close();
      await chain.close();
    }
  });
});
