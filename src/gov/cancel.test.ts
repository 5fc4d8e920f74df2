import { create } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { alice, attrs, bob, carol, DAY, TestChain, val1 } from "../../test/kit/gov.js";
import { addressOfName } from "../core/address.js";
import { type ChainError, errorText, type Result } from "../core/errors.js";
import { ParamsSchema, ProposalStatus, VoteOption } from "../gen/chain/gov/v1/gov_pb.js";
import { MsgCancelProposalSchema, MsgDepositSchema, MsgVoteSchema } from "../gen/chain/gov/v1/tx_pb.js";
import { defaultParams } from "./params.js";

const GOV = addressOfName("gov");
const text = (r: Result<unknown, ChainError>): string => (r.ok ? "ok" : errorText(r.error));

const cancel = (c: TestChain, id: bigint, proposer: string) =>
  c.tx((ctx) => c.gov.cancelProposal(ctx, create(MsgCancelProposalSchema, { proposalId: id, proposer })));

function depositFrom(c: TestChain, id: bigint, depositor: string, amount: bigint) {
  const msg = create(MsgDepositSchema, {
    proposalId: id,
    depositor,
    amount: [{ denom: "stake", amount: amount.toString() }],
  });
  const r = c.tx((ctx) => c.gov.deposit(ctx, msg));
  if (!r.result.ok) throw new Error(errorText(r.result.error));
}

describe("MsgCancelProposal", () => {
  it("deletes the proposal, its votes and deposits; returns the response and the cancelled fate", () => {
    const c = new TestChain();
    const id = c.submitActive();
    c.tx((ctx) => c.gov.vote(ctx, create(MsgVoteSchema, { proposalId: id, voter: val1, option: VoteOption.YES })));
    c.advance(DAY);
    const r = cancel(c, id, alice);
    if (!r.result.ok) throw new Error(errorText(r.result.error));
    expect(r.result.value.response.proposalId).toBe(id);
    expect(timestampMs(r.result.value.response.canceledTime!)).toBe(c.time);
    expect(r.result.value.response.canceledHeight).toBe(BigInt(c.ctx().height));
    expect(r.result.value.fate).toEqual({ id, fate: "cancelled", height: c.ctx().height, time: c.time });
    expect(r.events.map((e) => [e.type, attrs(e)])).toEqual([
      [
        "cancel_proposal",
        [
          ["sender", alice],
          ["proposal_id", "1"],
        ],
      ],
    ]);
    expect(c.gov.queryProposal(c.ctx(), id)).toEqual({
      ok: false,
      error: { code: "NotFound", message: "proposal 1 doesn't exist" },
    });
    const votes = c.gov.queryVotes(c.ctx(), id);
    expect(votes.ok && votes.value.votes).toEqual([]);
    c.advance(DAY);
    expect(c.endBlock().events).toEqual([]); // nothing left in either queue
  });

  it("withholds floor(amount × proposal_cancel_ratio) per deposit and burns it (empty proposal_cancel_dest)", () => {
    const c = new TestChain({ params: create(ParamsSchema, { ...defaultParams(), proposalCancelRatio: "0.333" }) });
    const supply = c.bank.supply(c.ctx(), "stake");
    const aliceBefore = c.balance(alice);
    const bobBefore = c.balance(bob);
    c.submit({ deposit: "1000001stake" });
    depositFrom(c, 1n, bob, 500_000n);
    expect(cancel(c, 1n, alice).result.ok).toBe(true);
    // alice: 1,000,001 × 0.333 = 333,000.333 → 333,000 withheld; bob: 500,000 × 0.333 = 166,500.
    expect(c.balance(alice)).toBe(aliceBefore - 333_000n);
    expect(c.balance(bob)).toBe(bobBefore - 166_500n);
    expect(c.bank.supply(c.ctx(), "stake")).toBe(supply - 499_500n);
    expect(c.balance(GOV)).toBe(0n);
  });

  it("sends the withheld part to proposal_cancel_dest when set", () => {
    const c = new TestChain({ params: create(ParamsSchema, { ...defaultParams(), proposalCancelDest: carol }) });
    const carolBefore = c.balance(carol);
    c.submitActive();
    expect(cancel(c, 1n, alice).result.ok).toBe(true);
    expect(c.balance(carol)).toBe(carolBefore + 5_000_000n);
  });

  it("only the proposer may cancel", () => {
    const c = new TestChain();
    c.submitActive();
    expect(text(cancel(c, 1n, bob).result)).toBe(`invalid proposer ${bob}: invalid proposer`);
    expect(text(cancel(c, 1n, "").result)).toBe(
      "invalid proposer address: empty address string is not allowed: invalid address",
    );
    expect(text(cancel(c, 2n, alice).result)).toBe(
      "collections: not found: key '2' of type github.com/cosmos/gogoproto/chain.gov.v1.Proposal",
    );
  });

  it("is accepted at voting_end_time == block time (never tallied), rejected 1 ms later", () => {
    const c = new TestChain();
    c.submitActive();
    c.submitActive();
    c.advance(2 * DAY);
    expect(cancel(c, 1n, alice).result.ok).toBe(true);
    const end = c.endBlock();
    expect(end.events.map((e) => attrs(e)[0]![1])).toEqual(["2"]); // only #2 is tallied
    const late = new TestChain();
    late.submitActive();
    late.advance(2 * DAY + 1);
    expect(text(cancel(late, 1n, alice).result)).toBe(
      "voting period is already ended for this proposal 1: voting period already ended",
    );
  });

  it("works in the deposit period and is refused once the proposal is decided", () => {
    const c = new TestChain();
    c.submit({ deposit: "100000stake" });
    expect(cancel(c, 1n, alice).result.ok).toBe(true);
    const decided = new TestChain();
    decided.submitActive();
    decided.advance(2 * DAY);
    decided.endBlock();
    const q = decided.gov.queryProposal(decided.ctx(), 1n);
    expect(q.ok && q.value.proposal?.status).toBe(ProposalStatus.REJECTED);
    expect(text(cancel(decided, 1n, alice).result)).toBe(
      "proposal should be in the deposit or voting period: invalid proposal",
    );
  });
});
