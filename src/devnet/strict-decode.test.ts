import { create, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { StoreCtx } from "../app/context.js";
import { BankKeeper } from "../bank/keeper.js";
import { govAuthority } from "../core/address.js";
import { height, unixMs } from "../core/brand.js";
import { concat } from "../core/bytes.js";
import { errorText } from "../core/errors.js";
import { PubKeySchema } from "../gen/chain/crypto/secp256k1/keys_pb.js";
import { MsgSubmitProposalSchema, MsgVoteSchema } from "../gen/chain/gov/v1/tx_pb.js";
import { SignMode } from "../gen/chain/tx/signing/v1beta1/signing_pb.js";
import { AuthInfoSchema, TxBodySchema, TxRawSchema } from "../gen/chain/tx/v1beta1/tx_pb.js";
import { MsgSoftwareUpgradeSchema } from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import { PlanSchema } from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { MemMultiStore } from "../store/mem-multistore.js";
import { type AnteEnv, runAnte } from "./ante.js";
import { keyFromSeed, signBytes } from "./keyring.js";
import { decodeTx, packAny, signDocBytes, signTx } from "./tx.js";

// The reference: x/auth/tx/decoder.go, x/auth/tx/adr027.go and codec/unknownproto (Cosmos SDK v0.50).

const alice = keyFromSeed("alice", "alice-seed");
const CHAIN = "devnet-1";
const vote = packAny(MsgVoteSchema, create(MsgVoteSchema, { proposalId: 1n, voter: alice.address, option: 1 }));

const varint = (n: number): number[] => {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return out;
};
/** One length-delimited field; `pad` extra bytes make the length prefix longer than it needs to be. */
const field = (no: number, value: Uint8Array, pad = 0): Uint8Array => {
  const len = varint(value.length);
  if (pad > 0) {
    len[len.length - 1]! |= 0x80;
    for (let i = 1; i < pad; i++) len.push(0x80);
    len.push(0x00);
  }
  return Uint8Array.from([...varint((no << 3) | 2), ...len, ...value]);
};

const signed = signTx(alice, { chainId: CHAIN, accountNumber: 3n, sequence: 0n, msg: vote });
const parts = (() => {
  const r = decodeTx(signed);
  if (!r.ok) throw new Error(errorText(r.error));
  return r.value.raw;
})();
const text = (bytes: Uint8Array): string => {
  const r = decodeTx(bytes);
  return r.ok ? "ok" : errorText(r.error);
};

/** A tx whose body and auth info are given, signed by alice, so only the decoder can refuse it. */
function signedWith(bodyBytes: Uint8Array, authInfoBytes: Uint8Array): Uint8Array {
  const signature = signBytes(alice, signDocBytes(bodyBytes, authInfoBytes, CHAIN, 3n));
  return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes, authInfoBytes, signatures: [signature] }));
}
const body = (messages = [vote]) => toBinary(TxBodySchema, create(TxBodySchema, { messages }));
const authInfo = (fee = true, gasLimit = 200_000n, pubkeyExtra = new Uint8Array()) =>
  toBinary(
    AuthInfoSchema,
    create(AuthInfoSchema, {
      signerInfos: [
        {
          publicKey: {
            typeUrl: "/chain.crypto.secp256k1.PubKey",
            value: concat(toBinary(PubKeySchema, create(PubKeySchema, { key: alice.pubkey })), pubkeyExtra),
          },
          modeInfo: { sum: { case: "single", value: { mode: SignMode.DIRECT } } },
          sequence: 0n,
        },
      ],
      ...(fee ? { fee: { amount: [], gasLimit } } : {}),
    }),
  );

