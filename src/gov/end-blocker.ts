import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { formatCoins } from "../bank/coins.js";
import { unixMs } from "../core/brand.js";
import type { Ctx } from "../core/context.js";
import { type ChainError, err, errorText, ok, plain, type Result } from "../core/errors.js";
import { type Proposal, ProposalStatus } from "../gen/chain/gov/v1/gov_pb.js";
import { deleteAndBurnDeposits, refundAndDeleteDeposits, storedCoins } from "./deposit.js";
import { type GovDeps, LOG_MODULE } from "./deps.js";
import { activeProposalEvent, inactiveProposalEvent, type ProposalResult } from "./events.js";
import { type GovParams, minDepositFor, readParams } from "./params.js";
import {
  deleteProposal,
  deleteVotes,
  getProposal,
  msOf,
  queueDue,
  queueInsert,
  queueRemove,
  setProposal,
  votesOf,
} from "./store.js";
import { computeTally, tallyResultOf } from "./tally.js";
import type { AnyMsg, EndBlockSummary, ProposalFate, ProposalOutcome } from "./types.js";

const NIL_HANDLER_PANIC = "runtime error: invalid memory address or nil pointer dereference";

/** One handler call, guarded like the reference's safeExecuteHandler: a throw becomes a "PANICKED" error. */
function runGuarded(d: GovDeps, ctx: Ctx, msg: AnyMsg): Result<void, ChainError> {
  const panicked = (value: string) => err(plain(`handling x/gov proposal msg [${msg.typeUrl}] PANICKED: ${value}`));
  try {
    const r = d.router.route(ctx, msg);
    return r === undefined ? panicked(NIL_HANDLER_PANIC) : r;
  } catch (e) {
    return panicked(e instanceof Error ? e.message : String(e));
  }
}

type Execution =
  | { readonly ok: true }
  | { readonly ok: false; readonly index: number; readonly typeUrl: string; readonly error: ChainError };

/**
 * Runs all messages of a passed proposal in order inside ONE branch of `ctx`. The first error stops the loop and
 * the branch is dropped (no write or event of any message survives); when all succeed the branch is written,
 * which also re-emits the messages' events into `ctx`.
 */
function execute(d: GovDeps, ctx: Ctx, proposal: Proposal): Execution {
  const branch = ctx.branch();
  for (const [index, msg] of proposal.messages.entries()) {
    const r = runGuarded(d, branch.ctx, msg);
    if (!r.ok) return { ok: false, index, typeUrl: msg.typeUrl, error: r.error };
  }
  branch.write();
  return { ok: true };
}

/** Step 1: drop every proposal whose deposit period ended (`deposit_end_time ≤ block time`), in queue order. */
function processInactive(
  d: GovDeps,
  ctx: Ctx,
  outcomes: ProposalOutcome[],
  fates: ProposalFate[],
): Result<void, ChainError> {
  for (const due of queueDue(ctx, "inactive", ctx.time)) {
    const proposal = getProposal(ctx, due.id);
    if (proposal === undefined) {
      // Stryker disable next-line StringLiteral: the store keys every queue name but "active" to the inactive queue
      queueRemove(ctx, "inactive", due.time, due.id);
      continue;
    }
    deleteProposal(ctx, proposal);
    const params = readParams(ctx);
    if (!params.ok) return params;
    const burned = params.value.burnProposalDepositPrevote;
    const moved = burned ? deleteAndBurnDeposits(d, ctx, proposal.id) : refundAndDeleteDeposits(d, ctx, proposal.id);
    if (!moved.ok) return moved;
    ctx.emit(inactiveProposalEvent(proposal.id, "proposal_dropped"));
    ctx.log(
      "info",
      LOG_MODULE,
      `proposal did not meet minimum deposit; deleted proposal=${proposal.id} expedited=${proposal.expedited} title=${proposal.title} min_deposit=${formatCoins(minDepositFor(params.value, proposal.expedited))} total_deposit=${formatCoins(storedCoins(proposal.totalDeposit))}`,
    );
    const fate: ProposalFate = { id: proposal.id, fate: "dropped", height: ctx.height, time: ctx.time };
    fates.push(fate);
    outcomes.push({ kind: "dropped", id: proposal.id, depositsBurned: burned, fate });
  }
  return ok(undefined);
}

