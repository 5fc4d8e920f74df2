import { Code } from "@connectrpc/connect";
import { err, ok, type Result } from "../../core/errors.js";
import { Query, type QueryProposalRequest } from "../../gen/chain/gov/v1/query_pb.js";
import type { QueryError } from "../../gov/queries.js";
import * as q from "../../gov/queries.js";
import type { StakingView } from "../../gov/types.js";
import { type BoundService, bindService, type EncodedHandler, type HandlerError, statusError } from "../backend.js";

/** `QueryProposalResponse.proposal`'s field number. */
const PROPOSAL_FIELD = 1;

/**
 * gov query errors are `status.Error(codes.X, msg)` in the reference (`x/gov/keeper/grpc_query.go`): the code is
 * the gRPC code itself (InvalidArgument → HTTP 400, NotFound → 404), not an SDK error.
 */
function asStatus<T>(r: Result<T, QueryError>): Result<T, HandlerError> {
  if (r.ok) return r;
  return err(statusError(Code[r.error.code], r.error.message));
}

/**
 * `chain.gov.v1.Query` over the gov store: proposals (filtered by status, voter, depositor), one proposal, votes,
 * params, deposits and the tally. The tally of a proposal in its voting period counts the votes with `staking`;
 * `prefix` is the chain's bech32 account prefix. `Proposal` also answers encoded (the stored bytes, for the REST
 * gateway's transcoder).
 */
export function govQueryService(staking: StakingView, prefix: string): BoundService {
  const proposalEncoded: EncodedHandler = (ctx, req) => {
    const r = asStatus(q.queryProposalStored(ctx, (req as QueryProposalRequest).proposalId));
    return r.ok ? ok({ bytes: r.value, field: PROPOSAL_FIELD }) : r;
  };
  const bound = bindService(Query, {
    proposal: (ctx, req) => asStatus(q.queryProposal(ctx, req.proposalId)),
    proposals: (ctx, req) =>
      asStatus(
        q.queryProposals(
          ctx,
          { status: req.proposalStatus, voter: req.voter, depositor: req.depositor },
          req.pagination,
        ),
      ),
    vote: (ctx, req) => asStatus(q.queryVote(ctx, req.proposalId, req.voter)),
    votes: (ctx, req) => asStatus(q.queryVotes(ctx, req.proposalId, req.pagination)),
    params: (ctx, req) => asStatus(q.queryParams(ctx, req.paramsType)),
    deposit: (ctx, req) => asStatus(q.queryDeposit(ctx, req.proposalId, req.depositor, prefix)),
    deposits: (ctx, req) => asStatus(q.queryDeposits(ctx, req.proposalId, req.pagination)),
    tallyResult: (ctx, req) => asStatus(q.queryTally(ctx, staking, req.proposalId)),
  });
  return { ...bound, encoded: new Map([["Proposal", proposalEncoded]]) };
}
