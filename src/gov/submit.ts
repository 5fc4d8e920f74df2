import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { type Coins, coinsFromProto, formatCoins, isAllGTE, validateCoins } from "../bank/coins.js";
import { addressFromBytes, decodeAddress, govAuthority } from "../core/address.js";
import { unixMs } from "../core/brand.js";
import { bytesEqual, utf8 } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import { type ChainError, err, errorText, ok, type Result, SdkErrors, wrap } from "../core/errors.js";
import { ProposalSchema, ProposalStatus } from "../gen/chain/gov/v1/gov_pb.js";
import {
  type MsgSubmitProposal,
  type MsgSubmitProposalResponse,
  MsgSubmitProposalResponseSchema,
} from "../gen/chain/gov/v1/tx_pb.js";
import { addressError, addressProblem } from "./address-check.js";
import { Dec } from "./dec.js";
import { addDeposit, validateDepositDenom } from "./deposit.js";
import type { GovDeps } from "./deps.js";
import { GovErrors } from "./errors.js";
import { submitProposalEvent, votingPeriodStartEvent } from "./events.js";
import { decodeProposalMetadata } from "./metadata.js";
import { type GovParams, minDepositFor, readParams } from "./params.js";
import { queueInsert, setProposal, takeProposalId } from "./store.js";
import { emptyTallyResult } from "./tally.js";
import type { MsgFacts } from "./types.js";

const byteLength = (s: string): number => utf8(s).length;

/**
 * `min_initial_deposit_ratio` (when non-zero): the initial deposit must cover `round(min × ratio)` for every denom
 * of the proposal's minimum deposit (`was (<deposit>), need (<coins>)`). Invalid coins fail first.
 */
function validateInitialDeposit(params: GovParams, deposit: Coins, expedited: boolean): Result<void, ChainError> {
  if (!validateCoins(deposit).ok) return err(wrap(SdkErrors.ErrInvalidCoins, formatCoins(deposit)));
  if (params.minInitialDepositRatio.isZero()) return ok(undefined);
  const needed = minDepositFor(params, expedited).map((c) => ({
    denom: c.denom,
    amount: Dec.fromInt(c.amount).mul(params.minInitialDepositRatio).roundInt(),
  }));
  if (!isAllGTE(deposit, needed)) {
    return err(wrap(GovErrors.ErrMinDepositTooSmall, `was (${formatCoins(deposit)}), need (${formatCoins(needed)})`));
  }
  return ok(undefined);
}

/** Metadata and title are limited to `maxMetadataLen` bytes, the summary to 40 × that (Go `len`, in bytes). */
function checkLengths(d: GovDeps, msg: MsgSubmitProposal): Result<void, ChainError> {
  const max = d.config.maxMetadataLen;
  const metadataTooLong = (text: string) =>
    text !== "" && byteLength(text) > max
      ? err(wrap(GovErrors.ErrMetadataTooLong, `got metadata with length ${byteLength(text)}`))
      : undefined;
  const metadata = metadataTooLong(msg.metadata);
  if (metadata !== undefined) return metadata;
  if (msg.summary !== "" && byteLength(msg.summary) > 40 * max) {
    return err(wrap(GovErrors.ErrSummaryTooLong, `got summary with length ${byteLength(msg.summary)}`));
  }
  return metadataTooLong(msg.title) ?? ok(undefined);
}

/**
 * Each proposal message: its ValidateBasic passes, its signers decode (GetMsgV1Signers: the chain's address codec, whose
 * error is returned as it is), it has exactly one signer and that signer is the gov module account (the text names
 * it re-encoded, `sdk.AccAddress(signer).String()`), and a route exists. Messages are not executed now.
 */
function checkMessages(
  d: GovDeps,
  msg: MsgSubmitProposal,
  facts: readonly (MsgFacts | undefined)[],
): Result<void, ChainError> {
  const gov = decodeAddress(govAuthority(d.bech32Prefix), d.bech32Prefix)!;
  for (const [i, m] of msg.messages.entries()) {
    const f = facts[i];
    if (f === undefined) return err(wrap(GovErrors.ErrUnroutableProposalMsg, m.typeUrl));
    if (f.validateBasicError !== undefined) {
      return err(wrap(GovErrors.ErrInvalidProposalMsg, errorText(f.validateBasicError)));
    }
    for (const signer of f.signers) {
      const bad = addressError(signer, d.bech32Prefix);
      if (bad !== undefined) return err(bad);
    }
    if (f.signers.length !== 1) return err(wrap(GovErrors.ErrInvalidSigner));
    const bytes = decodeAddress(f.signers[0]!, d.bech32Prefix)!;
    if (!bytesEqual(bytes, gov)) return err(wrap(GovErrors.ErrInvalidSigner, addressFromBytes(bytes, d.bech32Prefix)));
  }
  return ok(undefined);
}

