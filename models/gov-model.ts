/**
 * The governance lifecycle, written from the specification (docs/fidelity.md §3) independently of `src/gov`: which
 * gov transactions succeed, when a proposal enters voting, is dropped, cancelled or decided, and where its deposits
 * go. The harness steps it with the transactions it sent, in the blocks they landed in, and compares what it
 * predicts with what the chain did.
 *
 * Scope (the property worlds): validators vote with their whole power, `min_deposit` names one denom, the
 * accounts' balances change only by gov deposits, refunds, burns and cancel charges, submissions are well formed (a
 * title, messages or metadata, the gov authority as signer, an initial deposit the proposer holds), and
 * `options.expeditedFallbackVotes` is `delete` (the reference's behaviour). Under that scope:
 * - a submission succeeds, gets the next id (from 1), and its deposit ends `max_deposit_period` after its block;
 * - a deposit succeeds on a proposal in its deposit or voting period when its coins are valid and non-empty, all in
 *   the min_deposit denom, at least `floor(minimum × min_deposit_ratio)` (the proposal's minimum: expedited or
 *   regular; no floor when the ratio is zero) and no more than the depositor's balance (its genesis balance less its
 *   deposits held and lost); reaching the minimum starts voting in that transaction;
 * - a vote succeeds on a proposal in its voting period; a voter's later vote replaces the earlier one;
 * - a cancel succeeds for the proposer, in the deposit or voting period, unless the voting end is strictly before the
 *   block time; each deposit's `floor(amount × proposal_cancel_ratio)` is withheld (burned without a destination,
 *   otherwise paid to it);
 * - a refused transaction fails with the reference's error text (x/gov v0.50 keeper: AddVote, AddDeposit,
 *   CancelProposal, whose checks run in that order): see `refusal`;
 * - the EndBlocker first drops every proposal still in its deposit period whose deposit end ≤ the block time (its
 *   deposits refunded, or burned with `burn_proposal_deposit_prevote`), then decides every proposal whose voting
 *   end ≤ the block time, in (voting end, id) order, by models/gov-tally.ts.
 *
 * The state is advanced in place (one per session); every function documents what it changes. Pure otherwise.
 */

import { depositFate, type GovVoteOption, type TallyOutcome, type TallyParams, tally } from "./gov-tally.js";

export interface GovModelParams {
  readonly tally: TallyParams;
  /** Validator account address → voting power. */
  readonly powers: ReadonlyMap<string, number>;
  /** The one denom of `min_deposit`: a deposit in any other is refused. */
  readonly denom: string;
  readonly minDeposit: bigint;
  readonly expeditedMinDeposit: bigint;
  /** `min_deposit_ratio`, a decimal string: each deposit must reach this share of the proposal's minimum. */
  readonly minDepositRatio: string;
  /** Each depositor's genesis balance in `denom` (an account not listed holds nothing). */
  readonly genesisBalances: ReadonlyMap<string, bigint>;
  readonly maxDepositPeriodMs: number;
  readonly votingPeriodMs: number;
  readonly expeditedVotingPeriodMs: number;
  /** `proposal_cancel_ratio`, a decimal string. */
  readonly cancelRatio: string;
  /** True when `proposal_cancel_dest` is empty: the withheld share is burned. */
  readonly cancelBurns: boolean;
  readonly burnPrevote: boolean;
}

export interface ModelProposal {
  readonly id: bigint;
  readonly proposer: string;
  expedited: boolean;
  readonly depositEndMs: number;
  /** Deposits held, by depositor. */
  readonly deposits: Map<string, bigint>;
  votes: [voter: string, option: GovVoteOption][];
  /** Null while in the deposit period. */
  votingStartMs: number | null;
  votingEndMs: number | null;
}

export interface GovModelState {
  nextId: bigint;
  /** Proposals in their deposit or voting period, by id. */
  readonly open: Map<bigint, ModelProposal>;
  /** Decided proposals (still stored: PASSED, REJECTED or FAILED), id → proposer. Dropped and cancelled ones are deleted. */
  readonly closed: Map<bigint, string>;
  /** Deposits burned so far. */
  burned: bigint;
  /** Withheld cancel charges sent to `proposal_cancel_dest` so far. */
  paid: bigint;
  /** By depositor: the deposits that never came back (burned, or withheld for the cancel destination). */
  readonly lostFrom: Map<string, bigint>;
}

