import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { alice, attrs, bob, TestChain, val1 } from "../../test/kit/gov.js";
import { type ChainError, errorText, type Result } from "../core/errors.js";
import { VoteOption, WeightedVoteOptionSchema } from "../gen/chain/gov/v1/gov_pb.js";
import { MsgVoteSchema, MsgVoteWeightedSchema } from "../gen/chain/gov/v1/tx_pb.js";

const text = (r: Result<unknown, ChainError>): string => (r.ok ? "ok" : errorText(r.error));

function castVote(c: TestChain, id: bigint, voter: string, option: number, metadata = "") {
  return c.tx((ctx) => c.gov.vote(ctx, create(MsgVoteSchema, { proposalId: id, voter, option, metadata })));
}

function castWeighted(c: TestChain, id: bigint, voter: string, options: [number, string][]) {
  const msg = create(MsgVoteWeightedSchema, {
    proposalId: id,
    voter,
    options: options.map(([option, weight]) => create(WeightedVoteOptionSchema, { option, weight })),
  });
  return c.tx((ctx) => c.gov.voteWeighted(ctx, msg));
}

describe("MsgVote", () => {
  it("records the vote and emits proposal_vote{voter, option JSON, proposal_id}", () => {
    const c = new TestChain();
    const id = c.submitActive();
    const r = castVote(c, id, val1, VoteOption.YES);
    expect(r.result.ok).toBe(true);
    expect(r.events.map((e) => [e.type, attrs(e)])).toEqual([
      [
        "proposal_vote",
        [
          ["voter", val1],
          ["option", '[{"option":1,"weight":"1.000000000000000000"}]'],
          ["proposal_id", "1"],
        ],
      ],
    ]);
    const v = c.gov.queryVote(c.ctx(), id, val1);
    expect(v.ok && v.value.vote?.options.map((o) => [o.option, o.weight])).toEqual([
      [VoteOption.YES, "1.000000000000000000"],
    ]);
  });

  it("a later vote by the same voter replaces the earlier one; any account may vote", () => {
    const c = new TestChain();
    const id = c.submitActive();
    castVote(c, id, alice, VoteOption.YES);
    castVote(c, id, alice, VoteOption.NO);
    const votes = c.gov.queryVotes(c.ctx(), id);
    expect(votes.ok && votes.value.votes.map((v) => [v.voter, v.options[0]!.option])).toEqual([[alice, VoteOption.NO]]);
  });

  it("only in the voting period; unknown ids are inactive too", () => {
    const c = new TestChain();
    c.submit({ deposit: "100000stake" });
    expect(text(castVote(c, 1n, val1, VoteOption.YES).result)).toBe("1: inactive proposal");
    expect(text(castVote(c, 7n, val1, VoteOption.YES).result)).toBe("7: inactive proposal");
  });

  it("accepts every valid option, and metadata up to the limit (255 bytes)", () => {
    const c = new TestChain();
    const id = c.submitActive();
    expect(text(castVote(c, id, val1, VoteOption.ABSTAIN, "x".repeat(255)).result)).toBe("ok");
    expect(text(castVote(c, id, alice, VoteOption.NO_WITH_VETO, "ipfs://vote").result)).toBe("ok");
    expect(text(castVote(c, id, bob, VoteOption.NO).result)).toBe("ok");
  });

  it("rejects invalid options, voters and long metadata", () => {
    const c = new TestChain();
    const id = c.submitActive();
    expect(text(castVote(c, id, val1, VoteOption.UNSPECIFIED).result)).toBe(
      "VOTE_OPTION_UNSPECIFIED: invalid vote option",
    );
    expect(text(castVote(c, id, val1, 9).result)).toBe("9: invalid vote option");
    expect(text(castVote(c, id, "", VoteOption.YES).result)).toBe(
      "invalid voter address: empty address string is not allowed: invalid address",
    );
    expect(text(castVote(c, id, val1, VoteOption.YES, "x".repeat(256)).result)).toBe(
      "got metadata with length 256: metadata too long",
    );
  });
});

describe("MsgVoteWeighted", () => {
  it("accepts weights summing to exactly 1 and prints them as given", () => {
    const c = new TestChain();
    const id = c.submitActive();
    const r = castWeighted(c, id, bob, [
      [VoteOption.YES, "0.7"],
      [VoteOption.NO_WITH_VETO, "0.3"],
    ]);
    expect(r.result.ok).toBe(true);
    expect(attrs(r.events[0]!)[1]).toEqual(["option", '[{"option":1,"weight":"0.7"},{"option":4,"weight":"0.3"}]']);
  });

  it("rejects empty, invalid, duplicated, over- and under-weighted options", () => {
    const c = new TestChain();
    const id = c.submitActive();
    expect(text(castWeighted(c, id, bob, []).result)).toBe("null: invalid request");
    expect(text(castWeighted(c, id, "", [[VoteOption.YES, "1"]]).result)).toBe(
      "invalid voter address: empty address string is not allowed: invalid address",
    );
    expect(text(castWeighted(c, id, bob, [[VoteOption.YES, "1.5"]]).result)).toBe(
      'option:VOTE_OPTION_YES weight:"1.5" : invalid vote option',
    );
    expect(text(castWeighted(c, id, bob, [[VoteOption.YES, "abc"]]).result)).toBe(
      'option:VOTE_OPTION_YES weight:"abc" : invalid vote option',
    );
    expect(
      text(
        castWeighted(c, id, bob, [
          [VoteOption.YES, "0.5"],
          [VoteOption.YES, "0.5"],
        ]).result,
      ),
    ).toBe("duplicated vote option: invalid vote option");
    expect(
      text(
        castWeighted(c, id, bob, [
          [VoteOption.YES, "0.6"],
          [VoteOption.NO, "0.5"],
        ]).result,
      ),
    ).toBe("total weight overflow 1.00: invalid vote option");
    expect(
      text(
        castWeighted(c, id, bob, [
          [VoteOption.YES, "0.5"],
          [VoteOption.NO, "0.4"],
        ]).result,
      ),
    ).toBe("total weight lower than 1.00: invalid vote option");
  });

  it("names each option by its Go enum name in the error of an invalid weight", () => {
    const c = new TestChain();
    const id = c.submitActive();
    const names: [number, string][] = [
      [VoteOption.YES, "VOTE_OPTION_YES"],
      [VoteOption.ABSTAIN, "VOTE_OPTION_ABSTAIN"],
      [VoteOption.NO, "VOTE_OPTION_NO"],
      [VoteOption.NO_WITH_VETO, "VOTE_OPTION_NO_WITH_VETO"],
    ];
    for (const [option, name] of names)
      expect(text(castWeighted(c, id, bob, [[option, "2"]]).result)).toBe(
        `option:${name} weight:"2" : invalid vote option`,
      );
  });

  it("leaves a zero option or an empty weight out of the option's text, as gogoproto's compact text does", () => {
    const c = new TestChain();
    const id = c.submitActive();
    expect(text(castWeighted(c, id, bob, [[VoteOption.UNSPECIFIED, "1"]]).result)).toBe(
      'weight:"1" : invalid vote option',
    );
    expect(text(castWeighted(c, id, bob, [[VoteOption.YES, ""]]).result)).toBe(
      "option:VOTE_OPTION_YES : invalid vote option",
    );
  });
});
