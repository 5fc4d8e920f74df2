import { create } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  alice,
  attrs,
  DAY,
  failMsg,
  readProbe,
  requireMsg,
  setMsg,
  TestChain,
  testMsg,
  val1,
  val2,
  val3,
} from "../../test/kit/gov.js";
import { addressOfName } from "../core/address.js";
import { ParamsSchema, ProposalStatus, VoteOption } from "../gen/chain/gov/v1/gov_pb.js";
import { MsgDepositSchema, MsgVoteSchema } from "../gen/chain/gov/v1/tx_pb.js";
import { defaultParams } from "./params.js";

const GOV = addressOfName("gov");

function castVote(c: TestChain, id: bigint, voter: string, option: VoteOption) {
  const r = c.tx((ctx) => c.gov.vote(ctx, create(MsgVoteSchema, { proposalId: id, voter, option })));
  if (!r.result.ok) throw new Error("vote failed");
}

function proposal(c: TestChain, id: bigint) {
  const r = c.gov.queryProposal(c.ctx(), id);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.proposal!;
}

/** Validators: val1 600, val2 300, val3 100 (B = 1000). */
describe("passed proposals", () => {
  it("execute, become PASSED, refund deposits first, re-emit message events before active_proposal", () => {
    const c = new TestChain();
    const before = c.balance(alice);
    const id = c.submitActive({ messages: [setMsg("a", "1"), setMsg("b", "2")] });
    castVote(c, id, val1, VoteOption.YES);
    c.advance(2 * DAY);
    const r = c.endBlock();
    expect(r.events.map((e) => e.type)).toEqual(["probe_set", "probe_set", "active_proposal"]);
    expect(attrs(r.events[2]!)).toEqual([
      ["proposal_id", "1"],
      ["proposal_result", "proposal_passed"],
      ["proposal_log", "passed"],
    ]);
    expect([readProbe(c.ctx(), "a"), readProbe(c.ctx(), "b")]).toEqual(["1", "2"]);
    const p = proposal(c, id);
    expect(p.status).toBe(ProposalStatus.PASSED);
    expect(p.finalTallyResult).toMatchObject({
      yesCount: "600",
      noCount: "0",
      abstainCount: "0",
      noWithVetoCount: "0",
    });
    expect(c.balance(alice)).toBe(before);
    expect(c.balance(GOV)).toBe(0n);
    expect(r.result.ok && r.result.value.outcomes).toEqual([
      { kind: "passed", id, tally: { yes: 600n, abstain: 0n, no: 0n, noWithVeto: 0n } },
    ]);
    const votes = c.gov.queryVotes(c.ctx(), id);
    expect(votes.ok && votes.value.votes).toEqual([]);
  });

  it("execution is all-or-nothing: a failing message discards earlier writes and events; deposits are refunded", () => {
    const c = new TestChain();
    const before = c.balance(alice);
    const id = c.submitActive({ messages: [setMsg("a", "1"), failMsg("nope"), setMsg("c", "3")] });
    castVote(c, id, val1, VoteOption.YES);
    c.advance(2 * DAY);
    const r = c.endBlock();
    expect(r.events.map((e) => e.type)).toEqual(["active_proposal"]);
    expect(attrs(r.events[0]!)).toEqual([
      ["proposal_id", "1"],
      ["proposal_result", "proposal_failed"],
      ["proposal_log", "passed, but msg 1 (/test.v1.MsgFail) failed on execution: nope: invalid request"],
    ]);
    expect(readProbe(c.ctx(), "a")).toBeUndefined();
    expect(c.router.calls).toEqual(["/test.v1.MsgSet", "/test.v1.MsgFail"]);
    const p = proposal(c, id);
    expect([p.status, p.failedReason]).toEqual([ProposalStatus.FAILED, "nope: invalid request"]);
    expect(c.balance(alice)).toBe(before);
  });

  it("a throwing handler becomes a PANICKED error; a message without a route too", () => {
    const c = new TestChain();
    const id = c.submitActive({ messages: [testMsg("/test.v1.MsgPanic")] });
    castVote(c, id, val1, VoteOption.YES);
    c.advance(2 * DAY);
    c.endBlock();
    expect(proposal(c, id).failedReason).toBe("handling x/gov proposal msg [/test.v1.MsgPanic] PANICKED: boom");
    const id2 = c.submitActive({ messages: [setMsg("gone", "1")] });
    castVote(c, id2, val1, VoteOption.YES);
    c.router.unrouted.add("/test.v1.MsgSet");
    c.advance(2 * DAY);
    c.endBlock();
    expect(proposal(c, id2).failedReason).toBe(
      "handling x/gov proposal msg [/test.v1.MsgSet] PANICKED: runtime error: invalid memory address or nil pointer dereference",
    );
  });

  it("run in (voting_end_time, id) order, each seeing the writes of the previous ones", () => {
    const c = new TestChain();
    // #1 activates later than #2 and #3, so it ends last; #2 and #3 end together and run in id order.
    c.submit({ deposit: "100000stake", messages: [requireMsg("x", "3")] });
    const two = c.submitActive({ messages: [setMsg("x", "2")] });
    const three = c.submitActive({ messages: [requireMsg("x", "2"), setMsg("x", "3")] });
    c.advance(DAY);
    c.tx((ctx) =>
      c.gov.deposit(
        ctx,
        create(MsgDepositSchema, {
          proposalId: 1n,
          depositor: alice,
          amount: [{ denom: "stake", amount: "9900000" }],
        }),
      ),
    );
    for (const id of [1n, two, three]) castVote(c, id, val1, VoteOption.YES);
    c.advance(DAY);
    const first = c.endBlock();
    expect(first.events.filter((e) => e.type === "active_proposal").map((e) => attrs(e)[0]![1])).toEqual(["2", "3"]);
    expect(proposal(c, three).status).toBe(ProposalStatus.PASSED);
    c.advance(DAY);
    c.endBlock();
    expect(proposal(c, 1n).status).toBe(ProposalStatus.PASSED);
    expect(readProbe(c.ctx(), "x")).toBe("3");
  });
});

