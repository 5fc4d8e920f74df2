import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { Ctx } from "../core/context.js";
import { type ChainError, err, ok, type Result, SdkErrors, wrap } from "../core/errors.js";
import { ProposalStatus } from "../gen/chain/gov/v1/gov_pb.js";
import {
  type MsgCancelProposal,
  type MsgCancelProposalResponse,
  MsgCancelProposalResponseSchema,
} from "../gen/chain/gov/v1/tx_pb.js";
import { addressProblem } from "./address-check.js";
import { chargeDeposits } from "./deposit.js";
import { type GovDeps, LOG_MODULE } from "./deps.js";
import { GovErrors, proposalNotInStore } from "./errors.js";
import { cancelProposalEvent } from "./events.js";
import { readParams } from "./params.js";
import { deleteProposal, deleteVotes, getProposal, msOf } from "./store.js";
import type { ProposalFate } from "./types.js";

/** A successful cancel: the chain's response and the fate record the engine keeps outside state. */
export interface CancelOutcome {
  readonly response: MsgCancelProposalResponse;
  readonly fate: ProposalFate;
}

/**
 * MsgCancelProposal (`x/gov/keeper/proposal.go` CancelProposal): only the original proposer, only in
 * DEPOSIT_PERIOD or VOTING_PERIOD, rejected when `voting_end_time` is strictly before the block time (equal is
 * accepted, and since transactions run before the EndBlocker the proposal is then never tallied). Deposits are
 * charged `proposal_cancel_ratio`, votes and the proposal are deleted, `cancel_proposal{sender, proposal_id}` is
 * emitted.
 */
export function cancelProposal(d: GovDeps, ctx: Ctx, msg: MsgCancelProposal): Result<CancelOutcome, ChainError> {
  const problem = addressProblem(msg.proposer, d.bech32Prefix);
  if (problem !== undefined) return err(wrap(SdkErrors.ErrInvalidAddress, `invalid proposer address: ${problem}`));
  const id = msg.proposalId;
  const proposal = getProposal(ctx, id);
  if (proposal === undefined) return err(proposalNotInStore(id));
  if (proposal.proposer === "") {
    return err(
      wrap(GovErrors.ErrInvalidProposal, `proposal ${id} doesn't have proposer ${msg.proposer}, so cannot be canceled`),
    );
  }
  if (proposal.proposer !== msg.proposer) {
    return err(wrap(GovErrors.ErrInvalidProposer, `invalid proposer ${msg.proposer}`));
  }
  if (proposal.status !== ProposalStatus.DEPOSIT_PERIOD && proposal.status !== ProposalStatus.VOTING_PERIOD) {
    return err(wrap(GovErrors.ErrInvalidProposal, "proposal should be in the deposit or voting period"));
  }
  if (proposal.votingEndTime !== undefined && msOf(proposal.votingEndTime) < ctx.time) {
    return err(wrap(GovErrors.ErrVotingPeriodEnded, `voting period is already ended for this proposal ${id}`));
  }
  const params = readParams(ctx);
  if (!params.ok) return params;
  const charged = chargeDeposits(d, ctx, id, params.value.proposalCancelDest, params.value.proposalCancelRatio);
  if (!charged.ok) return charged;
  if (proposal.votingStartTime !== undefined) deleteVotes(ctx, id);
  deleteProposal(ctx, proposal);
  ctx.log("info", LOG_MODULE, `proposal is canceled by proposer proposal=${id} proposer=${proposal.proposer}`);
  ctx.emit(cancelProposalEvent(msg.proposer, id));
  return ok({
    response: create(MsgCancelProposalResponseSchema, {
      proposalId: id,
      canceledTime: timestampFromMs(ctx.time),
      canceledHeight: BigInt(ctx.height),
    }),
    fate: { id, fate: "cancelled", height: ctx.height, time: ctx.time },
  });
}
