import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import {
  addCoins,
  type Coin,
  type Coins,
  coinString,
  coinsFromProto,
  coinsToProto,
  formatCoins,
  isAllGTE,
  isZeroCoins,
  subCoins,
  validateCoins,
} from "../bank/coins.js";
import { addressOfName } from "../core/address.js";
import { type DurationMs, unixMs } from "../core/brand.js";
import type { Ctx } from "../core/context.js";
import { type ChainError, err, ok, type Result, SdkErrors, wrap } from "../core/errors.js";
import { DepositSchema, type Proposal, ProposalStatus } from "../gen/chain/gov/v1/gov_pb.js";
import { type MsgDeposit, type MsgDepositResponse, MsgDepositResponseSchema } from "../gen/chain/gov/v1/tx_pb.js";
import { addressProblem } from "./address-check.js";
import { Dec } from "./dec.js";
import { DISTRIBUTION_MODULE, GOV_MODULE, type GovDeps } from "./deps.js";
import { GovErrors, proposalNotInStore } from "./errors.js";
import { proposalDepositEvent, votingPeriodStartEvent } from "./events.js";
import { type GovParams, minDepositFor, readParams } from "./params.js";
import {
  deleteDeposit,
  depositsOf,
  getDeposit,
  getProposal,
  msOf,
  queueInsert,
  queueRemove,
  setDeposit,
  setProposal,
} from "./store.js";

/** Coins read back from state (written by this module, so always well-formed). */
export const storedCoins = (coins: readonly { denom: string; amount: string }[]): Coins =>
  coins.map((c) => ({ denom: c.denom, amount: BigInt(c.amount) }));

/**
 * Deposit denoms must all be listed in `min_deposit` (always the regular one):
 * `deposited <amount>, but gov accepts only the following denom(s): [<denoms>]`.
 */
export function validateDepositDenom(params: GovParams, amount: Coins): Result<void, ChainError> {
  const accepted = params.minDeposit.map((c) => c.denom);
  for (const c of amount) {
    if (!accepted.includes(c.denom)) {
      return err(
        wrap(
          GovErrors.ErrInvalidDepositDenom,
          `deposited ${formatCoins(amount)}, but gov accepts only the following denom(s): [${accepted.join(" ")}]`,
        ),
      );
    }
  }
  return ok(undefined);
}

/**
 * `min_deposit_ratio` (when non-zero): for at least one denom of the proposal's minimum deposit, this deposit must
 * reach `truncate(min × ratio)`. Applies to every deposit, the initial one included.
 */
function checkMinDepositRatio(params: GovParams, minDeposit: Coins, amount: Coins): Result<void, ChainError> {
  if (params.minDepositRatio.isZero()) return ok(undefined);
  const thresholds: string[] = [];
  for (const min of minDeposit) {
    const threshold: Coin = {
      denom: min.denom,
      amount: Dec.fromInt(min.amount).mul(params.minDepositRatio).truncateInt(),
    };
    thresholds.push(coinString(threshold));
    const found = amount.find((c) => c.denom === min.denom);
    if (found === undefined) continue;
    if (found.amount >= threshold.amount) return ok(undefined);
  }
  return err(
    wrap(
      GovErrors.ErrMinDepositTooSmall,
      `received ${formatCoins(amount)} but need at least one of the following: ${thresholds.join(",")}`,
    ),
  );
}

/** Starts voting now: end = now + (expedited ? expedited_voting_period : voting_period); moves queues. */
export function activateVotingPeriod(ctx: Ctx, proposal: Proposal, params: GovParams): void {
  const start = ctx.time;
  const period: DurationMs = proposal.expedited ? params.expeditedVotingPeriodMs : params.votingPeriodMs;
  const end = unixMs(start + period);
  proposal.votingStartTime = timestampFromMs(start);
  proposal.votingEndTime = timestampFromMs(end);
  proposal.status = ProposalStatus.VOTING_PERIOD;
  setProposal(ctx, proposal);
  // Stryker disable next-line StringLiteral: the store keys every queue name but "active" to the inactive queue
  queueRemove(ctx, "inactive", msOf(proposal.depositEndTime), proposal.id);
  queueInsert(ctx, "active", end, proposal.id);
}

/**
 * `AddDeposit`: moves `amount` from the depositor to the gov module account, accumulates the proposal's total and
 * the depositor's record, and starts voting inside this transaction once the total covers every denom of the
 * minimum deposit. Returns whether voting started. Emits `proposal_deposit{amount, proposal_id}`.
 */