export const initialGovModel = (): GovModelState => ({
  nextId: 1n,
  open: new Map(),
  closed: new Map(),
  burned: 0n,
  paid: 0n,
  lostFrom: new Map(),
});

/** A transaction's outcome: success, with what it did to proposals, or the reference's error text. */
export type GovTxResult =
  | { readonly ok: true; readonly events: readonly GovPrediction[] }
  | { readonly ok: false; readonly error: string };

/**
 * The texts of the reference's refusals. A proposal no longer in the store (dropped, cancelled, never submitted)
 * is the collections map's own not-found error for AddDeposit and CancelProposal; AddVote checks only the voting
 * queue, so any proposal not in its voting period is inactive to it.
 */
export const refusal = {
  notFound: (id: bigint) =>
    `collections: not found: key '${id}' of type github.com/cosmos/gogoproto/chain.gov.v1.Proposal`,
  inactive: (id: bigint) => `${id}: inactive proposal`,
  invalidProposer: (sender: string) => `invalid proposer ${sender}: invalid proposer`,
  notOpen: () => "proposal should be in the deposit or voting period: invalid proposal",
  votingEnded: (id: bigint) => `voting period is already ended for this proposal ${id}: voting period already ended`,
  /** The msg server's `validateDeposit`: not IsValid, or not IsAllPositive (an empty deposit prints as ""). */
  invalidCoins: (coins: readonly ModelCoin[]) => `${coinsText(coins)}: invalid coins`,
  /** AddDeposit's `validateDepositDenom`: the deposit, then every denom of min_deposit (Go's `%v` of a slice). */
  depositDenom: (coins: readonly ModelCoin[], accepted: readonly string[]) =>
    `deposited ${coinsText(coins)}, but gov accepts only the following denom(s): [${accepted.join(" ")}]: invalid deposit denom`,
  /** AddDeposit's min_deposit_ratio check: the deposit, then the threshold of every denom of the minimum. */
  belowRatio: (coins: readonly ModelCoin[], thresholds: readonly ModelCoin[]) =>
    `received ${coinsText(coins)} but need at least one of the following: ${thresholds.map(coinText).join(",")}: minimum deposit is too small`,
  /**
   * The bank's `subUnlockedCoins` (x/bank/keeper/send.go), for the first coin the balance does not cover. Its
   * spendable Coins would print a zero balance as "", but the keeper replaces an empty one by the zero coin of the
   * denom, so it prints `0<denom>`.
   */
  insufficientFunds: (spendable: ModelCoin, wanted: ModelCoin) =>
    `spendable balance ${coinText(spendable)} is smaller than ${coinText(wanted)}: insufficient funds`,
} as const;

/** A coin of a transaction, as the reference prints it: `<amount><denom>`. */
export interface ModelCoin {
  readonly denom: string;
  readonly amount: bigint;
}
const coinText = (c: ModelCoin): string => `${c.amount}${c.denom}`;
/** `sdk.Coins.String()`: the coins joined by "," (the empty Coins: ""). */
const coinsText = (coins: readonly ModelCoin[]): string => coins.map(coinText).join(",");

const refused = (error: string): GovTxResult => ({ ok: false, error });

/** A gov transaction as the harness sent it. */
export type GovTx =
  | { readonly kind: "submit"; readonly proposer: string; readonly deposit: bigint; readonly expedited: boolean }
  | { readonly kind: "deposit"; readonly id: bigint; readonly depositor: string; readonly coins: readonly ModelCoin[] }
  | { readonly kind: "vote"; readonly id: bigint; readonly voter: string; readonly option: GovVoteOption }
  | { readonly kind: "cancel"; readonly id: bigint; readonly proposer: string };

/** What the model says happened to a proposal in a block, in the chain's vocabulary of gov events. */
export type GovPrediction =
  | { readonly kind: "submitted" | "voting-started" | "dropped" | "cancelled"; readonly id: bigint }
  /** Passes (then executes: the chain says passed, or failed when a message fails), rejected, or falls back. */
  | {
      readonly kind: "passes" | "rejected" | "expedited-fallback";
      readonly id: bigint;
      /** Whether it was tallied as an expedited proposal. */
      readonly expedited: boolean;
      readonly outcome: TallyOutcome;
      readonly votes: readonly (readonly [string, GovVoteOption])[];
    };