describe("ADR-027: one signed tx, one encoding", () => {
  it("refuses every re-encoding of a signed tx's TxRaw with the reference's text", () => {
    const [b, a, s] = [parts.bodyBytes, parts.authInfoBytes, parts.signatures[0]!];
    expect(text(signed)).toBe("ok");
    expect(text(concat(field(1, b), field(2, a), field(3, s)))).toBe("ok"); // the canonical form is the signed one
    const cases: [Uint8Array, string][] = [
      [concat(field(2, a), field(1, b), field(3, s)), "txRaw must follow ADR-027, got tagNum 1 after tagNum 2"],
      [concat(field(1, b), field(3, s), field(2, a)), "txRaw must follow ADR-027, got tagNum 2 after tagNum 3"],
      [
        concat(field(1, b, 1), field(2, a), field(3, s)),
        "length prefix varint for tagNum 1 is not as short as possible, read 2, only need 1",
      ],
      [
        concat(field(1, b), field(2, a, 2), field(3, s)),
        "length prefix varint for tagNum 2 is not as short as possible, read 3, only need 1",
      ],
      [
        concat(field(1, b), field(2, a), field(3, s, 1)),
        "length prefix varint for tagNum 3 is not as short as possible, read 2, only need 1",
      ],
      [concat(field(1, b), field(2, a), field(3, s), Uint8Array.of(0x20, 0x01)), "expected 2 wire type, got 0"],
      [
        concat(field(1, b), field(2, a), field(3, s), field(4, new Uint8Array())),
        'errUnknownField "*tx.TxRaw": {TagNum: 4, WireType: "bytes"}',
      ],
      [
        concat(field(1, b), field(2, a), field(3, s), field(1024, Uint8Array.of(1))),
        'errUnknownField "*tx.TxRaw": {TagNum: 1024, WireType: "bytes"}',
      ],
      [concat(field(1, b), field(2, a), field(3, s)).subarray(0, 40), "invalid length; unexpected EOF"],
    ];
    for (const [bytes, message] of cases) expect(text(bytes)).toBe(`${message}: tx parse error`);
  });

  it("accepts, as the reference does, a repeated body_bytes (the last wins) and an over-long tag: a second hash", () => {
    // rejectNonADR027TxRaw only refuses decreasing tag numbers, and protowire reads an over-long tag varint. The
    // reference wins over the issue's "exactly one hash": both re-encodings decode to the signed transaction.
    const [b, a, s] = [parts.bodyBytes, parts.authInfoBytes, parts.signatures[0]!];
    const repeated = decodeTx(concat(field(1, Uint8Array.of(9)), field(1, b), field(2, a), field(3, s)));
    expect(repeated.ok && repeated.value.raw.bodyBytes).toEqual(b);
    const longTag = concat(Uint8Array.of(0x8a, 0x00), field(1, b).subarray(1), field(2, a), field(3, s));
    expect(text(longTag)).toBe("ok");
  });
});

