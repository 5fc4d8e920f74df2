import { describe, expect, it } from "vitest";
import {
  deliverGovTx,
  endGovBlock,
  type GovModelParams,
  heldDeposits,
  initialGovModel,
  mulFloor,
} from "./gov-model.js";
import { DEFAULT_TALLY_PARAMS } from "./gov-tally.js";

const P: GovModelParams = {
  tally: DEFAULT_TALLY_PARAMS,
  powers: new Map(["a", "b", "c", "d"].map((v) => [v, 100])),
  minDeposit: 100n,
  expeditedMinDeposit: 500n,
  maxDepositPeriodMs: 60_000,
  votingPeriodMs: 60_000,
  expeditedVotingPeriodMs: 30_000,
  cancelRatio: "0.5",
  cancelBurns: true,
  burnPrevote: false,
};

describe("the gov lifecycle model", () => {
  it("numbers proposals from 1 and starts voting in the transaction whose deposit reaches the minimum", () => {
    const s = initialGovModel();
    expect(deliverGovTx(s, P, 0, { kind: "submit", proposer: "a", deposit: 10n, expedited: false })).toEqual({
      ok: true,
      events: [{ kind: "submitted", id: 1n }],
    });
    expect(deliverGovTx(s, P, 6000, { kind: "vote", id: 1n, voter: "a", option: "yes" })).toEqual({
      ok: false,
      error: "1: inactive proposal",
    });
    expect(deliverGovTx(s, P, 6000, { kind: "deposit", id: 1n, depositor: "b", amount: 90n })).toEqual({
      ok: true,
      events: [{ kind: "voting-started", id: 1n }],
    });
    expect(s.open.get(1n)?.votingEndMs).toBe(66_000);
    expect(heldDeposits(s)).toBe(100n);
    expect(heldDeposits(s, "b")).toBe(90n);
  });

  it("drops a proposal at its deposit end (deadline inclusive), refunding unless burn_proposal_deposit_prevote", () => {
    for (const burnPrevote of [false, true]) {
      const s = initialGovModel();
      deliverGovTx(s, { ...P, burnPrevote }, 0, { kind: "submit", proposer: "a", deposit: 10n, expedited: false });
      expect(endGovBlock(s, { ...P, burnPrevote }, 59_999)).toEqual([]);
      expect(endGovBlock(s, { ...P, burnPrevote }, 60_000)).toEqual([{ kind: "dropped", id: 1n }]);
      expect(s.burned).toBe(burnPrevote ? 10n : 0n);
    }
  });

  it("decides at the voting end in (end, id) order; a vetoed proposal's deposits burn from each depositor", () => {
    const s = initialGovModel();
    deliverGovTx(s, P, 0, { kind: "submit", proposer: "a", deposit: 100n, expedited: false });
    deliverGovTx(s, P, 0, { kind: "submit", proposer: "b", deposit: 500n, expedited: true });
    for (const voter of ["a", "b"]) deliverGovTx(s, P, 6000, { kind: "vote", id: 1n, voter, option: "no_with_veto" });
    for (const voter of ["a", "b", "c"]) deliverGovTx(s, P, 6000, { kind: "vote", id: 2n, voter, option: "yes" });
    const decided = endGovBlock(s, P, 60_000);
    expect(decided.map((d) => [d.kind, d.id])).toEqual([
      ["passes", 2n],
      ["rejected", 1n],
    ]);
    expect(s.lostFrom).toEqual(new Map([["a", 100n]]));
    expect(s.open.size).toBe(0);
  });

  it("lets an expedited proposal that misses fall back with its votes deleted, then tallies it at the regular end", () => {
    const s = initialGovModel();
    deliverGovTx(s, P, 0, { kind: "submit", proposer: "a", deposit: 500n, expedited: true });
    // Two thirds yes: above the regular threshold, below the expedited one (0.667).
    for (const voter of ["a", "b"]) deliverGovTx(s, P, 6000, { kind: "vote", id: 1n, voter, option: "yes" });
    deliverGovTx(s, P, 6000, { kind: "vote", id: 1n, voter: "c", option: "no" });
    expect(endGovBlock(s, P, 30_000).map((d) => d.kind)).toEqual(["expedited-fallback"]);
    expect(s.open.get(1n)?.votes).toEqual([]);
    expect(s.open.get(1n)?.votingEndMs).toBe(60_000);
    expect(endGovBlock(s, P, 60_000).map((d) => d.kind)).toEqual(["rejected"]);
    expect(s.burned).toBe(0n);
  });

  it("accepts a cancel by the proposer up to the voting end itself, withholding floor(deposit × ratio)", () => {
    const s = initialGovModel();
    deliverGovTx(s, P, 0, { kind: "submit", proposer: "a", deposit: 101n, expedited: false });
    expect(deliverGovTx(s, P, 1000, { kind: "cancel", id: 1n, proposer: "b" })).toEqual({
      ok: false,
      error: "invalid proposer b: invalid proposer",
    });
    const late = initialGovModel();
    deliverGovTx(late, P, 0, { kind: "submit", proposer: "a", deposit: 100n, expedited: false });
    expect(deliverGovTx(late, P, 60_001, { kind: "cancel", id: 1n, proposer: "a" })).toEqual({
      ok: false,
      error: "voting period is already ended for this proposal 1: voting period already ended",
    });
    expect(deliverGovTx(s, P, 60_000, { kind: "cancel", id: 1n, proposer: "a" })).toEqual({
      ok: true,
      events: [{ kind: "cancelled", id: 1n }],
    });
    expect(s.burned).toBe(mulFloor(101n, "0.5"));
    expect(s.burned).toBe(50n);
    const paid = initialGovModel();
    const toPool = { ...P, cancelBurns: false, cancelRatio: "1" };
    deliverGovTx(paid, toPool, 0, { kind: "submit", proposer: "a", deposit: 100n, expedited: false });
    deliverGovTx(paid, toPool, 0, { kind: "cancel", id: 1n, proposer: "a" });
    expect([paid.burned, paid.paid, paid.lostFrom.get("a")]).toEqual([0n, 100n, 100n]);
  });

  it("refuses transactions on proposals no longer open with the reference's texts: stored when decided, gone when dropped", () => {
    const s = initialGovModel();
    deliverGovTx(s, P, 0, { kind: "submit", proposer: "a", deposit: 100n, expedited: false });
    deliverGovTx(s, P, 0, { kind: "submit", proposer: "a", deposit: 1n, expedited: false });
    endGovBlock(s, P, 60_000); // 1 is rejected (no votes), 2 is dropped
    expect(deliverGovTx(s, P, 66_000, { kind: "deposit", id: 1n, depositor: "b", amount: 5n })).toEqual({
      ok: false,
      error: "1: inactive proposal",
    });
    expect(deliverGovTx(s, P, 66_000, { kind: "deposit", id: 2n, depositor: "b", amount: 5n })).toEqual({
      ok: false,
      error: "collections: not found: key '2' of type github.com/cosmos/gogoproto/chain.gov.v1.Proposal",
    });
    expect(deliverGovTx(s, P, 66_000, { kind: "cancel", id: 1n, proposer: "b" })).toMatchObject({
      error: "invalid proposer b: invalid proposer",
    });
    expect(deliverGovTx(s, P, 66_000, { kind: "cancel", id: 1n, proposer: "a" })).toMatchObject({
      error: "proposal should be in the deposit or voting period: invalid proposal",
    });
    expect(deliverGovTx(s, P, 66_000, { kind: "vote", id: 2n, voter: "a", option: "yes" })).toMatchObject({
      error: "2: inactive proposal",
    });
  });
});