/** floor(amount × ratio) for a decimal ratio string. */
export function mulFloor(amount: bigint, ratio: string): bigint {
  const [whole = "0", frac = ""] = ratio.split(".");
  return (amount * BigInt(`${whole}${frac}`)) / 10n ** BigInt(frac.length);
}

/** `amount` of `from`'s deposit leaves for good: burned, or paid to the cancel destination. */
function lose(s: GovModelState, from: string, amount: bigint, to: "burn" | "pay"): void {
  if (amount === 0n) return;
  if (to === "burn") s.burned += amount;
  else s.paid += amount;
  s.lostFrom.set(from, (s.lostFrom.get(from) ?? 0n) + amount);
}
const burn = (s: GovModelState, from: string, amount: bigint): void => lose(s, from, amount, "burn");

function addDeposit(p: ModelProposal, p0: GovModelParams, from: string, amount: bigint, timeMs: number): boolean {
  if (amount > 0n) p.deposits.set(from, (p.deposits.get(from) ?? 0n) + amount);
  if (p.votingEndMs !== null) return false;
  let total = 0n;
  for (const d of p.deposits.values()) total += d;
  if (total < (p.expedited ? p0.expeditedMinDeposit : p0.minDeposit)) return false;
  p.votingStartMs = timeMs;
  p.votingEndMs = timeMs + (p.expedited ? p0.expeditedVotingPeriodMs : p0.votingPeriodMs);
  return true;
}

/** A decimal string that is zero ("0", "0.000"). */
const isZeroDecimal = (ratio: string): boolean => /^0*(\.0*)?$/.test(ratio);

/**
 * Why MsgDeposit refuses `tx`, in the reference's order, or undefined when it succeeds: the msg server's
 * `validateDeposit` (x/gov/keeper/msg_server.go), then AddDeposit (x/gov/keeper/deposit.go): the proposal exists,
 * is in its deposit or voting period, the denoms are min_deposit's, the ratio is met, and the bank moves the coins.
 */
function depositRefusal(
  s: GovModelState,
  params: GovModelParams,
  tx: Extract<GovTx, { kind: "deposit" }>,
): string | undefined {
  const sorted = tx.coins.every((c, i) => i === 0 || (tx.coins[i - 1]?.denom ?? "") < c.denom);
  if (tx.coins.length === 0 || !sorted || tx.coins.some((c) => c.amount <= 0n)) return refusal.invalidCoins(tx.coins);
  const p = s.open.get(tx.id);
  if (p === undefined) return s.closed.has(tx.id) ? refusal.inactive(tx.id) : refusal.notFound(tx.id);
  if (tx.coins.some((c) => c.denom !== params.denom)) return refusal.depositDenom(tx.coins, [params.denom]);
  // Every coin is now in the one denom: the deposit is that coin.
  const coin = tx.coins[0]!;
  const min = p.expedited ? params.expeditedMinDeposit : params.minDeposit;
  const threshold = { denom: params.denom, amount: mulFloor(min, params.minDepositRatio) };
  if (!isZeroDecimal(params.minDepositRatio) && coin.amount < threshold.amount)
    return refusal.belowRatio(tx.coins, [threshold]);
  const spendable =
    (params.genesisBalances.get(tx.depositor) ?? 0n) -
    heldDeposits(s, tx.depositor) -
    (s.lostFrom.get(tx.depositor) ?? 0n);
  if (coin.amount > spendable) return refusal.insufficientFunds({ denom: params.denom, amount: spendable }, coin);
  return undefined;
}

/**
 * Delivers one transaction in a block at `timeMs`: whether it succeeds, and what it did to proposals. Changes
 * `s` only when it succeeds.
 */
