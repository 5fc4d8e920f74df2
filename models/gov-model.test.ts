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
  denom: "stake",
  minDeposit: 100n,
  expeditedMinDeposit: 500n,
  minDepositRatio: "0.01",
  genesisBalances: new Map(["a", "b", "c", "d"].map((v) => [v, 1000n])),
  maxDepositPeriodMs: 60_000,
  votingPeriodMs: 60_000,
  expeditedVotingPeriodMs: 30_000,
  cancelRatio: "0.5",
  cancelBurns: true,
  burnPrevote: false,
};

const stake = (amount: bigint) => [{ denom: "stake", amount }];

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
    expect(deliverGovTx(s, P, 6000, { kind: "deposit", id: 1n, depositor: "b", coins: stake(90n) })).toEqual({
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
    expect(deliverGovTx(s, P, 66_000, { kind: "deposit", id: 1n, depositor: "b", coins: stake(5n) })).toEqual({
      ok: false,
      error: "1: inactive proposal",
    });
    expect(deliverGovTx(s, P, 66_000, { kind: "deposit", id: 2n, depositor: "b", coins: stake(5n) })).toEqual({
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

  describe("refuses a deposit as the reference's MsgDeposit does, and keeps nothing of it", () => {
    /** A regular proposal 1 (minimum 100: threshold 1) and an expedited 2 (minimum 500: threshold 5), by a. */
    const world = () => {
      const s = initialGovModel();
      deliverGovTx(s, P, 0, { kind: "submit", proposer: "a", deposit: 10n, expedited: false });
      deliverGovTx(s, P, 0, { kind: "submit", proposer: "a", deposit: 10n, expedited: true });
      return s;
    };
    const deposit = (s: ReturnType<typeof world>, id: bigint, coins: { denom: string; amount: bigint }[]) =>
      deliverGovTx(s, P, 6000, { kind: "deposit", id, depositor: "b", coins });

    it("an empty deposit is invalid coins, before the proposal is looked up", () => {
      const s = world();
      expect(deposit(s, 1n, [])).toEqual({ ok: false, error: ": invalid coins" });
      expect(deposit(s, 9n, [])).toEqual({ ok: false, error: ": invalid coins" });
      expect(deposit(s, 1n, stake(0n))).toEqual({ ok: false, error: "0stake: invalid coins" });
      expect(heldDeposits(s, "b")).toBe(0n);
    });

    it("a coin outside min_deposit's denoms refuses the whole deposit, listing the accepted denoms", () => {
      const s = world();
      expect(
        deposit(s, 1n, [
          { denom: "atom", amount: 1n },
          { denom: "stake", amount: 50n },
        ]),
      ).toEqual({
        ok: false,
        error: "deposited 1atom,50stake, but gov accepts only the following denom(s): [stake]: invalid deposit denom",
      });
      expect(heldDeposits(s)).toBe(20n);
    });

    it("a deposit must reach floor(min_deposit_ratio × the proposal's own minimum), inclusively", () => {
      const s = world();
      expect(deposit(s, 1n, stake(1n))).toEqual({ ok: true, events: [] });
      expect(deposit(s, 2n, stake(4n))).toEqual({
        ok: false,
        error: "received 4stake but need at least one of the following: 5stake: minimum deposit is too small",
      });
      expect(deposit(s, 2n, stake(5n))).toEqual({ ok: true, events: [] });
      // No floor at all when the ratio is zero.
      const free = initialGovModel();
      deliverGovTx(free, P, 0, { kind: "submit", proposer: "a", deposit: 10n, expedited: true });
      expect(
        deliverGovTx(free, { ...P, minDepositRatio: "0.000" }, 0, {
          kind: "deposit",
          id: 1n,
          depositor: "b",
          coins: stake(1n),
        }),
      ).toEqual({ ok: true, events: [] });
    });

    it("a deposit above the depositor's balance (genesis less what it holds in deposits and lost) is the bank's insufficient funds", () => {
      const s = world();
      expect(deposit(s, 1n, stake(1001n))).toEqual({
        ok: false,
        error: "spendable balance 1000stake is smaller than 1001stake: insufficient funds",
      });
      expect(deposit(s, 1n, stake(80n))).toMatchObject({ ok: true });
      expect(deposit(s, 2n, stake(921n))).toEqual({
        ok: false,
        error: "spendable balance 920stake is smaller than 921stake: insufficient funds",
      });
      expect(deposit(s, 2n, stake(920n))).toMatchObject({ ok: true });
      expect(deposit(s, 1n, stake(1n))).toEqual({
        ok: false,
        error: "spendable balance 0stake is smaller than 1stake: insufficient funds",
      });
      expect(heldDeposits(s, "b")).toBe(1000n);
    });
  });
});
