import { create } from "@bufbuild/protobuf";
import type { BankKeeper } from "../bank/keeper.js";
import { DEFAULT_BECH32_PREFIX, govAuthority } from "../core/address.js";
import type { Ctx } from "../core/context.js";
import { type ChainError, err, ok, type PlainError, type Result, SdkErrors, wrap } from "../core/errors.js";
import type { Params, ProposalStatus } from "../gen/chain/gov/v1/gov_pb.js";
import type {
  QueryDepositResponse,
  QueryDepositsResponse,
  QueryParamsResponse,
  QueryProposalResponse,
  QueryProposalsResponse,
  QueryTallyResultResponse,
  QueryVoteResponse,
  QueryVotesResponse,
} from "../gen/chain/gov/v1/query_pb.js";
import {
  type MsgCancelProposal,
  type MsgDeposit,
  type MsgDepositResponse,
  type MsgSubmitProposal,
  type MsgSubmitProposalResponse,
  type MsgUpdateParams,
  type MsgUpdateParamsResponse,
  MsgUpdateParamsResponseSchema,
  type MsgVote,
  type MsgVoteResponse,
  type MsgVoteWeighted,
  type MsgVoteWeightedResponse,
} from "../gen/chain/gov/v1/tx_pb.js";
import { type CancelOutcome, cancelProposal } from "./cancel.js";
import { deposit } from "./deposit.js";
import type { GovDeps } from "./deps.js";
import { endBlocker } from "./end-blocker.js";
import { GovErrors } from "./errors.js";
import { defaultParams, type GovParams, parseParams, readParams } from "./params.js";
import * as q from "./queries.js";
import { setStoredParams } from "./store.js";
import { submitProposal } from "./submit.js";
import { DEFAULT_GOV_CONFIG, type EndBlockSummary, type GovConfig, type MsgRouter, type StakingView } from "./types.js";
import { vote, voteWeighted } from "./vote.js";

export interface GovKeeperDeps {
  readonly bank: BankKeeper;
  readonly staking: StakingView;
  readonly router: MsgRouter;
  readonly config?: Partial<GovConfig>;
  /** The chain's bech32 account prefix; default `chain`. */
  readonly bech32Prefix?: string;
}

/**
 * The gov keeper over the `gov` store. Transaction handlers take a Ctx and the generated Msg; the caller runs each
 * transaction in a branch and drops the branch when the handler returns an error (so a failed handler may leave
 * partial writes in its own branch). The EndBlocker and queries run on the block / query context.
 */
export class GovKeeper {
  readonly #d: GovDeps;

  constructor(deps: GovKeeperDeps) {
    this.#d = {
      bank: deps.bank,
      staking: deps.staking,
      router: deps.router,
      config: { ...DEFAULT_GOV_CONFIG, ...deps.config },
      bech32Prefix: deps.bech32Prefix ?? DEFAULT_BECH32_PREFIX,
    };
  }

  get config(): GovConfig {
    return this.#d.config;
  }

  /** Genesis: validates and stores the params (defaults when omitted). */
  initGenesis(ctx: Ctx, params: Params = defaultParams()): Result<void, PlainError> {
    const parsed = parseParams(params, this.#d.bech32Prefix);
    if (!parsed.ok) return parsed;
    setStoredParams(ctx, params);
    return ok(undefined);
  }

  /** The parsed current params. */
  params(ctx: Ctx): Result<GovParams, PlainError> {
    return readParams(ctx);
  }

  submitProposal(ctx: Ctx, msg: MsgSubmitProposal): Result<MsgSubmitProposalResponse, ChainError> {
    return submitProposal(this.#d, ctx, msg);
  }

  deposit(ctx: Ctx, msg: MsgDeposit): Result<MsgDepositResponse, ChainError> {
    return deposit(this.#d, ctx, msg);
  }

  vote(ctx: Ctx, msg: MsgVote): Result<MsgVoteResponse, ChainError> {
    return vote(this.#d, ctx, msg);
  }

  voteWeighted(ctx: Ctx, msg: MsgVoteWeighted): Result<MsgVoteWeightedResponse, ChainError> {
    return voteWeighted(this.#d, ctx, msg);
  }

  /** MsgCancelProposal; the outcome carries the response and the `cancelled` fate record. */
  cancelProposal(ctx: Ctx, msg: MsgCancelProposal): Result<CancelOutcome, ChainError> {
    return cancelProposal(this.#d, ctx, msg);
  }

  /**
   * MsgUpdateParams (executed through a proposal): authority must be the gov module account
   * (`invalid authority; expected <gov>, got <x>`), params must validate.
   */
  updateParams(ctx: Ctx, msg: MsgUpdateParams): Result<MsgUpdateParamsResponse, ChainError> {
    const authority = govAuthority(this.#d.bech32Prefix);
    if (msg.authority !== authority) {
      return err(wrap(GovErrors.ErrInvalidSigner, `invalid authority; expected ${authority}, got ${msg.authority}`));
    }
    if (msg.params === undefined) return err(wrap(SdkErrors.ErrInvalidRequest, "params must not be nil"));
    const parsed = parseParams(msg.params, this.#d.bech32Prefix);
    if (!parsed.ok) return parsed;
    setStoredParams(ctx, msg.params);
    return ok(create(MsgUpdateParamsResponseSchema));
  }

  endBlocker(ctx: Ctx): Result<EndBlockSummary, ChainError> {
    return endBlocker(this.#d, ctx);
  }

  queryProposal(ctx: Ctx, id: bigint): Result<QueryProposalResponse, q.QueryError> {
    return q.queryProposal(ctx, id);
  }
  queryProposals(
    ctx: Ctx,
    filter?: { readonly status?: ProposalStatus; readonly voter?: string; readonly depositor?: string },
  ): Result<QueryProposalsResponse, q.QueryError> {
    return q.queryProposals(ctx, filter);
  }
  queryVote(ctx: Ctx, id: bigint, voter: string): Result<QueryVoteResponse, q.QueryError> {
    return q.queryVote(ctx, id, voter);
  }
  queryVotes(ctx: Ctx, id: bigint): Result<QueryVotesResponse, q.QueryError> {
    return q.queryVotes(ctx, id);
  }
  queryParams(ctx: Ctx, paramsType?: string): Result<QueryParamsResponse, q.QueryError> {
    return q.queryParams(ctx, paramsType);
  }
  queryDeposit(ctx: Ctx, id: bigint, depositor: string): Result<QueryDepositResponse, q.QueryError> {
    return q.queryDeposit(ctx, id, depositor, this.#d.bech32Prefix);
  }
  queryDeposits(ctx: Ctx, id: bigint): Result<QueryDepositsResponse, q.QueryError> {
    return q.queryDeposits(ctx, id);
  }
  queryTally(ctx: Ctx, id: bigint): Result<QueryTallyResultResponse, q.QueryError> {
    return q.queryTally(ctx, this.#d.staking, id);
  }
}
