import { create } from "@bufbuild/protobuf";
import { utf8 } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import { type ChainError, err, ok, type Result, SdkErrors, wrap } from "../core/errors.js";
import {
  ProposalStatus,
  VoteOption,
  VoteSchema,
  type WeightedVoteOption,
  WeightedVoteOptionSchema,
} from "../gen/chain/gov/v1/gov_pb.js";
import {
  type MsgVote,
  type MsgVoteResponse,
  MsgVoteResponseSchema,
  type MsgVoteWeighted,
  type MsgVoteWeightedResponse,
  MsgVoteWeightedResponseSchema,
} from "../gen/chain/gov/v1/tx_pb.js";
import { addressProblem } from "./address-check.js";
import { Dec } from "./dec.js";
import type { GovDeps } from "./deps.js";
import { GovErrors } from "./errors.js";
import { proposalVoteEvent } from "./events.js";
import { getProposal, setVote } from "./store.js";

const OPTION_NAMES: Record<number, string> = {
  [VoteOption.UNSPECIFIED]: "VOTE_OPTION_UNSPECIFIED",
  [VoteOption.YES]: "VOTE_OPTION_YES",
  [VoteOption.ABSTAIN]: "VOTE_OPTION_ABSTAIN",
  [VoteOption.NO]: "VOTE_OPTION_NO",
  [VoteOption.NO_WITH_VETO]: "VOTE_OPTION_NO_WITH_VETO",
};

/** Go enum `String()`: the name, or the number for unknown values. */
export const voteOptionName = (o: number): string => OPTION_NAMES[o] ?? `${o}`;

export const isValidVoteOption = (o: number): boolean =>
  o === VoteOption.YES || o === VoteOption.ABSTAIN || o === VoteOption.NO || o === VoteOption.NO_WITH_VETO;

/** A weighted option is valid when its option is valid and its weight is a decimal in (0, 1]. */
export function isValidWeightedOption(o: WeightedVoteOption): boolean {
  const w = Dec.parse(o.weight);
  return w.ok && w.value.isPositive() && w.value.lte(Dec.ONE) && isValidVoteOption(o.option);
}

/** gogoproto compact text of a WeightedVoteOption (used in error texts): `option:VOTE_OPTION_YES weight:"0.5" `. */
export function weightedOptionText(o: WeightedVoteOption): string {
  let s = "";
  if (o.option !== 0) s += `option:${voteOptionName(o.option)} `;
  if (o.weight !== "") s += `weight:${JSON.stringify(o.weight)} `;
  return s;
}

/**
 * Go `json.Marshal` of the options (the `option` event attribute): `[{"option":1,"weight":"0.5"}]`; zero fields are
 * omitted (omitempty) and an empty list is `null`. Weights are printed exactly as the voter wrote them.
 */
export function weightedOptionsJson(options: readonly WeightedVoteOption[]): string {
  if (options.length === 0) return "null";
  const items = options.map((o) => {
    const fields: string[] = [];
    if (o.option !== 0) fields.push(`"option":${o.option}`);
    if (o.weight !== "") fields.push(`"weight":${JSON.stringify(o.weight)}`);
    return `{${fields.join(",")}}`;
  });
  return `[${items.join(",")}]`;
}

/**
 * `AddVote`: only while the proposal is in VOTING_PERIOD (else `<id>: inactive proposal`, also for unknown ids);
 * metadata length; every option valid. A later vote by the same voter replaces the earlier one. Emits
 * `proposal_vote{voter, option, proposal_id}`.
 */
function addVote(
  d: GovDeps,
  ctx: Ctx,
  id: bigint,
  voter: string,
  options: readonly WeightedVoteOption[],
  metadata: string,
): Result<void, ChainError> {
  const proposal = getProposal(ctx, id);
  if (proposal === undefined || proposal.status !== ProposalStatus.VOTING_PERIOD) {
    return err(wrap(GovErrors.ErrInactiveProposal, `${id}`));
  }
  const metadataLen = utf8(metadata).length;
  if (metadata !== "" && metadataLen > d.config.maxMetadataLen) {
    return err(wrap(GovErrors.ErrMetadataTooLong, `got metadata with length ${metadataLen}`));
  }
  for (const o of options) {
    if (!isValidWeightedOption(o)) return err(wrap(GovErrors.ErrInvalidVote, weightedOptionText(o)));
  }
  setVote(ctx, create(VoteSchema, { proposalId: id, voter, options: [...options], metadata }));
  ctx.emit(proposalVoteEvent(voter, weightedOptionsJson(options), id));
  return ok(undefined);
}

/** MsgVote: voter address, option validity, then `addVote` with weight `1.000000000000000000`. */
export function vote(d: GovDeps, ctx: Ctx, msg: MsgVote): Result<MsgVoteResponse, ChainError> {
  const problem = addressProblem(msg.voter, d.bech32Prefix);
  if (problem !== undefined) return err(wrap(SdkErrors.ErrInvalidAddress, `invalid voter address: ${problem}`));
  if (!isValidVoteOption(msg.option)) return err(wrap(GovErrors.ErrInvalidVote, voteOptionName(msg.option)));
  const options = [create(WeightedVoteOptionSchema, { option: msg.option, weight: Dec.ONE.toString() })];
  const added = addVote(d, ctx, msg.proposalId, msg.voter, options, msg.metadata);
  return added.ok ? ok(create(MsgVoteResponseSchema)) : added;
}

/**
 * MsgVoteWeighted: voter address; at least one option; each option valid and not repeated; weights summing to
 * exactly 1 (`total weight overflow 1.00` / `total weight lower than 1.00`); then `addVote`.
 */
export function voteWeighted(d: GovDeps, ctx: Ctx, msg: MsgVoteWeighted): Result<MsgVoteWeightedResponse, ChainError> {
  const problem = addressProblem(msg.voter, d.bech32Prefix);
  if (problem !== undefined) return err(wrap(SdkErrors.ErrInvalidAddress, `invalid voter address: ${problem}`));
  if (msg.options.length === 0) return err(wrap(SdkErrors.ErrInvalidRequest, weightedOptionsJson(msg.options)));
  let total = Dec.ZERO;
  const used = new Set<number>();
  for (const o of msg.options) {
    if (!isValidWeightedOption(o)) return err(wrap(GovErrors.ErrInvalidVote, weightedOptionText(o)));
    const w = Dec.parse(o.weight);
    if (!w.ok) return err(wrap(GovErrors.ErrInvalidVote, `invalid weight: ${w.error}`));
    total = total.add(w.value);
    if (used.has(o.option)) return err(wrap(GovErrors.ErrInvalidVote, "duplicated vote option"));
    used.add(o.option);
  }
  if (total.gt(Dec.ONE)) return err(wrap(GovErrors.ErrInvalidVote, "total weight overflow 1.00"));
  if (total.lt(Dec.ONE)) return err(wrap(GovErrors.ErrInvalidVote, "total weight lower than 1.00"));
  const added = addVote(d, ctx, msg.proposalId, msg.voter, msg.options, msg.metadata);
  return added.ok ? ok(create(MsgVoteWeightedResponseSchema)) : added;
}
