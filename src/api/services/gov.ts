import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { err, ok, type Result } from "../../core/errors.js";
import { encodeMessage } from "../../core/proto-encode.js";
import { type WireRecord, wireRecords } from "../../core/proto-wire.js";
import { PageResponseSchema } from "../../gen/chain/base/query/v1beta1/pagination_pb.js";
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
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

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
 * `QueryProposalsResponse`'s encoding from the stored proposals' bytes: each a `proposals` record in turn, then
 * the `pagination` record (always set, as queryProposals sets it), as protobuf-es writes the decoded response.
 */
function proposalsResponseBytes(proposals: readonly Uint8Array[], page: StorePage): Uint8Array {
  const records: WireRecord[] = proposals.map((b) => [PROPOSALS_FIELD, b]);
  records.push([PAGINATION_FIELD, pageResponseBytes(page)]);
  return wireRecords(records);
}

/**
 * `PageResponse`'s encoding as protobuf-es writes it (proto3: a field at its zero value is not written): `next_key`
 * when there is a next page, `total` when counted and not 0 (a page without `limit` counts). A total past 2^53 (no
 * store holds that many) goes through the message encoder.
 */
function pageResponseBytes(page: StorePage): Uint8Array {
  if (page.total > MAX_SAFE) return encodeMessage(PageResponseSchema, create(PageResponseSchema, page));
  const records: WireRecord[] = [];
  if (page.nextKey.length > 0) records.push([PAGE_NEXT_KEY_FIELD, page.nextKey]);
  if (page.total !== 0n) records.push([PAGE_TOTAL_FIELD, Number(page.total)]);
  return wireRecords(records);
}
