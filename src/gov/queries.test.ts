import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { alice, bob, DAY, TestChain, val1, val2 } from "../../test/kit/gov.js";
import { govAuthority } from "../core/address.js";
import { errorText } from "../core/errors.js";
import { ParamsSchema, ProposalStatus, VoteOption } from "../gen/chain/gov/v1/gov_pb.js";
import { MsgUpdateParamsSchema, MsgVoteSchema } from "../gen/chain/gov/v1/tx_pb.js";
import { decodeProposalMetadata } from "./metadata.js";
import { defaultParams } from "./params.js";

const vote = (c: TestChain, id: bigint, voter: string, option: VoteOption) =>
  c.tx((ctx) => c.gov.vote(ctx, create(MsgVoteSchema, { proposalId: id, voter, option })));

describe("gov queries", () => {
  it("proposal: id 0 is invalid, unknown ids are not found", () => {
    const c = new TestChain();
    expect(c.gov.queryProposal(c.ctx(), 0n)).toEqual({
      ok: false,
      error: { code: "InvalidArgument", message: "proposal id can not be 0" },
    });
    expect(c.gov.queryProposal(c.ctx(), 5n)).toEqual({
      ok: false,
      error: { code: "NotFound", message: "proposal 5 doesn't exist" },
    });
  });

  it("proposals: all in id order, or filtered by status, voter, depositor", () => {
    const c = new TestChain();
    c.submit({ deposit: "100000stake" });
    c.submitActive({ proposer: bob });
    vote(c, 2n, val1, VoteOption.YES);
    const ids = (r: ReturnType<TestChain["gov"]["queryProposals"]>) => (r.ok ? r.value.proposals.map((p) => p.id) : []);
    expect(ids(c.gov.queryProposals(c.ctx()))).toEqual([1n, 2n]);
    expect(ids(c.gov.queryProposals(c.ctx(), { status: ProposalStatus.VOTING_PERIOD }))).toEqual([2n]);
    expect(ids(c.gov.queryProposals(c.ctx(), { voter: val1 }))).toEqual([2n]);
    expect(ids(c.gov.queryProposals(c.ctx(), { depositor: alice }))).toEqual([1n]);
  });

  it("vote and deposit lookups answer as v0.50's query server: a missing vote is InvalidArgument, a missing deposit the collection's NotFound", () => {
    const c = new TestChain();
    c.submitActive();
    expect(c.gov.queryVote(c.ctx(), 1n, bob)).toEqual({
      ok: false,
      error: { code: "InvalidArgument", message: `voter: ${bob} not found for proposal: 1` },
    });
    // the same for a proposal that does not exist: Vote does not look the proposal up
    expect(c.gov.queryVote(c.ctx(), 9n, bob)).toEqual({
      ok: false,
      error: { code: "InvalidArgument", message: `voter: ${bob} not found for proposal: 9` },
    });
    expect(c.gov.queryDeposit(c.ctx(), 1n, bob)).toEqual({
      ok: false,
      error: {
        code: "NotFound",
        message: `collections: not found: key '("1", "${bob}")' of type github.com/cosmos/gogoproto/chain.gov.v1.Deposit`,
      },
    });
    // the address as AccAddress.String() prints it: an upper-case bech32 comes back in lower case
    expect(c.gov.queryDeposit(c.ctx(), 1n, bob.toUpperCase())).toMatchObject({
      error: {
        message: `collections: not found: key '("1", "${bob}")' of type github.com/cosmos/gogoproto/chain.gov.v1.Deposit`,
      },
    });
    const d = c.gov.queryDeposit(c.ctx(), 1n, alice);
    expect(d.ok && d.value.deposit?.amount.map((x) => `${x.amount}${x.denom}`)).toEqual(["10000000stake"]);
  });

  it("params: always `params`, plus the asked-for legacy sub-record", () => {
    const c = new TestChain();
    const all = c.gov.queryParams(c.ctx());
    expect(all.ok && all.value.params?.quorum).toBe("0.334000000000000000");
    const tallying = c.gov.queryParams(c.ctx(), "tallying");
    expect(tallying.ok && tallying.value.tallyParams?.vetoThreshold).toBe("0.334000000000000000");
    expect(tallying.ok && tallying.value.depositParams).toBeUndefined();
    const voting = c.gov.queryParams(c.ctx(), "voting");
    expect(voting.ok && voting.value.votingParams?.votingPeriod?.seconds).toBe(172_800n);
    expect(c.gov.queryParams(c.ctx(), "foo")).toEqual({
      ok: false,
      error: { code: "InvalidArgument", message: "unknown params type: foo" },
    });
  });

  it("tally: zeros in the deposit period, a non-destructive live count while voting, the final tally after", () => {
    const c = new TestChain();
    c.submit({ deposit: "100000stake" });
    const early = c.gov.queryTally(c.ctx(), 1n);
    expect(early.ok && early.value.tally?.yesCount).toBe("0");
    const id = c.submitActive();
    vote(c, id, val1, VoteOption.YES);
    vote(c, id, val2, VoteOption.NO);
    const live = c.gov.queryTally(c.ctx(), id);
    expect(live.ok && [live.value.tally?.yesCount, live.value.tally?.noCount]).toEqual(["600", "300"]);
    const votes = c.gov.queryVotes(c.ctx(), id);
    expect(votes.ok && votes.value.votes.length).toBe(2);
    c.advance(2 * DAY);
    c.endBlock();
    const final = c.gov.queryTally(c.ctx(), id);
    expect(final.ok && final.value.tally?.yesCount).toBe("600");
  });
});

