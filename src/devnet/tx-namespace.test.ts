import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { anyToWire } from "../api/wire.js";
import { govAuthority } from "../core/address.js";
import { errorText } from "../core/errors.js";
import { MsgSubmitProposalSchema } from "../gen/chain/gov/v1/tx_pb.js";
import { MsgSoftwareUpgradeSchema } from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import { keyFromSeed } from "./keyring.js";
import { decodeTx, packAny, signTx } from "./tx.js";

// The devnet's decoder reads the type URLs of its wire namespace only (docs/node-api.md §0.1): a `cosmos` node
// takes `/cosmos.gov.v1.MsgSubmitProposal` carrying `/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade`, and refuses the
// `chain` names, as a `chain` node refuses the `cosmos` ones.
const alice = keyFromSeed("alice", "alice-seed");
const proposal = packAny(
  MsgSubmitProposalSchema,
  create(MsgSubmitProposalSchema, {
    proposer: alice.address,
    initialDeposit: [{ denom: "stake", amount: "10" }],
    messages: [
      packAny(
        MsgSoftwareUpgradeSchema,
        create(MsgSoftwareUpgradeSchema, { authority: govAuthority(), plan: { name: "v2", height: 50n } }),
      ),
    ],
  }),
);
const draft = { chainId: "c", accountNumber: 0n, sequence: 0n };

describe("tx decoding by namespace", () => {
  it("cosmos: the wire's names decode, nested ones too; the message keeps the type URL it was sent with", () => {
    const wire = anyToWire(proposal, "cosmos");
    expect(wire.typeUrl).toBe("/cosmos.gov.v1.MsgSubmitProposal");
    const d = decodeTx(signTx(alice, { ...draft, msg: wire, namespace: "cosmos" }), "cosmos");
    if (!d.ok) throw new Error(errorText(d.error));
    expect(d.value.msgs[0]!.typeUrl).toBe("/cosmos.gov.v1.MsgSubmitProposal");
    expect(d.value.msgs[0]!.sim).toMatchObject({ kind: "submitProposal", messages: [{ kind: "softwareUpgrade" }] });
    expect(d.value.authInfo.signerInfos[0]!.publicKey!.typeUrl).toBe("/cosmos.crypto.secp256k1.PubKey");
  });

  it("each namespace refuses the other's names", () => {
    const chainTx = signTx(alice, { ...draft, msg: proposal });
    expect(decodeTx(chainTx, "chain").ok).toBe(true);
    const r = decodeTx(chainTx, "cosmos");
    expect(r.ok ? "" : errorText(r.error)).toBe(
      "unable to resolve type URL /chain.gov.v1.MsgSubmitProposal: tx parse error",
    );
    const cosmosTx = signTx(alice, { ...draft, msg: anyToWire(proposal, "cosmos"), namespace: "cosmos" });
    expect(decodeTx(cosmosTx, "chain").ok).toBe(false);
  });
});