describe("unknown fields at every depth", () => {
  const unknownVarint = (no: number) => Uint8Array.from([...varint(no << 3), 1]);

  it("refuses critical unknown fields in the body, the auth info, Fee, SignerInfo, the Any and the packed message", () => {
    const bodyWith = (extra: Uint8Array) => signedWith(concat(body(), extra), authInfo());
    expect(text(bodyWith(unknownVarint(9)))).toBe(
      'errUnknownField "*tx.TxBody": {TagNum: 9, WireType: "varint"}: tx parse error',
    );
    // Bit 11 marks a field non-critical: 1024 and 1025 pass in the body; 2048 does not have the bit.
    expect(text(bodyWith(unknownVarint(1024)))).toBe("ok");
    expect(text(bodyWith(unknownVarint(1025)))).toBe("ok");
    expect(text(bodyWith(unknownVarint(2048)))).toBe(
      'errUnknownField "*tx.TxBody": {TagNum: 2048, WireType: "varint"}: tx parse error',
    );
    expect(text(signedWith(body(), concat(authInfo(), unknownVarint(1024))))).toBe(
      'errUnknownField "*tx.AuthInfo": {TagNum: 1024, WireType: "varint"}: tx parse error',
    );
    // Fee (field 2 of AuthInfo) with an unknown field 9.
    const feeExtra = concat(authInfo(false), field(2, concat(Uint8Array.of(0x10, 0x01), unknownVarint(9))));
    expect(text(signedWith(body(), feeExtra))).toBe(
      'errUnknownField "*tx.Fee": {TagNum: 9, WireType: "varint"}: tx parse error',
    );
    // A second SignerInfo carrying an unknown field (the check runs before any count of signers).
    expect(text(signedWith(body(), concat(authInfo(), field(1, unknownVarint(7)))))).toBe(
      'errUnknownField "*tx.SignerInfo": {TagNum: 7, WireType: "varint"}: tx parse error',
    );
    expect(text(signedWith(body(), authInfo(true, 200_000n, unknownVarint(5))))).toBe(
      'errUnknownField "*secp256k1.PubKey": {TagNum: 5, WireType: "varint"}: tx parse error',
    );
    const voteBytes = concat(vote.value, unknownVarint(99));
    expect(
      text(bodyWith(field(1, concat(field(1, new TextEncoder().encode(vote.typeUrl)), field(2, voteBytes))))),
    ).toBe('errUnknownField "*v1.MsgVote": {TagNum: 99, WireType: "varint"}: tx parse error');
    const anyExtra = concat(field(1, new TextEncoder().encode(vote.typeUrl)), field(2, vote.value), unknownVarint(3));
    expect(text(signedWith(field(1, anyExtra), authInfo()))).toBe(
      'errUnknownField "*types.Any": {TagNum: 3, WireType: "varint"}: tx parse error',
    );
    // A wrong wire type for a known field is a mismatch: the memo (field 2, a string) sent as a varint.
    expect(text(bodyWith(Uint8Array.of(0x10, 0x01)))).toBe(
      'Mismatched "*tx.TxBody": {TagNum: 2, GotWireType: "varint" != WantWireType: "bytes"}: tx parse error',
    );
  });

  it("looks inside nested Any values: the plan inside MsgSoftwareUpgrade inside MsgSubmitProposal", () => {
    const upgrade = create(MsgSoftwareUpgradeSchema, { authority: govAuthority(), plan: { name: "v2", height: 10n } });
    const upgradeBytes = toBinary(MsgSoftwareUpgradeSchema, upgrade);
    // The plan (field 2 of the message) with an unknown field 9 appended.
    const planBytes = concat(toBinary(PlanSchema, upgrade.plan!), unknownVarint(9));
    const badUpgrade = concat(field(1, new TextEncoder().encode(govAuthority())), field(2, planBytes));
    const submit = (inner: Uint8Array) =>
      packAny(
        MsgSubmitProposalSchema,
        create(MsgSubmitProposalSchema, {
          messages: [{ typeUrl: "/chain.upgrade.v1beta1.MsgSoftwareUpgrade", value: inner }],
          proposer: alice.address,
        }),
      );
    expect(text(signedWith(body([submit(upgradeBytes)]), authInfo()))).toBe("ok");
    expect(text(signedWith(body([submit(badUpgrade)]), authInfo()))).toBe(
      'errUnknownField "*types.Plan": {TagNum: 9, WireType: "varint"}: tx parse error',
    );
  });
});

describe("Tx.ValidateBasic and the memo", () => {
  const ms = new MemMultiStore(["auth", "bank"]);
  const ctx = new StoreCtx(ms, { chainId: CHAIN, height: height(2), time: unixMs(0), appVersion: 0n });
  new BankKeeper().mint(ctx, alice.address, [{ denom: "stake", amount: 1000n }]);
  const env: AnteEnv = {
    chainId: CHAIN,
    accountNumbers: new Map([[alice.address, 3n]]),
    minGasPrices: [],
    namespace: "chain",
    bech32Prefix: "chain",
  };
  const ante = (bytes: Uint8Array) => {
    const d = decodeTx(bytes);
    if (!d.ok) return errorText(d.error);
    // CheckTx mode: nothing is written, so every case starts from the same account.
    const r = runAnte(ctx, d.value, env, { check: true, pending: 0n, height: 2 });
    return r.ok
      ? "ok"
      : `${r.error.kind === "sdk" ? `${r.error.base.codespace}/${r.error.base.code} ` : ""}${errorText(r.error)}`;
  };

  it("refuses a missing fee and a gas limit over int64 with the reference's codes and texts", () => {
    expect(ante(signedWith(body(), authInfo(false)))).toBe("undefined/1 missing fee");
    expect(ante(signedWith(body(), authInfo(true, 1n << 63n)))).toBe(
      "sdk/18 invalid gas supplied; 9223372036854775808 > 9223372036854775807: invalid request",
    );
    expect(ante(signedWith(body(), authInfo(true, (1n << 63n) - 1n)))).toBe("ok");
  });

  it("counts the memo in bytes, as Go's len does", () => {
    const memoTx = (memo: string) =>
      signTx(alice, { chainId: CHAIN, accountNumber: 3n, sequence: 0n, msg: vote, memo });
    expect(ante(memoTx("é".repeat(129)))).toBe(
      "sdk/12 maximum number of characters is 256 but received 258 characters: memo too large",
    );
    expect(ante(memoTx("é".repeat(128)))).toBe("ok");
  });
});