describe("rejected proposals and deposit burning", () => {
  it("rejected: failed_reason and log; deposits refunded when the threshold is not met", () => {
    const c = new TestChain();
    const before = c.balance(alice);
    const id = c.submitActive();
    castVote(c, id, val1, VoteOption.NO);
    c.advance(2 * DAY);
    const r = c.endBlock();
    expect(attrs(r.events[0]!)).toEqual([
      ["proposal_id", "1"],
      ["proposal_result", "proposal_rejected"],
      ["proposal_log", "rejected"],
    ]);
    const p = proposal(c, id);
    expect([p.status, p.failedReason]).toEqual([ProposalStatus.REJECTED, "proposal did not get enough votes to pass"]);
    expect(c.balance(alice)).toBe(before);
    expect(c.router.calls).toEqual([]);
  });

  it("veto burns deposits by default (burn_vote_veto) and refunds them when disabled", () => {
    const c = new TestChain();
    const supply = c.bank.supply(c.ctx(), "stake");
    const id = c.submitActive();
    castVote(c, id, val1, VoteOption.NO_WITH_VETO);
    c.advance(2 * DAY);
    const r = c.endBlock();
    expect(r.result.ok && r.result.value.outcomes[0]).toMatchObject({
      kind: "rejected",
      reason: "vetoed",
      depositsBurned: true,
    });
    expect(c.bank.supply(c.ctx(), "stake")).toBe(supply - 10_000_000n);

    const keep = new TestChain({ params: create(ParamsSchema, { ...defaultParams(), burnVoteVeto: false }) });
    const before = keep.balance(alice);
    const id2 = keep.submitActive();
    castVote(keep, id2, val1, VoteOption.NO_WITH_VETO);
    keep.advance(2 * DAY);
    keep.endBlock();
    expect(keep.balance(alice)).toBe(before);
  });

  it("missing quorum refunds by default and burns with burn_vote_quorum", () => {
    const c = new TestChain();
    const before = c.balance(alice);
    const id = c.submitActive();
    castVote(c, id, val3, VoteOption.YES); // 100 of 1000 < 0.334
    c.advance(2 * DAY);
    const r = c.endBlock();
    expect(r.result.ok && r.result.value.outcomes[0]).toMatchObject({
      reason: "quorum-not-met",
      depositsBurned: false,
    });
    expect(c.balance(alice)).toBe(before);

    const burn = new TestChain({ params: create(ParamsSchema, { ...defaultParams(), burnVoteQuorum: true }) });
    const supply = burn.bank.supply(burn.ctx(), "stake");
    burn.submitActive();
    burn.advance(2 * DAY);
    burn.endBlock();
    expect(burn.bank.supply(burn.ctx(), "stake")).toBe(supply - 10_000_000n);
  });

  it("voting_end_time is inclusive: processed when it equals the block time, not 1 ms before", () => {
    const c = new TestChain();
    const id = c.submitActive();
    c.advance(2 * DAY - 1);
    expect(c.endBlock().events).toEqual([]);
    c.advance(1);
    expect(c.endBlock().events.map((e) => e.type)).toEqual(["active_proposal"]);
    expect(proposal(c, id).status).toBe(ProposalStatus.REJECTED);
  });
});

