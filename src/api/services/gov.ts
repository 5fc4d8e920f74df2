import { Code } from "@connectrpc/connect";
import { err, ok, type Result } from "../../core/errors.js";
import { LENGTH_DELIMITED, VARINT } from "../../core/proto-wire.js";
import * as wire from "../../core/proto-write.js";
import { Query, type QueryProposalRequest, type QueryProposalsRequest } from "../../gen/chain/gov/v1/query_pb.js";
import type { QueryError } from "../../gov/queries.js";
import * as q from "../../gov/queries.js";
import type { StakingView } from "../../gov/types.js";
import type { PageResponse as StorePage } from "../../store/collection-paginate.js";
import { type BoundService, bindService, type EncodedHandler, type HandlerError, statusError } from "../backend.js";

/** `QueryProposalResponse.proposal`'s field number. */
const PROPOSAL_FIELD = 1;
/** `QueryProposalsResponse.proposals` and `.pagination`'s field numbers. */
const PROPOSALS_FIELD = 1;
const PAGINATION_FIELD = 2;
/** `PageResponse.next_key` and `.total`'s field numbers. */
const PAGE_NEXT_KEY_FIELD = 1;
const PAGE_TOTAL_FIELD = 2;

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
 * `prefix` is the chain's bech32 account prefix. `Proposal` and `Proposals` also answer encoded (the stored bytes,
 * for the REST gateway's transcoder).
 */
export function govQueryService(staking: StakingView, prefix: string): BoundService {
  const proposalEncoded: EncodedHandler = (ctx, req) => {
    const r = asStatus(q.queryProposalStored(ctx, (req as QueryProposalRequest).proposalId));
    return r.ok ? ok({ bytes: r.value, field: PROPOSAL_FIELD }) : r;
  };
  const proposalsEncoded: EncodedHandler = (ctx, message) => {
    const req = message as QueryProposalsRequest;
    const r = asStatus(q.queryProposalsStored(ctx, proposalsFilter(req), req.pagination));
    return r.ok ? ok({ bytes: proposalsResponseBytes(r.value.proposals, r.value.page) }) : r;
  };
  const bound = bindService(Query, {
    proposal: (ctx, req) => asStatus(q.queryProposal(ctx, req.proposalId)),
    proposals: (ctx, req) => asStatus(q.queryProposals(ctx, proposalsFilter(req), req.pagination)),
    vote: (ctx, req) => asStatus(q.queryVote(ctx, req.proposalId, req.voter)),
    votes: (ctx, req) => asStatus(q.queryVotes(ctx, req.proposalId, req.pagination)),
    params: (ctx, req) => asStatus(q.queryParams(ctx, req.paramsType)),
    deposit: (ctx, req) => asStatus(q.queryDeposit(ctx, req.proposalId, req.depositor, prefix)),
    deposits: (ctx, req) => asStatus(q.queryDeposits(ctx, req.proposalId, req.pagination)),
    tallyResult: (ctx, req) => asStatus(q.queryTally(ctx, staking, req.proposalId)),
  });
  return {
    ...bound,
    encoded: new Map([
      ["Proposal", proposalEncoded],
      ["Proposals", proposalsEncoded],
    ]),
  };
}

const proposalsFilter = (req: QueryProposalsRequest): q.ProposalsFilter => ({
  status: req.proposalStatus,
  voter: req.voter,
  depositor: req.depositor,
});

/**
 * `QueryProposalsResponse`'s encoding from the stored proposals' bytes, as protobuf-es writes the decoded response:
 * each a `proposals` record in turn, then the `pagination` record (always set, as queryProposals sets it) holding
 * `next_key` when there is a next page and `total` when counted and not 0 (proto3 writes no field at its zero value;
 * a page without `limit` counts). Written with the compiled encoder's wire writer, whose values these are in range.
 */
function proposalsResponseBytes(proposals: readonly Uint8Array[], page: StorePage): Uint8Array {
  wire.beginEncode();
  for (const b of proposals) {
    wire.tag(PROPOSALS_FIELD * 8 + LENGTH_DELIMITED);
    wire.bytes(b);
  }
  wire.tag(PAGINATION_FIELD * 8 + LENGTH_DELIMITED);
  const at = wire.fork();
  if (page.nextKey.length > 0) {
    wire.tag(PAGE_NEXT_KEY_FIELD * 8 + LENGTH_DELIMITED);
    wire.bytes(page.nextKey);
  }
  if (page.total !== 0n) {
    wire.tag(PAGE_TOTAL_FIELD * 8 + VARINT);
    wire.uint64(page.total);
  }
  wire.join(at);
  return wire.finishEncode();
}
