import type { Height, UnixMs } from "../core/brand.js";
import type { Ctx } from "../core/context.js";
import type { ChainError, Result } from "../core/errors.js";

/** A proposal message as carried in `Proposal.messages` (a protobuf Any). */
export interface AnyMsg {
  readonly typeUrl: string;
  readonly value: Uint8Array;
}

/** Stateless facts about a message, needed when a proposal is submitted. */
export interface MsgFacts {
  /** Bech32 signer addresses (from the message's `chain.msg.v1.signer` field). */
  readonly signers: readonly string[];
  /** The message's stateless ValidateBasic failure; undefined when it passes or the type has none. */
  readonly validateBasicError?: ChainError | undefined;
}

/**
 * The message router gov executes proposals through (the app's msg service router).
 * - `route` runs the handler in `ctx` and returns its outcome; undefined means no handler is registered.
 *   A handler that throws is treated as a Go panic (see execution in end-blocker.ts).
 * - `inspect` decodes the message for the submission checks: undefined = no route for the type url; an error =
 *   the bytes do not decode (returned as the submission error, like the reference's `GetMsgs`).
 */
export interface MsgRouter {
  route(ctx: Ctx, msg: AnyMsg): Result<void, ChainError> | undefined;
  inspect(msg: AnyMsg): Result<MsgFacts, ChainError> | undefined;
}

/** A bonded validator as gov's tally sees it: its operator address (bech32) and bonded tokens. */
export interface BondedValidator {
  readonly operator: string;
  readonly tokens: bigint;
}

/** Read-only staking facts for the tally. Without delegators, a validator's vote carries all its tokens. */
export interface StakingView {
  bondedValidators(ctx: Ctx): readonly BondedValidator[];
}

/**
 * Simulator choices that are not chain params (printed with every run by the engine).
 * - `expeditedFallbackVotes`: "delete" (reference code: the expedited tally consumes the votes) or "keep"
 *   (votes survive the conversion to a regular proposal).
 * - `maxMetadataLen`: the reference's `MaxMetadataLen` config (255); summaries may be 40× longer.
 */
export interface GovConfig {
  readonly expeditedFallbackVotes: "delete" | "keep";
  readonly maxMetadataLen: number;
}

export const DEFAULT_GOV_CONFIG: GovConfig = { expeditedFallbackVotes: "delete", maxMetadataLen: 255 };

/**
 * What became of a proposal that left consensus state (the chain deletes dropped and cancelled proposals, so only
 * this record, kept by the engine outside state, remembers them).
 */
export interface ProposalFate {
  readonly id: bigint;
  readonly fate: "dropped" | "cancelled";
  readonly height: Height;
  readonly time: UnixMs;
}

/** Why a tally passed or failed, in the decision order of the reference. */
export type TallyReason =
  | "no-bonded-tokens"
  | "quorum-not-met"
  | "all-abstain"
  | "vetoed"
  | "threshold-not-met"
  | "passed";

/** Integer (truncated) power per option, as stored in `final_tally_result`. */
export interface TallyCounts {
  readonly yes: bigint;
  readonly abstain: bigint;
  readonly no: bigint;
  readonly noWithVeto: bigint;
}

/** One proposal handled by the EndBlocker, in processing order. */
export type ProposalOutcome =
  | { readonly kind: "dropped"; readonly id: bigint; readonly depositsBurned: boolean; readonly fate: ProposalFate }
  | { readonly kind: "passed"; readonly id: bigint; readonly tally: TallyCounts }
  | {
      readonly kind: "failed";
      readonly id: bigint;
      readonly failedReason: string;
      readonly log: string;
      readonly tally: TallyCounts;
    }
  | {
      readonly kind: "rejected";
      readonly id: bigint;
      readonly reason: TallyReason;
      readonly failedReason: string;
      readonly depositsBurned: boolean;
      readonly tally: TallyCounts;
    }
  | {
      readonly kind: "expedited-fallback";
      readonly id: bigint;
      readonly reason: TallyReason;
      readonly votingEndTime: UnixMs;
      readonly tally: TallyCounts;
    };

/** Result of one EndBlocker run (besides the events it emitted). */
export interface EndBlockSummary {
  readonly outcomes: readonly ProposalOutcome[];
  /** The `dropped` outcomes' fates, for the engine's label bookkeeping. */
  readonly fates: readonly ProposalFate[];
}
