import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { addressOfName } from "../core/address.js";
import { type Params, ParamsSchema } from "../gen/chain/gov/v1/gov_pb.js";
import { protoDuration } from "./duration.js";
import { defaultParams, parseParams } from "./params.js";

const withChange = (change: Partial<Params>): Params => create(ParamsSchema, { ...defaultParams(), ...change });
const problem = (p: Params): string => {
  const r = parseParams(p);
  return r.ok ? "ok" : r.error.message;
};

describe("gov params", () => {
  it("defaults are the v0.50 values", () => {
    const p = defaultParams();
    expect(p.minDeposit.map((c) => `${c.amount}${c.denom}`)).toEqual(["10000000stake"]);
    expect(p.expeditedMinDeposit.map((c) => `${c.amount}${c.denom}`)).toEqual(["50000000stake"]);
    expect(p.maxDepositPeriod?.seconds).toBe(172_800n);
    expect(p.votingPeriod?.seconds).toBe(172_800n);
    expect(p.expeditedVotingPeriod?.seconds).toBe(86_400n);
    expect([p.quorum, p.threshold, p.expeditedThreshold, p.vetoThreshold]).toEqual([
      "0.334000000000000000",
      "0.500000000000000000",
      "0.667000000000000000",
      "0.334000000000000000",
    ]);
    expect([p.minInitialDepositRatio, p.minDepositRatio, p.proposalCancelRatio, p.proposalCancelDest]).toEqual([
      "0.000000000000000000",
      "0.010000000000000000",
      "0.500000000000000000",
      "",
    ]);
    expect([p.burnProposalDepositPrevote, p.burnVoteQuorum, p.burnVoteVeto]).toEqual([false, false, true]);
    expect(problem(p)).toBe("ok");
  });

  it("requires expedited_voting_period < voting_period", () => {
    expect(problem(withChange({ expeditedVotingPeriod: protoDuration(172_800_000) }))).toBe(
      "expedited voting period 48h0m0s must be strictly less than the regular voting period 48h0m0s",
    );
    expect(problem(withChange({ expeditedVotingPeriod: protoDuration(172_799_000) }))).toBe("ok");
  });

  it("requires expedited_threshold > threshold", () => {
    expect(problem(withChange({ expeditedThreshold: "0.5" }))).toBe(
      "expedited vote threshold 0.500000000000000000, must be greater than the regular threshold 0.500000000000000000",
    );
  });

  it("requires expedited_min_deposit > min_deposit", () => {
    const p = defaultParams();
    expect(problem(withChange({ expeditedMinDeposit: p.minDeposit }))).toBe(
      "expedited minimum deposit must be greater than minimum deposit: 10000000stake",
    );
  });

  it("checks ratio ranges and the cancel destination", () => {
    expect(problem(withChange({ quorum: "1.1" }))).toBe("quorum too large: 1.1");
    expect(problem(withChange({ quorum: "-0.1" }))).toBe("quorum cannot be negative: -0.100000000000000000");
    expect(problem(withChange({ threshold: "0" }))).toBe("vote threshold must be positive: 0.000000000000000000");
    expect(problem(withChange({ vetoThreshold: "x" }))).toContain("invalid vetoThreshold string: ");
    expect(problem(withChange({ proposalCancelRatio: "2" }))).toBe(
      "burn rate of cancel proposal is too large: 2.000000000000000000",
    );
    expect(problem(withChange({ proposalCancelDest: "nope" }))).toBe("deposits destination address is invalid: nope");
    expect(problem(withChange({ proposalCancelDest: addressOfName("distribution") }))).toBe("ok");
    expect(problem(withChange({ minDeposit: [] }))).toBe("invalid minimum deposit: ");
    expect(problem(withChange({ votingPeriod: protoDuration(0) }))).toBe("voting period must be positive: 0s");
  });
});