/** Step 2 for one proposal whose voting period ended: tally, deposits, then execute / fall back / reject. */
function processActive(
  d: GovDeps,
  ctx: Ctx,
  proposal: Proposal,
  params: GovParams,
): Result<ProposalOutcome, ChainError> {
  const tally = computeTally(ctx, d.staking, proposal, params, votesOf(ctx, proposal.id));
  const keepVotes = d.config.expeditedFallbackVotes === "keep" && proposal.expedited && !tally.passes;
  if (!keepVotes) deleteVotes(ctx, proposal.id);

  if (tally.passes || !proposal.expedited) {
    const moved = tally.burnDeposits
      ? deleteAndBurnDeposits(d, ctx, proposal.id)
      : refundAndDeleteDeposits(d, ctx, proposal.id);
    if (!moved.ok) return moved;
  }
  queueRemove(ctx, "active", msOf(proposal.votingEndTime), proposal.id);

  let result: ProposalResult;
  let log: string;
  let outcome: ProposalOutcome;
  if (tally.passes) {
    const run = execute(d, ctx, proposal);
    if (run.ok) {
      proposal.status = ProposalStatus.PASSED;
      result = "proposal_passed";
      log = "passed";
      outcome = { kind: "passed", id: proposal.id, tally: tally.counts };
    } else {
      proposal.status = ProposalStatus.FAILED;
      proposal.failedReason = errorText(run.error);
      result = "proposal_failed";
      log = `passed, but msg ${run.index} (${run.typeUrl}) failed on execution: ${errorText(run.error)}`;
      outcome = { kind: "failed", id: proposal.id, failedReason: proposal.failedReason, log, tally: tally.counts };
    }
  } else if (proposal.expedited) {
    proposal.expedited = false;
    const end = unixMs(msOf(proposal.votingStartTime) + params.votingPeriodMs);
    proposal.votingEndTime = timestampFromMs(end);
    queueInsert(ctx, "active", end, proposal.id);
    result = "expedited_proposal_rejected";
    log = "expedited proposal converted to regular";
    outcome = {
      kind: "expedited-fallback",
      id: proposal.id,
      reason: tally.reason,
      votingEndTime: end,
      tally: tally.counts,
    };
  } else {
    proposal.status = ProposalStatus.REJECTED;
    proposal.failedReason = "proposal did not get enough votes to pass";
    result = "proposal_rejected";
    log = "rejected";
    outcome = {
      kind: "rejected",
      id: proposal.id,
      reason: tally.reason,
      failedReason: proposal.failedReason,
      depositsBurned: tally.burnDeposits,
      tally: tally.counts,
    };
  }
  proposal.finalTallyResult = tallyResultOf(tally.counts);
  setProposal(ctx, proposal);
  ctx.log(
    "info",
    LOG_MODULE, // status: the reference's proposal.Status.String(), the enum's full name (protobuf-es drops the prefix)
    `proposal tallied proposal=${proposal.id} status=PROPOSAL_STATUS_${ProposalStatus[proposal.status]} expedited=${proposal.expedited} title=${proposal.title} results=${log}`,
  );
  ctx.emit(activeProposalEvent(proposal.id, result, log));
  return ok(outcome);
}

/**
 * The gov EndBlocker (`x/gov/abci.go`): first the inactive queue (drop, refund or burn), then every proposal whose
 * `voting_end_time ≤ block time` in ascending (voting_end_time, id) order, strictly one after another: each reads
 * the state the previous ones wrote. Voting never starts here (deposits activate inside their transaction).
 * An error means a broken invariant (e.g. the module account cannot pay back deposits): the reference halts.
 */
export function endBlocker(d: GovDeps, ctx: Ctx): Result<EndBlockSummary, ChainError> {
  const outcomes: ProposalOutcome[] = [];
  const fates: ProposalFate[] = [];
  const inactive = processInactive(d, ctx, outcomes, fates);
  if (!inactive.ok) return inactive;
  for (const due of queueDue(ctx, "active", ctx.time)) {
    const proposal = getProposal(ctx, due.id);
    if (proposal === undefined || proposal.status !== ProposalStatus.VOTING_PERIOD) {
      queueRemove(ctx, "active", due.time, due.id);
      continue;
    }
    const params = readParams(ctx);
    if (!params.ok) return params;
    const handled = processActive(d, ctx, proposal, params.value);
    if (!handled.ok) return handled;
    outcomes.push(handled.value);
  }
  return ok({ outcomes, fates });
}
