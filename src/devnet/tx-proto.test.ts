import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { type Any, AnySchema } from "@bufbuild/protobuf/wkt";
import { BaseAccount as CjsBaseAccount } from "cosmjs-types/cosmos/auth/v1beta1/auth";
import { TxResponse as CjsTxResponse } from "cosmjs-types/cosmos/base/abci/v1beta1/abci";
import { BroadcastTxRequest as CjsBroadcastTxRequest } from "cosmjs-types/cosmos/tx/v1beta1/service";
import {
  AuthInfo as CjsAuthInfo,
  SignDoc as CjsSignDoc,
  TxBody as CjsTxBody,
  TxRaw as CjsTxRaw,
} from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { describe, expect, it } from "vitest";
import { BaseAccountSchema } from "../gen/chain/auth/v1beta1/auth_pb.js";
import { TxResponseSchema } from "../gen/chain/base/abci/v1beta1/abci_pb.js";
import { PubKeySchema } from "../gen/chain/crypto/secp256k1/keys_pb.js";
import { MsgVoteSchema } from "../gen/chain/gov/v1/tx_pb.js";
import { SignMode } from "../gen/chain/tx/signing/v1beta1/signing_pb.js";
import { BroadcastMode, BroadcastTxRequestSchema } from "../gen/chain/tx/v1beta1/service_pb.js";
import { AuthInfoSchema, SignDocSchema, TxBodySchema, TxRawSchema } from "../gen/chain/tx/v1beta1/tx_pb.js";

/**
 * The vendored tx, auth, crypto and abci protos keep the reference's field numbers: every message encoded here is
 * decoded by cosmjs-types (generated from the reference protos) to the same fields and re-encodes byte-identically.
 */
const pubkey = new Uint8Array(33).fill(2);
/** The SDK's Any: type URL `/` + full name (not protobuf-es's `type.googleapis.com/` default). */
const anyPack = <D extends DescMessage>(schema: D, m: MessageShape<D>): Any =>
  create(AnySchema, { typeUrl: `/${schema.typeName}`, value: toBinary(schema, m) });

describe("vendored protos are wire-compatible with cosmjs-types", () => {
  it("TxBody, AuthInfo, SignDoc and TxRaw", () => {
    const vote = create(MsgVoteSchema, { proposalId: 7n, voter: "chain1voter", option: 1, metadata: "m" });
    const body = toBinary(
      TxBodySchema,
      create(TxBodySchema, {
        messages: [anyPack(MsgVoteSchema, vote)],
        memo: "note",
        timeoutHeight: 99n,
        unordered: true,
      }),
    );
    const cjsBody = CjsTxBody.decode(body);
    expect(cjsBody.memo).toBe("note");
    expect(cjsBody.timeoutHeight).toBe(99n);
    expect(cjsBody.unordered).toBe(true);
    expect(cjsBody.messages[0]!.typeUrl).toBe("/chain.gov.v1.MsgVote");
    expect(CjsTxBody.encode(cjsBody).finish()).toEqual(body);

    const authInfo = toBinary(
      AuthInfoSchema,
      create(AuthInfoSchema, {
        signerInfos: [
          {
            publicKey: anyPack(PubKeySchema, create(PubKeySchema, { key: pubkey })),
            modeInfo: { sum: { case: "single", value: { mode: SignMode.DIRECT } } },
            sequence: 3n,
          },
        ],
        fee: { amount: [{ denom: "stake", amount: "5" }], gasLimit: 200000n, payer: "", granter: "" },
      }),
    );
    const cjsAuth = CjsAuthInfo.decode(authInfo);
    expect(cjsAuth.signerInfos[0]!.publicKey!.typeUrl).toBe("/chain.crypto.secp256k1.PubKey");
    expect(cjsAuth.signerInfos[0]!.modeInfo!.single!.mode).toBe(1);
    expect(cjsAuth.signerInfos[0]!.sequence).toBe(3n);
    expect(cjsAuth.fee!.gasLimit).toBe(200000n);
    expect(CjsAuthInfo.encode(cjsAuth).finish()).toEqual(authInfo);

    const signDoc = toBinary(
      SignDocSchema,
      create(SignDocSchema, { bodyBytes: body, authInfoBytes: authInfo, chainId: "c", accountNumber: 4n }),
    );
    expect(CjsSignDoc.encode(CjsSignDoc.decode(signDoc)).finish()).toEqual(signDoc);
    expect(CjsSignDoc.decode(signDoc).accountNumber).toBe(4n);

    const raw = toBinary(
      TxRawSchema,
      create(TxRawSchema, { bodyBytes: body, authInfoBytes: authInfo, signatures: [new Uint8Array(64)] }),
    );
    expect(CjsTxRaw.encode(CjsTxRaw.decode(raw)).finish()).toEqual(raw);
    expect(fromBinary(TxRawSchema, CjsTxRaw.encode(CjsTxRaw.decode(raw)).finish()).signatures).toHaveLength(1);
  });

  it("BaseAccount, TxResponse and BroadcastTxRequest", () => {
    const acc = toBinary(
      BaseAccountSchema,
      create(BaseAccountSchema, {
        address: "chain1x",
        pubKey: anyPack(PubKeySchema, create(PubKeySchema, { key: pubkey })),
        accountNumber: 2n,
        sequence: 9n,
      }),
    );
    const cjs = CjsBaseAccount.decode(acc);
    expect([cjs.address, cjs.accountNumber, cjs.sequence]).toEqual(["chain1x", 2n, 9n]);
    expect(CjsBaseAccount.encode(cjs).finish()).toEqual(acc);

    const res = toBinary(
      TxResponseSchema,
      create(TxResponseSchema, {
        height: 5n,
        txhash: "AB",
        codespace: "sdk",
        code: 32,
        rawLog: "log",
        gasWanted: 10n,
        gasUsed: 3n,
        timestamp: "t",
        events: [{ type: "tx", attributes: [{ key: "k", value: "v", index: true }] }],
      }),
    );
    const r = CjsTxResponse.decode(res);
    expect([r.height, r.txhash, r.code, r.rawLog, r.gasUsed]).toEqual([5n, "AB", 32, "log", 3n]);
    expect(r.events[0]!.attributes[0]).toEqual({ key: "k", value: "v", index: true });
    expect(CjsTxResponse.encode(r).finish()).toEqual(res);

    const req = toBinary(
      BroadcastTxRequestSchema,
      create(BroadcastTxRequestSchema, { txBytes: Uint8Array.of(1, 2), mode: BroadcastMode.SYNC }),
    );
    expect(CjsBroadcastTxRequest.decode(req).mode).toBe(2);
  });
});
