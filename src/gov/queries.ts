import { create } from "@bufbuild/protobuf";
import { addressFromBytes, DEFAULT_BECH32_PREFIX, decodeAddress } from "../core/address.js";
import { concat, utf8 } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import { err, ok, type Result } from "../core/errors.js";
import { decodeMessage } from "../core/proto-decode.js";
import type { PageRequest } from "../gen/chain/base/query/v1beta1/pagination_pb.js";
import { type PageResponse, PageResponseSchema } from "../gen/chain/base/query/v1beta1/pagination_pb.js";
import {
  DepositParamsSchema,
  ProposalSchema,
  ProposalStatus,
  TallyParamsSchema,
  VotingParamsSchema,
} from "../gen/chain/gov/v1/gov_pb.js";
import {
  type QueryDepositResponse,
  QueryDepositResponseSchema,
  type QueryDepositsResponse,
  QueryDepositsResponseSchema,
  type QueryParamsResponse,
  QueryParamsResponseSchema,
  type QueryProposalResponse,
  QueryProposalResponseSchema,
  type QueryProposalsResponse,
  QueryProposalsResponseSchema,
  type QueryTallyResultResponse,
  QueryTallyResultResponseSchema,
  type QueryVoteResponse,
  QueryVoteResponseSchema,
  type QueryVotesResponse,
  QueryVotesResponseSchema,
} from "../gen/chain/gov/v1/query_pb.js";
import { collectionPaginate, type Page, type PageResponse as StorePage } from "../store/collection-paginate.js";
import { anyPrefixBytes } from "./address-check.js";
import { readParams } from "./params.js";
import {
  allStoredProposals,
  depositsOf,
  getDeposit,
  getProposal,
  getProposalBytes,
  getStoredParams,
  getVote,
  proposalCollectionKey,
  type StoredProposal,
  storedProposalId,
  votesOf,
} from "./store.js";
import { computeTally, emptyTallyResult, tallyResultOf } from "./tally.js";
import type { StakingView } from "./types.js";

/** A gRPC status error of the query server (`x/gov/keeper/grpc_query.go`): code and message. */
export interface QueryError {
  readonly code: "InvalidArgument" | "NotFound" | "Internal";
  readonly message: string;
}

const invalid = (message: string) => err<QueryError>({ code: "InvalidArgument", message });
const notFound = (message: string) => err<QueryError>({ code: "NotFound", message });

const ZERO_ID = "proposal id can not be 0";

/**
 * The address part of the Votes and Deposits keys (`sdk.LengthPrefixedAddressKey`): length byte, then the address
 * bytes. This is what `next_key` carries; the proposal id prefix is stripped.
 */
function addressKey(address: string): Uint8Array {
  const bytes = anyPrefixBytes(address) ?? utf8(address);
  return concat(Uint8Array.of(bytes.length), bytes);
}

/** CollectionPaginate's page, or its request error as codes.Internal (grpc_query.go). */
function paged<V>(
  values: readonly V[],
  keyOf: (v: V) => Uint8Array,
  request: PageRequest | undefined,
  include?: (v: V) => boolean,
): Result<Page<V>, QueryError> {
  const r = collectionPaginate(values, keyOf, request, include);
  return r.ok ? r : err({ code: "Internal", message: r.error });
}

/** `paged` as the response fields: the results and the `PageResponse` message. */
function paginated<V>(
  values: readonly V[],
  keyOf: (v: V) => Uint8Array,
  request: PageRequest | undefined,
  include?: (v: V) => boolean,
): Result<{ readonly results: V[]; readonly pagination: PageResponse }, QueryError> {
  const r = paged(values, keyOf, request, include);
  if (!r.ok) return r;
  return ok({ results: r.value.results, pagination: pageResponse(r.value.page) });
}

const pageResponse = (p: StorePage): PageResponse => create(PageResponseSchema, { nextKey: p.nextKey, total: p.total });

export function queryProposal(ctx: Ctx, id: bigint): Result<QueryProposalResponse, QueryError> {
  if (id === 0n) return invalid(ZERO_ID);
  const proposal = getProposal(ctx, id);
  if (proposal === undefined) return notFound(`proposal ${id} doesn't exist`);
  return ok(create(QueryProposalResponseSchema, { proposal }));
}