describe("expedited proposals", () => {
  it("pass above expedited_threshold after expedited_voting_period", () => {
    const c = new TestChain();
    const id = c.submitActive({ expedited: true });
    castVote(c, id, val1, VoteOption.YES);
    castVote(c, id, val2, VoteOption.YES); // 900/1000 > 0.667
    c.advance(DAY);
    c.endBlock();
    expect(proposal(c, id).status).toBe(ProposalStatus.PASSED);
  });

  it("falling short converts to regular: end = original start + voting_period, deposits kept, votes deleted", () => {
    const c = new TestChain();
    const id = c.submitActive({ expedited: true });
    const start = timestampMs(proposal(c, id).votingStartTime!);
    castVote(c, id, val1, VoteOption.YES); // 600/900 = 0.666…: passes regular, not expedited
    castVote(c, id, val2, VoteOption.NO);
    c.advance(DAY);
    const r = c.endBlock();
    expect(attrs(r.events[0]!)).toEqual([
      ["proposal_id", "1"],
      ["proposal_result", "expedited_proposal_rejected"],
      ["proposal_log", "expedited proposal converted to regular"],
    ]);
    const p = proposal(c, id);
    expect([p.status, p.expedited]).toEqual([ProposalStatus.VOTING_PERIOD, false]);
    expect(timestampMs(p.votingEndTime!)).toBe(start + 2 * DAY);
    expect(p.finalTallyResult).toMatchObject({ yesCount: "600", noCount: "300" });
    expect(c.balance(GOV)).toBe(50_000_000n);
    expect(r.result.ok && r.result.value.outcomes[0]).toMatchObject({
      kind: "expedited-fallback",
      reason: "threshold-not-met",
      votingEndTime: start + 2 * DAY,
    });
    const votes = c.gov.queryVotes(c.ctx(), id);
    expect(votes.ok && votes.value.votes).toEqual([]);
    // With the votes gone, the regular tally sees nothing: quorum not met, rejected, deposits refunded.
    c.advance(DAY);
    c.endBlock();
    expect(proposal(c, id).status).toBe(ProposalStatus.REJECTED);
    expect(c.balance(GOV)).toBe(0n);
  });

  it('expeditedFallbackVotes "keep": expedited votes survive and decide the regular tally', () => {
    const c = new TestChain({ config: { expeditedFallbackVotes: "keep" } });
    const id = c.submitActive({ expedited: true, messages: [setMsg("k", "kept")] });
    castVote(c, id, val1, VoteOption.YES);
    castVote(c, id, val2, VoteOption.NO);
    c.advance(DAY);
    c.endBlock();
    expect(proposal(c, id).status).toBe(ProposalStatus.VOTING_PERIOD);
    const votes = c.gov.queryVotes(c.ctx(), id);
    expect(votes.ok && votes.value.votes.length).toBe(2);
    c.advance(DAY);
    c.endBlock();
    expect(proposal(c, id).status).toBe(ProposalStatus.PASSED);
    expect(readProbe(c.ctx(), "k")).toBe("kept");
  });

  it("a vetoed expedited proposal also falls back and keeps its deposits", () => {
    const c = new TestChain();
    const supply = c.bank.supply(c.ctx(), "stake");
    const id = c.submitActive({ expedited: true });
    castVote(c, id, val1, VoteOption.NO_WITH_VETO);
    c.advance(DAY);
    c.endBlock();
    expect(proposal(c, id).status).toBe(ProposalStatus.VOTING_PERIOD);
    expect(c.bank.supply(c.ctx(), "stake")).toBe(supply);
  });
});