export function deliverGovTx(s: GovModelState, params: GovModelParams, timeMs: number, tx: GovTx): GovTxResult {
  switch (tx.kind) {
    case "submit": {
      const id = s.nextId++;
      const p: ModelProposal = {
        id,
        proposer: tx.proposer,
        expedited: tx.expedited,
        depositEndMs: timeMs + params.maxDepositPeriodMs,
        deposits: new Map(),
        votes: [],
        votingStartMs: null,
        votingEndMs: null,
      };
      s.open.set(id, p);
      const started = addDeposit(p, params, tx.proposer, tx.deposit, timeMs);
      return {
        ok: true,
        events: started
          ? [
              { kind: "submitted", id },
              { kind: "voting-started", id },
            ]
          : [{ kind: "submitted", id }],
      };
    }
    case "deposit": {
      const refusedAs = depositRefusal(s, params, tx);
      if (refusedAs !== undefined) return refused(refusedAs);
      const amount = tx.coins.reduce((n, c) => n + c.amount, 0n);
      const started = addDeposit(s.open.get(tx.id)!, params, tx.depositor, amount, timeMs);
      return { ok: true, events: started ? [{ kind: "voting-started", id: tx.id }] : [] };
    }
    case "vote": {
      const p = s.open.get(tx.id);
      if (p === undefined || p.votingEndMs === null) return refused(refusal.inactive(tx.id));
      p.votes.push([tx.voter, tx.option]);
      return { ok: true, events: [] };
    }
    case "cancel": {
      const p = s.open.get(tx.id);
      const proposer = p?.proposer ?? s.closed.get(tx.id);
      if (proposer === undefined) return refused(refusal.notFound(tx.id));
      if (proposer !== tx.proposer) return refused(refusal.invalidProposer(tx.proposer));
      if (p === undefined) return refused(refusal.notOpen());
      if (p.votingEndMs !== null && p.votingEndMs < timeMs) return refused(refusal.votingEnded(tx.id));
      for (const [from, amount] of p.deposits)
        lose(s, from, mulFloor(amount, params.cancelRatio), params.cancelBurns ? "burn" : "pay");
      s.open.delete(tx.id);
      return { ok: true, events: [{ kind: "cancelled", id: tx.id }] };
    }
  }
}

/**
 * The EndBlocker of a block at `timeMs`: drops, then decisions in (voting end, id) order. Changes `s`: dropped and
 * decided proposals leave `open` (a fallen-back one stays, regular, its votes deleted), burns are counted.
 */
export function endGovBlock(s: GovModelState, params: GovModelParams, timeMs: number): GovPrediction[] {
  const out: GovPrediction[] = [];
  for (const p of [...s.open.values()]) {
    if (p.votingEndMs !== null || p.depositEndMs > timeMs) continue;
    if (params.burnPrevote) for (const [from, amount] of p.deposits) burn(s, from, amount);
    s.open.delete(p.id);
    out.push({ kind: "dropped", id: p.id });
  }
  const due = [...s.open.values()]
    .filter((p) => p.votingEndMs !== null && p.votingEndMs <= timeMs)
    .sort((a, b) => (a.votingEndMs ?? 0) - (b.votingEndMs ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const p of due) {
    const outcome = tally(p.votes, params.powers, params.tally, p.expedited);
    const { votes, expedited } = p;
    if (depositFate(outcome, p.expedited) === "burn") for (const [from, amount] of p.deposits) burn(s, from, amount);
    if (outcome.passes) {
      s.open.delete(p.id);
      s.closed.set(p.id, p.proposer);
      out.push({ kind: "passes", id: p.id, expedited, outcome, votes });
    } else if (p.expedited) {
      // Falls back to a regular proposal from the same voting start; the counted votes are deleted.
      p.expedited = false;
      p.votes = [];
      p.votingEndMs = (p.votingStartMs ?? timeMs) + params.votingPeriodMs;
      out.push({ kind: "expedited-fallback", id: p.id, expedited, outcome, votes });
    } else {
      s.open.delete(p.id);
      s.closed.set(p.id, p.proposer);
      out.push({ kind: "rejected", id: p.id, expedited, outcome, votes });
    }
  }
  return out;
}

/** Deposits the open proposals hold, in all or from one depositor. */
export function heldDeposits(s: GovModelState, from?: string): bigint {
  let held = 0n;
  for (const p of s.open.values())
    for (const [who, amount] of p.deposits) if (from === undefined || who === from) held += amount;
  return held;
}