export function addDeposit(
  d: GovDeps,
  ctx: Ctx,
  id: bigint,
  depositor: string,
  amount: Coins,
): Result<boolean, ChainError> {
  const proposal = getProposal(ctx, id);
  if (proposal === undefined) return err(proposalNotInStore(id));
  if (proposal.status !== ProposalStatus.DEPOSIT_PERIOD && proposal.status !== ProposalStatus.VOTING_PERIOD) {
    return err(wrap(GovErrors.ErrInactiveProposal, `${id}`));
  }
  const params = readParams(ctx);
  if (!params.ok) return params;
  const minDeposit = minDepositFor(params.value, proposal.expedited);
  const denoms = validateDepositDenom(params.value, amount);
  if (!denoms.ok) return denoms;
  const ratio = checkMinDepositRatio(params.value, minDeposit, amount);
  if (!ratio.ok) return ratio;

  const moved = d.bank.sendToModule(ctx, depositor, GOV_MODULE, amount);
  if (!moved.ok) return moved;

  const total = addCoins(storedCoins(proposal.totalDeposit), amount);
  proposal.totalDeposit = coinsToProto(total);
  setProposal(ctx, proposal);

  let votingStarted = false;
  if (proposal.status === ProposalStatus.DEPOSIT_PERIOD && isAllGTE(total, minDeposit)) {
    activateVotingPeriod(ctx, proposal, params.value);
    votingStarted = true;
  }

  const existing = getDeposit(ctx, id, depositor);
  const record = create(DepositSchema, {
    proposalId: id,
    depositor,
    amount: coinsToProto(existing === undefined ? amount : addCoins(storedCoins(existing.amount), amount)),
  });
  ctx.emit(proposalDepositEvent(formatCoins(amount), id));
  setDeposit(ctx, record);
  return ok(votingStarted);
}

/**
 * MsgDeposit: depositor address, amount valid and non-empty (`<coins>: invalid coins`), then `addDeposit`; when
 * that starts voting, `proposal_deposit{voting_period_start}` follows.
 */
export function deposit(d: GovDeps, ctx: Ctx, msg: MsgDeposit): Result<MsgDepositResponse, ChainError> {
  const problem = addressProblem(msg.depositor, d.bech32Prefix);
  if (problem !== undefined) return err(wrap(SdkErrors.ErrInvalidAddress, `invalid depositor address: ${problem}`));
  const amount = coinsFromProto(msg.amount);
  if (!amount.ok) return err(wrap(SdkErrors.ErrInvalidCoins, amount.error));
  if (amount.value.length === 0 || !validateCoins(amount.value).ok) {
    return err(wrap(SdkErrors.ErrInvalidCoins, formatCoins(amount.value)));
  }
  const started = addDeposit(d, ctx, msg.proposalId, msg.depositor, amount.value);
  if (!started.ok) return started;
  if (started.value) ctx.emit(votingPeriodStartEvent("proposal_deposit", msg.proposalId));
  return ok(create(MsgDepositResponseSchema));
}

/** Returns every deposit of the proposal to its depositor and deletes the records. */
export function refundAndDeleteDeposits(d: GovDeps, ctx: Ctx, id: bigint): Result<void, ChainError> {
  for (const deposit of depositsOf(ctx, id)) {
    const sent = d.bank.sendFromModule(ctx, GOV_MODULE, deposit.depositor, storedCoins(deposit.amount));
    if (!sent.ok) return sent;
    deleteDeposit(ctx, deposit);
  }
  return ok(undefined);
}

/** Deletes every deposit record of the proposal and burns their sum from the gov module account. */
export function deleteAndBurnDeposits(d: GovDeps, ctx: Ctx, id: bigint): Result<void, ChainError> {
  let sum: Coins = [];
  for (const deposit of depositsOf(ctx, id)) {
    sum = addCoins(sum, storedCoins(deposit.amount));
    deleteDeposit(ctx, deposit);
  }
  return d.bank.burn(ctx, GOV_MODULE, sum);
}

/**
 * Cancellation charge: from every deposit, `truncate(amount × rate)` per coin is withheld and the rest refunded.
 * The withheld sum is burned when `dest` is empty, funds the community pool (the distribution module account)
 * when `dest` is that module's address, and goes to `dest` otherwise.
 */
export function chargeDeposits(d: GovDeps, ctx: Ctx, id: bigint, dest: string, rate: Dec): Result<Coins, ChainError> {
  let charges: Coins = [];
  for (const deposit of depositsOf(ctx, id)) {
    const amount = storedCoins(deposit.amount);
    const withheld = amount.map((c) => ({ denom: c.denom, amount: Dec.fromInt(c.amount).mul(rate).truncateInt() }));
    const remaining = subCoins(amount, withheld) ?? [];
    charges = addCoins(charges, withheld);
    if (!isZeroCoins(remaining)) {
      const sent = d.bank.sendFromModule(ctx, GOV_MODULE, deposit.depositor, remaining);
      if (!sent.ok) return sent;
    }
    deleteDeposit(ctx, deposit);
  }
  if (!isZeroCoins(charges)) {
    const moved =
      dest === ""
        ? d.bank.burn(ctx, GOV_MODULE, charges)
        : dest === addressOfName(DISTRIBUTION_MODULE, d.bech32Prefix)
          ? d.bank.sendFromModule(ctx, GOV_MODULE, addressOfName(DISTRIBUTION_MODULE, d.bech32Prefix), charges)
          : d.bank.sendFromModule(ctx, GOV_MODULE, dest, charges);
    if (!moved.ok) return moved;
  }
  return ok(charges);
}
