import { describe, expect, it } from "vitest";
import { depositFate, type GovVoteOption, DEFAULT_TALLY_PARAMS as P, tally } from "./gov-tally.js";

const four = new Map([
  ["val1", 100],
  ["val2", 100],
  ["val3", 100],
  ["val4", 100],
]);
const v = (...xs: [string, GovVoteOption][]) => xs;

describe("the gov tally, in the reference's decision order", () => {
  it("passes with three of four yes, and refunds the deposits", () => {
    const o = tally(v(["val1", "yes"], ["val2", "yes"], ["val3", "yes"]), four, P, false);
    expect(o).toMatchObject({ passes: true, reason: "passed", burnDeposits: false });
    expect(o.result).toEqual({ yes: 300n, abstain: 0n, no: 0n, no_with_veto: 0n });
    expect(depositFate(o, false)).toBe("refund");
  });

  it("fails at exactly 50% yes: the threshold is strict", () => {
    expect(tally(v(["val1", "yes"], ["val2", "yes"], ["val3", "no"], ["val4", "no"]), four, P, false).reason).toBe(
      "threshold-not-met",
    );
  });

  it("vetoes above 33.4% of all voting power, abstain included, and burns the deposits (burn_vote_veto)", () => {
    const o = tally(v(["val1", "no_with_veto"], ["val2", "no_with_veto"], ["val3", "yes"]), four, P, false);
    expect(o).toMatchObject({ passes: false, reason: "vetoed", burnDeposits: true });
    expect(depositFate(o, false)).toBe("burn");
  });

  it("does not veto at exactly the veto threshold", () => {
    const powers = new Map([
      ["a", 334],
      ["b", 666],
    ]);
    expect(tally(v(["a", "no_with_veto"], ["b", "yes"]), powers, P, false).reason).toBe("passed");
  });

  it("misses quorum below 33.4% of the bonded power, and refunds (burn_vote_quorum is off by default)", () => {
    const o = tally(v(["val4", "yes"]), four, P, false);
    expect(o).toMatchObject({ reason: "no-quorum", burnDeposits: false });
    expect(depositFate(o, false)).toBe("refund");
    expect(tally(v(["val4", "yes"]), four, { ...P, burnVoteQuorum: true }, false).burnDeposits).toBe(true);
  });

  it("meets quorum at exactly the quorum value", () => {
    const powers = new Map([
      ["a", 334],
      ["b", 666],
    ]);
    expect(tally(v(["a", "yes"]), powers, P, false).reason).toBe("passed");
  });

  it("fails when every vote abstains, and with no bonded power at all", () => {
    expect(tally(v(["val1", "abstain"], ["val2", "abstain"]), four, P, false).reason).toBe("all-abstain");
    expect(tally(v(["x", "yes"]), new Map(), P, false).reason).toBe("no-bonded-power");
  });

  it("counts only the latest vote of a voter, and no power for a non-validator", () => {
    const o = tally(v(["val1", "no"], ["val2", "yes"], ["val1", "yes"], ["alice", "no"]), four, P, false);
    expect(o.result).toEqual({ yes: 200n, abstain: 0n, no: 0n, no_with_veto: 0n });
    expect(o.reason).toBe("passed");
  });

  it("applies the expedited threshold to expedited proposals, and keeps their deposits when they fall back", () => {
    const threeOfFour = v(["val1", "yes"], ["val2", "yes"], ["val3", "yes"]);
    expect(tally(threeOfFour, four, P, true).passes).toBe(true);
    const twoOfThree = v(["val1", "yes"], ["val2", "yes"], ["val3", "no"]);
    expect(tally(twoOfThree, four, P, false).passes).toBe(true);
    const expedited = tally(twoOfThree, four, P, true);
    expect(expedited.passes).toBe(false);
    expect(depositFate(expedited, true)).toBe("keep");
  });
});
