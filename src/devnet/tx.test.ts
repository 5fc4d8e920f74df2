import { describe, expect, it } from "vitest";
import { StoreCtx } from "../app/context.js";
import { BankKeeper } from "../bank/keeper.js";
import { GOV_AUTHORITY } from "../core/address.js";
import { height, unixMs } from "../core/brand.js";
import { errorText, grpcMessage } from "../core/errors.js";
import { MemMultiStore } from "../store/mem-multistore.js";
import { type AnteEnv, accountSequence, anteDeliver, parseGasPrices, requiredFees, verifyTx } from "./ante.js";
import { keyFromSeed } from "./keyring.js";
import {
  decodeTx,
  type JsonMsg,
  MSG_DEPOSIT,
  MSG_SOFTWARE_UPGRADE,
  MSG_SUBMIT_PROPOSAL,
  MSG_VOTE,
  signTx,
  toSimTx,
  txHash,
} from "./tx.js";

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
    pubkeys: new Map([[alice.address, alice.pubkey]]),
    minGasPrices: prices.value,
  };
  return { ctx, env };
}

const vote = (voter: string): JsonMsg => ({
  "@type": MSG_VOTE,
  proposal_id: "1",
  voter,
  option: "VOTE_OPTION_YES",
  metadata: "",
});
const deposit = (amount: string): JsonMsg => ({
  "@type": MSG_DEPOSIT,
  proposal_id: "1",
  depositor: alice.address,
  amount: [{ denom: "stake", amount }],
});

const roundTrip = (tx: unknown) => decodeTx(JSON.stringify(tx));
const failure = (r: { ok: boolean; error?: unknown }) =>
  r.ok ? "ok" : grpcMessage(r.error as Parameters<typeof grpcMessage>[0]);

describe("signed transactions", () => {
  it("round-trips through JSON, converts to the simulated tx, and hashes deterministically", () => {
    const tx = signTx(alice, { chainId: CHAIN, sequence: 0n, msg: vote(alice.address) });
    const back = roundTrip(tx);
    expect(back).toEqual({ ok: true, value: tx });
    expect(txHash(tx)).toMatch(/^[0-9A-F]{64}$/);
    expect(txHash(tx)).toBe(txHash(JSON.parse(JSON.stringify(tx))));
    expect(toSimTx(tx.msgs[0]!, alice.address)).toEqual({
      kind: "vote",
      proposalId: 1n,
      voter: alice.address,
      option: "yes",
    });
    const up: JsonMsg = {
      "@type": MSG_SOFTWARE_UPGRADE,
      authority: GOV_AUTHORITY,
      plan: { name: "v2", height: "-5", info: "" },
    };
    expect(toSimTx(up, alice.address)).toEqual({
      kind: "upgrade",
      signer: alice.address,
      messages: [{ kind: "softwareUpgrade", authority: GOV_AUTHORITY, plan: { name: "v2", height: -5n, info: "" } }],
    });
  });

  it("rejects malformed bodies as tx parse errors naming the field", () => {
    const tx = signTx(alice, { chainId: CHAIN, sequence: 0n, msg: vote(alice.address) });
    expect(failure(decodeTx("{"))).toMatch(/^codespace sdk code 2: tx parse error: /);
    expect(failure(roundTrip({ ...tx, sequence: "-1" }))).toBe(
      "codespace sdk code 2: tx parse error: sequence: expected a decimal uint64 string",
    );
    expect(failure(roundTrip({ ...tx, msgs: [] }))).toBe(
      "codespace sdk code 2: tx parse error: msgs: a transaction carries exactly one message",
    );
    expect(failure(roundTrip({ ...tx, extra: 1 }))).toMatch(/^codespace sdk code 2: tx parse error: .*extra/);
    expect(failure(roundTrip({ ...tx, msgs: [{ "@type": "/x.Msg" }] }))).toMatch(/tx parse error: msgs\.0/);
  });
});

