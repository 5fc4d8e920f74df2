/**
 * x/gov InitGenesis's proposals (reference x/gov/genesis.go InitGenesis, Cosmos SDK v0.50): the starting proposal id,
 * every deposit, every proposal put back in the queue of its period (deposit period: the inactive queue at its
 * deposit end time; voting period: the active queue at its voting end time), then the check that the gov module
 * account holds exactly the sum of the deposits (`expected module account was <balance> but we got <deposits>`; the
 * reference panics, here it is an error InitChain returns). Params are stored by `GovKeeper.initGenesis`.
 */
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { addCoins, type Coins, coinsFromProto, formatCoins } from "../bank/coins.js";
import type { BankKeeper } from "../bank/keeper.js";
import { unixMs } from "../core/brand.js";
import type { Ctx } from "../core/context.js";
import { err, ok, type PlainError, plain, type Result } from "../core/errors.js";
import { type Deposit, type Proposal, ProposalStatus } from "../gen/chain/gov/v1/gov_pb.js";
import { GOV_MODULE } from "./deps.js";
import { queueInsert, setDeposit, setNextProposalId, setProposal } from "./store.js";

/** The part of gov's genesis state that carries proposals (params aside). */
export interface GovGenesisProposals {
  readonly startingProposalId: bigint;
  readonly proposals: readonly Proposal[];
  readonly deposits: readonly Deposit[];
}

/** Writes the proposals part of gov's genesis state; checks the module account against the deposits. */
export function initGenesisProposals(ctx: Ctx, bank: BankKeeper, g: GovGenesisProposals): Result<void, PlainError> {
  setNextProposalId(ctx, g.startingProposalId);
  let total: Coins = [];
  for (const d of g.deposits) {
    setDeposit(ctx, d);
    const amount = coinsFromProto(d.amount);
    if (!amount.ok) return err(plain(`deposit of proposal ${d.proposalId}: ${amount.error}`));
    total = addCoins(total, amount.value);
  }
  for (const p of g.proposals) {
    if (p.status === ProposalStatus.DEPOSIT_PERIOD && p.depositEndTime !== undefined)
      queueInsert(ctx, "inactive", unixMs(timestampMs(p.depositEndTime)), p.id);
    if (p.status === ProposalStatus.VOTING_PERIOD && p.votingEndTime !== undefined)
      queueInsert(ctx, "active", unixMs(timestampMs(p.votingEndTime)), p.id);
    setProposal(ctx, p);
  }
  const balance = bank.allBalances(ctx, bank.moduleAddress(GOV_MODULE));
  if (formatCoins(balance) !== formatCoins(total))
    return err(plain(`expected module account was ${formatCoins(balance)} but we got ${formatCoins(total)}`));
  return ok(undefined);
}