/**
 * MsgSubmitProposal, checks in the reference's order (msg_server.go SubmitProposal, keeper SubmitProposal):
 * title, summary, proposer address, messages-or-metadata, metadata title/summary, message decoding, initial
 * deposit validity and `min_initial_deposit_ratio`, deposit denoms, lengths, per-message checks. Then the proposal
 * is stored in DEPOSIT_PERIOD (id from 1, inactive queue at `submit + max_deposit_period`), `submit_proposal` is
 * emitted and the initial deposit (even empty) goes through `addDeposit`; when that starts voting a second
 * `submit_proposal{voting_period_start}` follows.
 */
export function submitProposal(
  d: GovDeps,
  ctx: Ctx,
  msg: MsgSubmitProposal,
): Result<MsgSubmitProposalResponse, ChainError> {
  if (msg.title === "") return err(wrap(SdkErrors.ErrInvalidRequest, "proposal title cannot be empty"));
  if (msg.summary === "") return err(wrap(SdkErrors.ErrInvalidRequest, "proposal summary cannot be empty"));
  const proposerProblem = addressProblem(msg.proposer, d.bech32Prefix);
  if (proposerProblem !== undefined) {
    return err(wrap(SdkErrors.ErrInvalidAddress, `invalid proposer address: ${proposerProblem}`));
  }
  if (msg.messages.length === 0 && msg.metadata.length === 0) {
    return err(wrap(GovErrors.ErrNoProposalMsgs, "either metadata or Msgs length must be non-nil"));
  }
  if (msg.metadata.length !== 0) {
    const meta = decodeProposalMetadata(msg.metadata);
    if (meta !== undefined && meta.title !== msg.title) {
      return err(
        wrap(
          GovErrors.ErrInvalidProposalContent,
          `metadata title '${meta.title}' must equal proposal title '${msg.title}'`,
        ),
      );
    }
    if (meta !== undefined && meta.summary !== msg.summary) {
      return err(
        wrap(
          GovErrors.ErrInvalidProposalContent,
          `metadata summary '${meta.summary}' must equal proposal summary '${msg.summary}'`,
        ),
      );
    }
  }
  const facts: (MsgFacts | undefined)[] = [];
  for (const m of msg.messages) {
    const f = d.router.inspect(m);
    if (f !== undefined && !f.ok) return f;
    facts.push(f?.value);
  }
  const params = readParams(ctx);
  if (!params.ok) return params;
  const deposit = coinsFromProto(msg.initialDeposit);
  if (!deposit.ok) return err(wrap(SdkErrors.ErrInvalidCoins, deposit.error));
  const initial = validateInitialDeposit(params.value, deposit.value, msg.expedited);
  if (!initial.ok) return initial;
  const denoms = validateDepositDenom(params.value, deposit.value);
  if (!denoms.ok) return denoms;
  const lengths = checkLengths(d, msg);
  if (!lengths.ok) return lengths;
  const messages = checkMessages(d, msg, facts);
  if (!messages.ok) return messages;

  const id = takeProposalId(ctx);
  const depositEnd = unixMs(ctx.time + params.value.maxDepositPeriodMs);
  const proposal = create(ProposalSchema, {
    id,
    messages: msg.messages,
    status: ProposalStatus.DEPOSIT_PERIOD,
    finalTallyResult: emptyTallyResult(),
    submitTime: timestampFromMs(ctx.time),
    depositEndTime: timestampFromMs(depositEnd),
    metadata: msg.metadata,
    title: msg.title,
    summary: msg.summary,
    proposer: msg.proposer,
    expedited: msg.expedited,
  });
  setProposal(ctx, proposal);
  queueInsert(ctx, "inactive", depositEnd, id);
  ctx.emit(
    submitProposalEvent(
      id,
      msg.messages.map((m) => m.typeUrl),
    ),
  );

  const started = addDeposit(d, ctx, id, msg.proposer, deposit.value);
  if (!started.ok) return started;
  if (started.value) ctx.emit(votingPeriodStartEvent("submit_proposal", id));
  return ok(create(MsgSubmitProposalResponseSchema, { proposalId: id }));
}