describe("MsgUpdateParams", () => {
  it("needs the gov authority and valid params; new params apply to proposals in flight", () => {
    const c = new TestChain();
    const id = c.submitActive();
    const params = create(ParamsSchema, { ...defaultParams(), quorum: "0.1" });
    const wrong = c.tx((ctx) => c.gov.updateParams(ctx, create(MsgUpdateParamsSchema, { authority: alice, params })));
    expect(!wrong.result.ok && errorText(wrong.result.error)).toBe(
      `invalid authority; expected ${govAuthority()}, got ${alice}: expected gov account as only signer for proposal message`,
    );
    const bad = create(ParamsSchema, { ...defaultParams(), quorum: "2" });
    const invalid = c.tx((ctx) =>
      c.gov.updateParams(ctx, create(MsgUpdateParamsSchema, { authority: govAuthority(), params: bad })),
    );
    expect(!invalid.result.ok && errorText(invalid.result.error)).toBe("quorum too large: 2");
    const good = c.tx((ctx) =>
      c.gov.updateParams(ctx, create(MsgUpdateParamsSchema, { authority: govAuthority(), params })),
    );
    expect(good.result.ok).toBe(true);
    // 200 of 1000 would miss the default quorum of 0.334; under the new 0.1 it passes.
    c.validators = [
      { operator: val1, tokens: 800n },
      { operator: val2, tokens: 200n },
    ];
    vote(c, id, val2, VoteOption.YES);
    c.advance(2 * DAY);
    c.endBlock();
    const p = c.gov.queryProposal(c.ctx(), id);
    expect(p.ok && p.value.proposal?.status).toBe(ProposalStatus.PASSED);
  });
});

describe("proposal metadata decoding", () => {
  it("behaves like Go's json.Unmarshal into the metadata struct", () => {
    expect(decodeProposalMetadata('{"title":"T","summary":"S","authors":["a"]}')).toEqual({ title: "T", summary: "S" });
    expect(decodeProposalMetadata('{"Title":"T"}')).toEqual({ title: "T", summary: "" });
    expect(decodeProposalMetadata("null")).toEqual({ title: "", summary: "" });
    expect(decodeProposalMetadata("[1]")).toBeUndefined();
    expect(decodeProposalMetadata('{"authors":"x"}')).toBeUndefined();
    expect(decodeProposalMetadata("ipfs://x")).toBeUndefined();
  });
});