/**
 * queryProposal with the proposal as its stored protobuf bytes, undecoded (the response's `proposal`), and the same
 * errors: for a reader that renders the bytes without decoding them (the REST gateway's transcoder).
 */
export function queryProposalStored(ctx: Ctx, id: bigint): Result<Uint8Array, QueryError> {
  if (id === 0n) return invalid(ZERO_ID);
  const stored = getProposalBytes(ctx, id);
  return stored === undefined ? notFound(`proposal ${id} doesn't exist`) : ok(stored);
}

/** Which proposals a Proposals query asks for (unset or empty: any). */
export interface ProposalsFilter {
  readonly status?: ProposalStatus;
  readonly voter?: string;
  readonly depositor?: string;
}

/**
 * The predicate of CollectionFilteredPaginate in `Proposals`: the status, a vote by `voter`, a deposit by `depositor`;
 * undefined when the filter asks for nothing (every proposal is included).
 */
function proposalsPredicate(ctx: Ctx, filter: ProposalsFilter): ((p: StoredProposal) => boolean) | undefined {
  const { status, voter, depositor } = filter;
  const anyStatus = status === undefined || status === ProposalStatus.UNSPECIFIED;
  const anyVoter = voter === undefined || voter === "";
  const anyDepositor = depositor === undefined || depositor === "";
  if (anyStatus && anyVoter && anyDepositor) return undefined;
  return (p) => {
    if (!anyStatus && decodeMessage(ProposalSchema, p[1]).status !== status) return false;
    if (!anyVoter && getVote(ctx, storedProposalId(p), voter) === undefined) return false;
    return anyDepositor || getDeposit(ctx, storedProposalId(p), depositor) !== undefined;
  };
}

/**
 * Proposals in id order, optionally only those `filter` asks for, one page of them, as stored: each proposal's
 * encoding (the store's bytes, never to be written to) and the page's `next_key` and `total` (the fields of its
 * `PageResponse`). Decoding each is queryProposals' answer.
 */
export function queryProposalsStored(
  ctx: Ctx,
  filter: ProposalsFilter = {},
  pagination?: PageRequest,
): Result<{ readonly proposals: Uint8Array[]; readonly page: StorePage }, QueryError> {
  const r = paged(allStoredProposals(ctx), proposalCollectionKey, pagination, proposalsPredicate(ctx, filter));
  if (!r.ok) return r;
  return ok({ proposals: r.value.results.map((p) => p[1]), page: r.value.page });
}

/** Proposals in id order, optionally only those `filter` asks for, one page of them. */
export function queryProposals(
  ctx: Ctx,
  filter: ProposalsFilter = {},
  pagination?: PageRequest,
): Result<QueryProposalsResponse, QueryError> {
  const r = queryProposalsStored(ctx, filter, pagination);
  if (!r.ok) return r;
  const proposals = r.value.proposals.map((b) => decodeMessage(ProposalSchema, b));
  return ok(create(QueryProposalsResponseSchema, { proposals, pagination: pageResponse(r.value.page) }));
}

export function queryVote(ctx: Ctx, id: bigint, voter: string): Result<QueryVoteResponse, QueryError> {
  if (id === 0n) return invalid(ZERO_ID);
  if (voter === "") return invalid("empty voter address");
  const vote = getVote(ctx, id, voter);
  // v0.50 answers a missing vote with InvalidArgument (HTTP 400), not NotFound, whether or not the proposal exists.
  if (vote === undefined) return invalid(`voter: ${voter} not found for proposal: ${id}`);
  return ok(create(QueryVoteResponseSchema, { vote }));
}

export function queryVotes(ctx: Ctx, id: bigint, pagination?: PageRequest): Result<QueryVotesResponse, QueryError> {
  if (id === 0n) return invalid(ZERO_ID);
  const page = paginated(votesOf(ctx, id), (v) => addressKey(v.voter), pagination);
  if (!page.ok) return page;
  return ok(create(QueryVotesResponseSchema, { votes: page.value.results, pagination: page.value.pagination }));
}