describe("ante handler", () => {
  it("accepts a good transaction, then increments the sequence (replay protection)", () => {
    const { ctx, env } = setup();
    const tx = signTx(alice, { chainId: CHAIN, sequence: 0n, msg: vote(alice.address) });
    expect(verifyTx(ctx, tx, env, { pending: 0n, checkFunds: true })).toEqual({ ok: true, value: undefined });
    expect(anteDeliver(ctx, tx, env).ok).toBe(true);
    expect(accountSequence(ctx, alice.address)).toBe(1n);
    const replay = anteDeliver(ctx, tx, env);
    expect(failure(replay)).toBe(
      "codespace sdk code 32: incorrect account sequence: account sequence mismatch, expected 1, got 0",
    );
    // With one accepted transaction pending in the mempool, the next one must use sequence 2.
    const next = signTx(alice, { chainId: CHAIN, sequence: 1n, msg: vote(alice.address) });
    expect(failure(verifyTx(ctx, next, env, { pending: 1n, checkFunds: true }))).toMatch(/expected 2, got 1/);
  });

  it("reports a bad signature, an unknown signer, a foreign message signer and a wrong chain id", () => {
    const { ctx, env } = setup();
    const tx = signTx(alice, { chainId: CHAIN, sequence: 0n, msg: vote(alice.address) });
    const tampered = { ...tx, memo: "changed after signing" };
    expect(errorText(verifyErr(ctx, tampered, env))).toBe(
      `signature verification failed; please verify account number (0), sequence (0) and chain-id (${CHAIN}): unauthorized`,
    );
    const fromBob = signTx(bob, { chainId: CHAIN, sequence: 0n, msg: vote(bob.address) });
    expect(errorText(verifyErr(ctx, fromBob, env))).toBe(`account ${bob.address} does not exist: unknown address`);
    const bobKeyForAlice = signTx(
      { ...bob, address: alice.address },
      { chainId: CHAIN, sequence: 0n, msg: vote(alice.address) },
    );
    expect(errorText(verifyErr(ctx, bobKeyForAlice, env))).toBe(
      `pubKey does not match signer address ${alice.address} with signer index: 0: invalid pubkey`,
    );
    const foreign = signTx(alice, { chainId: CHAIN, sequence: 0n, msg: vote(bob.address) });
    expect(errorText(verifyErr(ctx, foreign, env))).toMatch(/^pubKey does not match signer address chain1/);
    const other = signTx(alice, { chainId: "other", sequence: 0n, msg: vote(alice.address) });
    expect(errorText(verifyErr(ctx, other, env))).toBe(
      `invalid chain-id on tx; expected ${CHAIN}, got other: invalid chain-id`,
    );
  });

  it("reports insufficient funds (fee plus spend at CheckTx) and insufficient fees", () => {
    const { ctx, env } = setup("0.001stake");
    expect(requiredFees(env.minGasPrices, 200_000n)).toEqual([{ denom: "stake", amount: 200n }]);
    expect(requiredFees(env.minGasPrices, 1_500n)).toEqual([{ denom: "stake", amount: 2n }]);
    const cheap = signTx(alice, { chainId: CHAIN, sequence: 0n, msg: vote(alice.address), fee: [] });
    expect(errorText(verifyErr(ctx, cheap, env))).toBe("insufficient fees; got:  required: 200stake: insufficient fee");
    const fee = [{ denom: "stake", amount: 200n }];
    const big = signTx(alice, { chainId: CHAIN, sequence: 0n, msg: deposit("900"), fee });
    expect(errorText(verifyErr(ctx, big, env))).toBe(
      "spendable balance 1000stake is smaller than 1100stake: insufficient funds",
    );
    const ok = signTx(alice, { chainId: CHAIN, sequence: 0n, msg: deposit("800"), fee });
    expect(verifyTx(ctx, ok, env, { pending: 0n, checkFunds: true }).ok).toBe(true);
    expect(anteDeliver(ctx, ok, env).ok).toBe(true);
    expect(new BankKeeper().balance(ctx, alice.address, "stake")).toBe(800n);
    const { ctx: poor, env: env2 } = setup("1stake");
    const pricey = signTx(alice, {
      chainId: CHAIN,
      sequence: 0n,
      msg: vote(alice.address),
      gas: 2000n,
      fee: [{ denom: "stake", amount: 2000n }],
    });
    expect(errorText(anteDeliverErr(poor, pricey, env2))).toBe(
      "spendable balance 1000stake is smaller than 2000stake: insufficient funds",
    );
    expect(accountSequence(poor, alice.address)).toBe(0n);
  });

  it("a submit-proposal message is signed by its proposer", () => {
    const { ctx, env } = setup();
    const msg: JsonMsg = {
      "@type": MSG_SUBMIT_PROPOSAL,
      messages: [
        { "@type": MSG_SOFTWARE_UPGRADE, authority: GOV_AUTHORITY, plan: { name: "v2", height: "30", info: "" } },
      ],
      initial_deposit: [{ denom: "stake", amount: "10" }],
      proposer: alice.address,
      metadata: "",
      title: "t",
      summary: "s",
      expedited: false,
    };
    const tx = signTx(alice, { chainId: CHAIN, sequence: 0n, msg });
    expect(verifyTx(ctx, tx, env, { pending: 0n, checkFunds: true }).ok).toBe(true);
  });
});

function verifyErr(ctx: StoreCtx, tx: Parameters<typeof verifyTx>[1], env: AnteEnv) {
  const r = verifyTx(ctx, tx, env, { pending: 0n, checkFunds: true });
  if (r.ok) throw new Error("expected an error");
  return r.error;
}
function anteDeliverErr(ctx: StoreCtx, tx: Parameters<typeof verifyTx>[1], env: AnteEnv) {
  const r = anteDeliver(ctx, tx, env);
  if (r.ok) throw new Error("expected an error");
  return r.error;
}
