import { create, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { StoreCtx } from "../app/context.js";
import { BankKeeper } from "../bank/keeper.js";
import { govAuthority } from "../core/address.js";
import { height, unixMs } from "../core/brand.js";
import { type ChainError, errorText, type Result } from "../core/errors.js";
import { VoteOption } from "../gen/chain/gov/v1/gov_pb.js";
import { MsgDepositSchema, MsgSubmitProposalSchema, MsgVoteSchema } from "../gen/chain/gov/v1/tx_pb.js";
import { TxBodySchema, TxRawSchema } from "../gen/chain/tx/v1beta1/tx_pb.js";
import { MsgSoftwareUpgradeSchema } from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import { MemMultiStore } from "../store/mem-multistore.js";
import {
  type AnteEnv,
  type AnteMode,
  accountPubkey,
  accountSequence,
  parseGasPrices,
  requiredFees,
  runAnte,
} from "./ante.js";
import { keyFromSeed } from "./keyring.js";
import { type DecodedTx, decodeTx, packAny, signTx, type TxDraft, txHash } from "./tx.js";

const alice = keyFromSeed("alice", "alice-seed");
const bob = keyFromSeed("bob", "bob-seed");
const CHAIN = "devnet-1";

function setup(minGasPrices = "0stake") {
  const ms = new MemMultiStore(["auth", "bank"]);
  const ctx = new StoreCtx(ms, { chainId: CHAIN, height: height(2), time: unixMs(0), appVersion: 0n });
  new BankKeeper().mint(ctx, alice.address, [{ denom: "stake", amount: 1000n }]);
  const prices = parseGasPrices(minGasPrices);
  if (!prices.ok) throw new Error(prices.error);
  const env: AnteEnv = {
    chainId: CHAIN,
    accountNumbers: new Map([[alice.address, 3n]]),
    minGasPrices: prices.value,
    namespace: "chain",
    bech32Prefix: "chain",
  };
  return { ctx, env };
}

const vote = (voter: string) =>
  packAny(MsgVoteSchema, create(MsgVoteSchema, { proposalId: 1n, voter, option: VoteOption.YES }));
const deposit = (amount: string) =>
  packAny(
    MsgDepositSchema,
    create(MsgDepositSchema, { proposalId: 1n, depositor: alice.address, amount: [{ denom: "stake", amount }] }),
  );
const draft = (d: Partial<TxDraft> = {}): TxDraft => ({
  chainId: CHAIN,
  accountNumber: 3n,
  sequence: 0n,
  msg: vote(alice.address),
  ...d,
});

const decoded = (bytes: Uint8Array): DecodedTx => {
  const r = decodeTx(bytes);
  if (!r.ok) throw new Error(errorText(r.error));
  return r.value;
};
const text = (r: Result<unknown, ChainError>): string => (r.ok ? "ok" : errorText(r.error));
const DELIVER: AnteMode = { check: false, pending: 0n, height: 2 };
const CHECK: AnteMode = { check: true, pending: 0n, height: 2 };

describe("TxRaw decoding", () => {
  it("decodes a signed tx into the application's message; the hash is the upper-hex sha256 of the TxRaw bytes", () => {
    const bytes = signTx(alice, draft());
    const tx = decoded(bytes);
    expect(tx.hash).toBe(txHash(bytes));
    expect(tx.hash).toMatch(/^[0-9A-F]{64}$/);
    expect(tx.msgs[0]).toMatchObject({
      typeUrl: "/chain.gov.v1.MsgVote",
      signer: alice.address,
      sim: { kind: "vote", proposalId: 1n, voter: alice.address, option: "yes" },
    });
    const up = packAny(
      MsgSoftwareUpgradeSchema,
      create(MsgSoftwareUpgradeSchema, { authority: govAuthority(), plan: { name: "v2", height: -5n } }),
    );
    const sub = packAny(
      MsgSubmitProposalSchema,
      create(MsgSubmitProposalSchema, {
        messages: [up],
        proposer: alice.address,
        initialDeposit: [{ denom: "stake", amount: "10" }],
      }),
    );
    expect(decoded(signTx(alice, draft({ msg: sub }))).msgs[0]).toMatchObject({
      signer: alice.address,
      spend: [{ denom: "stake", amount: 10n }],
      sim: { kind: "submitProposal", messages: [{ kind: "softwareUpgrade", plan: { name: "v2", height: -5n } }] },
    });
  });

  it("rejects bad bytes, unknown type URLs, unknown critical fields and bodies without one message", () => {
    expect(text(decodeTx(Uint8Array.of(0xff, 0xff, 0xff)))).toMatch(/: tx parse error$/);
    const body = (messages: ReturnType<typeof vote>[], extra?: Uint8Array) => {
      const b = toBinary(TxBodySchema, create(TxBodySchema, { messages }));
      return toBinary(
        TxRawSchema,
        create(TxRawSchema, {
          bodyBytes: extra === undefined ? b : new Uint8Array([...b, ...extra]),
          authInfoBytes: new Uint8Array(),
        }),
      );
    };
    expect(text(decodeTx(body([{ ...vote(alice.address), typeUrl: "/cosmos.gov.v1.MsgVote" }])))).toBe(
      "unable to resolve type URL /cosmos.gov.v1.MsgVote: tx parse error",
    );
    expect(text(decodeTx(body([])))).toBe("must contain at least one message: invalid request");
    expect(text(decodeTx(body([vote(alice.address), vote(alice.address)])))).toMatch(/one message per transaction/);
    // field 9 (varint) is unknown and critical; field 1024 would be non-critical.
    expect(text(decodeTx(body([vote(alice.address)], Uint8Array.of(0x48, 0x01))))).toBe(
      'errUnknownField "*tx.TxBody": {TagNum: 9, WireType: "varint"}: tx parse error',
    );
    expect(decodeTx(body([vote(alice.address)], Uint8Array.of(0x80, 0x40, 0x01))).ok).toBe(true);
  });
});

describe("ante handler", () => {
  it("accepts a good transaction, stores the public key, then increments the sequence (replay protection)", () => {
    const { ctx, env } = setup();
    const tx = decoded(signTx(alice, draft()));
    expect(runAnte(ctx, tx, env, CHECK).ok).toBe(true);
    expect(accountSequence(ctx, alice.address, "chain")).toBe(0n);
    expect(accountPubkey(ctx, alice.address, "chain")).toBeUndefined();
    expect(runAnte(ctx, tx, env, DELIVER).ok).toBe(true);
    expect(accountSequence(ctx, alice.address, "chain")).toBe(1n);
    expect(accountPubkey(ctx, alice.address, "chain")).toEqual(alice.pubkey);
    expect(text(runAnte(ctx, tx, env, DELIVER))).toBe(
      "account sequence mismatch, expected 1, got 0: incorrect account sequence",
    );
    // With one accepted transaction pending in the mempool, the next one must use sequence 2.
    const next = decoded(signTx(alice, draft({ sequence: 1n })));
    expect(text(runAnte(ctx, next, env, { ...CHECK, pending: 1n }))).toMatch(/expected 2, got 1/);
  });

  it("reports a bad signature, a wrong account number or chain id (as the reference: signature failures), an unknown signer and a foreign key", () => {
    const { ctx, env } = setup();
    const failed = `signature verification failed; please verify account number (3), sequence (0) and chain-id (${CHAIN}): unauthorized`;
    const good = signTx(alice, draft());
    const sig = decoded(good).raw.signatures[0]!;
    const flipped = toBinary(
      TxRawSchema,
      create(TxRawSchema, {
        ...decoded(good).raw,
        signatures: [Uint8Array.from(sig, (b, i) => (i === 5 ? b ^ 1 : b))],
      }),
    );
    expect(text(runAnte(ctx, decoded(flipped), env, DELIVER))).toBe(failed);
    expect(text(runAnte(ctx, decoded(signTx(alice, draft({ chainId: "other" }))), env, DELIVER))).toBe(failed);
    expect(text(runAnte(ctx, decoded(signTx(alice, draft({ accountNumber: 0n }))), env, DELIVER))).toBe(failed);
    expect(accountSequence(ctx, alice.address, "chain")).toBe(0n);
    const fromBob = decoded(signTx(bob, draft({ msg: vote(bob.address) })));
    expect(text(runAnte(ctx, fromBob, env, DELIVER))).toBe(
      `fee payer address: ${bob.address} does not exist: unknown address`,
    );
    const bobKeyForAlice = decoded(signTx(bob, draft()));
    expect(text(runAnte(ctx, bobKeyForAlice, env, DELIVER))).toBe(
      `pubKey does not match signer address ${alice.address} with signer index: 0: invalid pubkey`,
    );
    const noSig = toBinary(TxRawSchema, create(TxRawSchema, { ...decoded(good).raw, signatures: [] }));
    expect(text(runAnte(ctx, decoded(noSig), env, DELIVER))).toBe("no signatures supplied");
  });

  it("checks memo length, tx size gas and timeout height", () => {
    const { ctx, env } = setup();
    expect(text(runAnte(ctx, decoded(signTx(alice, draft({ memo: "é".repeat(257) }))), env, DELIVER))).toBe(
      "maximum number of characters is 256 but received 514 characters: memo too large",
    );
    const small = decoded(signTx(alice, draft({ gas: 100n })));
    expect(text(runAnte(ctx, small, env, DELIVER))).toBe(
      `out of gas in location: txSize; gasWanted: 100, gasUsed: ${small.bytes.length * 10}: out of gas`,
    );
    expect(text(runAnte(ctx, decoded(signTx(alice, draft({ timeoutHeight: 1n }))), env, DELIVER))).toBe(
      "block height: 2, timeout height: 1: tx timeout height",
    );
    expect(accountSequence(ctx, alice.address, "chain")).toBe(0n);
  });

  it("reports insufficient fees at CheckTx and unpaid fees as insufficient funds, writing nothing", () => {
    const { ctx, env } = setup("0.001stake");
    expect(requiredFees(env.minGasPrices, 200_000n)).toEqual([{ denom: "stake", amount: 200n }]);
    expect(requiredFees(env.minGasPrices, 1_500n)).toEqual([{ denom: "stake", amount: 2n }]);
    const cheap = decoded(signTx(alice, draft()));
    expect(text(runAnte(ctx, cheap, env, CHECK))).toBe("insufficient fees; got:  required: 200stake: insufficient fee");
    // Delivery does not apply the node's minimum gas prices.
    expect(runAnte(ctx, cheap, env, DELIVER).ok).toBe(true);
    const fee = [{ denom: "stake", amount: 200n }];
    expect(runAnte(ctx, decoded(signTx(alice, draft({ sequence: 1n, msg: deposit("900"), fee }))), env, CHECK).ok).toBe(
      true,
    );
    const { ctx: poor, env: env2 } = setup("0.1stake");
    const pricey = decoded(signTx(alice, draft({ gas: 5000n, fee: [{ denom: "stake", amount: 2000n }] })));
    expect(text(runAnte(poor, pricey, env2, DELIVER))).toBe(
      "spendable balance 1000stake is smaller than 2000stake: insufficient funds: insufficient funds",
    );
    expect(accountSequence(poor, alice.address, "chain")).toBe(0n);
    expect(new BankKeeper().balance(poor, alice.address, "stake")).toBe(1000n);
    const paid = decoded(signTx(alice, draft({ gas: 5000n, fee: [{ denom: "stake", amount: 600n }] })));
    expect(runAnte(poor, paid, env2, DELIVER).ok).toBe(true);
    expect(new BankKeeper().balance(poor, alice.address, "stake")).toBe(400n);
  });
});