/**
 * Params: `params` always; the deprecated `deposit`, `voting` or `tallying` sub-record when asked for; any other
 * non-empty type is `unknown params type: <t>`.
 */
export function queryParams(ctx: Ctx, paramsType = ""): Result<QueryParamsResponse, QueryError> {
  const params = getStoredParams(ctx);
  if (params === undefined) return err({ code: "Internal", message: "gov params are not set" });
  const response = create(QueryParamsResponseSchema, { params });
  switch (paramsType) {
    case "deposit":
      response.depositParams = create(DepositParamsSchema, {
        minDeposit: params.minDeposit,
        ...(params.maxDepositPeriod === undefined ? {} : { maxDepositPeriod: params.maxDepositPeriod }),
      });
      break;
    case "voting":
      response.votingParams = create(
        VotingParamsSchema,
        params.votingPeriod === undefined ? {} : { votingPeriod: params.votingPeriod },
      );
      break;
    case "tallying":
      response.tallyParams = create(TallyParamsSchema, {
        quorum: params.quorum,
        threshold: params.threshold,
        vetoThreshold: params.vetoThreshold,
      });
      break;
    case "":
      break;
    default:
      return invalid(`unknown params type: ${paramsType}`);
  }
  return ok(response);
}

/** The deposit of `depositor`; a missing one's NotFound text re-encodes the address with the chain's `prefix`. */
export function queryDeposit(
  ctx: Ctx,
  id: bigint,
  depositor: string,
  prefix = DEFAULT_BECH32_PREFIX,
): Result<QueryDepositResponse, QueryError> {
  if (id === 0n) return invalid(ZERO_ID);
  if (depositor === "") return invalid("empty depositor address");
  const deposit = getDeposit(ctx, id, depositor);
  // v0.50 returns the collection's own error as NotFound (v0.47's `depositer: ... not found for proposal: ...` is
  // gone): the key as collections' pair codec prints it, the address re-encoded as AccAddress.String() does.
  if (deposit === undefined) {
    const bytes = decodeAddress(depositor, prefix);
    const shown = bytes === undefined ? depositor : addressFromBytes(bytes, prefix);
    return notFound(
      `collections: not found: key '("${id}", "${shown}")' of type github.com/cosmos/gogoproto/chain.gov.v1.Deposit`,
    );
  }
  return ok(create(QueryDepositResponseSchema, { deposit }));
}

export function queryDeposits(
  ctx: Ctx,
  id: bigint,
  pagination?: PageRequest,
): Result<QueryDepositsResponse, QueryError> {
  if (id === 0n) return invalid(ZERO_ID);
  const page = paginated(depositsOf(ctx, id), (d) => addressKey(d.depositor), pagination);
  if (!page.ok) return page;
  return ok(create(QueryDepositsResponseSchema, { deposits: page.value.results, pagination: page.value.pagination }));
}

/**
 * Tally: zeros in DEPOSIT_PERIOD, the stored final tally once decided, and a fresh (non-destructive) count of the
 * current votes while voting.
 */
export function queryTally(ctx: Ctx, staking: StakingView, id: bigint): Result<QueryTallyResultResponse, QueryError> {
  if (id === 0n) return invalid(ZERO_ID);
  const proposal = getProposal(ctx, id);
  if (proposal === undefined) return notFound(`proposal ${id} doesn't exist`);
  switch (proposal.status) {
    case ProposalStatus.DEPOSIT_PERIOD:
      return ok(create(QueryTallyResultResponseSchema, { tally: emptyTallyResult() }));
    case ProposalStatus.PASSED:
    case ProposalStatus.REJECTED:
    case ProposalStatus.FAILED:
      return ok(create(QueryTallyResultResponseSchema, { tally: proposal.finalTallyResult ?? emptyTallyResult() }));
    default: {
      const params = readParams(ctx);
      if (!params.ok) return err({ code: "Internal", message: params.error.message });
      const tally = computeTally(ctx, staking, proposal, params.value, votesOf(ctx, id));
      return ok(create(QueryTallyResultResponseSchema, { tally: tallyResultOf(tally.counts) }));
    }
  }
}
