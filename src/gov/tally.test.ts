import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { StoreCtx } from "../app/context.js";
import { addressOfName } from "../core/address.js";
import { height, unixMs } from "../core/brand.js";
import {
  ParamsSchema,
  ProposalSchema,
  type Vote,
  VoteOption,
  VoteSchema,
  WeightedVoteOptionSchema,
} from "../gen/chain/gov/v1/gov_pb.js";
import { MemMultiStore } from "../store/mem-multistore.js";
import { Dec } from "./dec.js";
import { defaultParams, type GovParams, parseParams } from "./params.js";
import { computeTally } from "./tally.js";
import type { BondedValidator } from "./types.js";

const ctx = new StoreCtx(new MemMultiStore(["gov", "bank"]), {
  chainId: "t",
  height: height(1),
  time: unixMs(0),
  appVersion: 0n,
});
const [v1, v2, v3, v4] = ["v1", "v2", "v3", "v4"].map((n) => addressOfName(n)) as [string, string, string, string];

function params(change: Record<string, unknown> = {}): GovParams {
  const r = parseParams(create(ParamsSchema, { ...defaultParams(), ...change }));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const vote = (voter: string, ...options: [VoteOption, string][]): Vote =>
  create(VoteSchema, {
    proposalId: 1n,
    voter,
    options: options.map(([option, weight]) => create(WeightedVoteOptionSchema, { option, weight })),
  });
const single = (voter: string, option: VoteOption) => vote(voter, [option, "1.000000000000000000"]);

function tally(validators: BondedValidator[], votes: Vote[], opts: { expedited?: boolean; params?: GovParams } = {}) {
  const proposal = create(ProposalSchema, { id: 1n, expedited: opts.expedited ?? false });
  return computeTally(ctx, { bondedValidators: () => validators }, proposal, opts.params ?? params(), votes);
}

const four = (a: bigint, b: bigint, c: bigint, d: bigint): BondedValidator[] => [
  { operator: v1, tokens: a },
  { operator: v2, tokens: b },
  { operator: v3, tokens: c },
  { operator: v4, tokens: d },
];

describe("tally decision order and comparisons", () => {
  it("no bonded stake fails without burning", () => {
    const t = tally([], [single(v1, VoteOption.YES)]);
    expect([t.passes, t.burnDeposits, t.reason]).toEqual([false, false, "no-bonded-tokens"]);
  });

  it("exactly at quorum meets quorum; just below does not", () => {
    // B = 1000; voting power 334 = 0.334 exactly.
    const at = tally(four(334n, 333n, 333n, 0n), [single(v1, VoteOption.YES)]);
    expect([at.passes, at.reason]).toEqual([true, "passed"]);
    const below = tally(four(333n, 334n, 333n, 0n), [single(v1, VoteOption.YES)]);
    expect([below.passes, below.reason, below.burnDeposits]).toEqual([false, "quorum-not-met", false]);
    const burn = tally(four(333n, 334n, 333n, 0n), [single(v1, VoteOption.YES)], {
      params: params({ burnVoteQuorum: true }),
    });
    expect(burn.burnDeposits).toBe(true);
  });

  it("all abstain fails without burning", () => {
    const t = tally(four(500n, 500n, 0n, 0n), [single(v1, VoteOption.ABSTAIN), single(v2, VoteOption.ABSTAIN)]);
    expect([t.passes, t.burnDeposits, t.reason]).toEqual([false, false, "all-abstain"]);
  });

  it("veto exactly at the threshold does not veto; above it vetoes and burns (burn_vote_veto)", () => {
    const at = tally(four(334n, 666n, 0n, 0n), [single(v1, VoteOption.NO_WITH_VETO), single(v2, VoteOption.YES)]);
    expect([at.passes, at.reason]).toEqual([true, "passed"]);
    const above = tally(four(335n, 665n, 0n, 0n), [single(v1, VoteOption.NO_WITH_VETO), single(v2, VoteOption.YES)]);
    expect([above.passes, above.burnDeposits, above.reason]).toEqual([false, true, "vetoed"]);
    const noBurn = tally(four(335n, 665n, 0n, 0n), [single(v1, VoteOption.NO_WITH_VETO), single(v2, VoteOption.YES)], {
      params: params({ burnVoteVeto: false }),
    });
    expect([noBurn.reason, noBurn.burnDeposits]).toEqual(["vetoed", false]);
  });

  it("abstain counts in the veto denominator", () => {
    // veto 300 of T = 1000 (400 abstain) = 0.3 → no veto; without abstain in T it would be 0.5.
    const t = tally(four(300n, 400n, 300n, 0n), [
      single(v1, VoteOption.NO_WITH_VETO),
      single(v2, VoteOption.ABSTAIN),
      single(v3, VoteOption.YES),
    ]);
    expect(t.reason).toBe("threshold-not-met");
  });

  it("exactly 50% yes fails; just above passes", () => {
    const half = tally(four(500n, 500n, 0n, 0n), [single(v1, VoteOption.YES), single(v2, VoteOption.NO)]);
    expect([half.passes, half.reason, half.burnDeposits]).toEqual([false, "threshold-not-met", false]);
    const more = tally(four(501n, 499n, 0n, 0n), [single(v1, VoteOption.YES), single(v2, VoteOption.NO)]);
    expect(more.passes).toBe(true);
  });

  it("abstain is excluded from the threshold denominator", () => {
    // yes 300 / (1000 − 500 abstain) = 0.6 > 0.5.
    const t = tally(four(300n, 200n, 500n, 0n), [
      single(v1, VoteOption.YES),
      single(v2, VoteOption.NO),
      single(v3, VoteOption.ABSTAIN),
    ]);
    expect(t.passes).toBe(true);
  });

  it("expedited proposals need more than expedited_threshold", () => {
    const votes = [single(v1, VoteOption.YES), single(v2, VoteOption.NO)];
    const at = tally(four(667n, 333n, 0n, 0n), votes, { expedited: true });
    expect([at.passes, at.reason]).toEqual([false, "threshold-not-met"]);
    const regular = tally(four(667n, 333n, 0n, 0n), votes, { expedited: false });
    expect(regular.passes).toBe(true);
    const above = tally(four(668n, 332n, 0n, 0n), votes, { expedited: true });
    expect(above.passes).toBe(true);
  });

  it("only bonded validators carry power; weighted votes split it; counts are truncated", () => {
    const nonValidator = addressOfName("alice");
    const t = tally(four(3n, 0n, 0n, 0n), [
      vote(v1, [VoteOption.YES, "0.333333333333333333"], [VoteOption.NO, "0.666666666666666667"]),
      single(nonValidator, VoteOption.NO_WITH_VETO),
    ]);
    expect(t.totalBonded).toBe(3n);
    expect(t.totalPower.toString()).toBe("3.000000000000000000");
    expect(t.yes.toString()).toBe("0.999999999999999999");
    expect(t.no.toString()).toBe("2.000000000000000001");
    expect(t.noWithVeto.eq(Dec.ZERO)).toBe(true);
    expect(t.counts).toEqual({ yes: 0n, abstain: 0n, no: 2n, noWithVeto: 0n });
    expect(t.reason).toBe("threshold-not-met");
  });
});
