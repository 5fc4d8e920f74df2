import { create } from "@bufbuild/protobuf";
import type { Duration } from "@bufbuild/protobuf/wkt";
import { type Coins, coinsFromProto, coinsToProto, isAllGTE, validateCoins } from "../bank/coins.js";
import { DEFAULT_BECH32_PREFIX, decodeAddress } from "../core/address.js";
import { type DurationMs, durationMs } from "../core/brand.js";
import { bytesEqual } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import { err, ok, type PlainError, plain, type Result } from "../core/errors.js";
import { formatDuration } from "../core/go/duration.js";
import { decodeMessage } from "../core/proto-decode.js";
import { type Params, ParamsSchema } from "../gen/chain/gov/v1/gov_pb.js";
import { anyPrefixBytes } from "./address-check.js";
import { Dec, dec } from "./dec.js";
import { protoDuration, protoDurationMs } from "./duration.js";
import { getStoredParamsBytes } from "./store.js";

/**
 * Gov params, parsed. The stored form is the protobuf `Params`; every check reads and parses the stored params
 * when it runs, so a passed MsgUpdateParams affects proposals already in flight.
 */
export interface GovParams {
  readonly minDeposit: Coins;
  readonly expeditedMinDeposit: Coins;
  readonly maxDepositPeriodMs: DurationMs;
  readonly votingPeriodMs: DurationMs;
  readonly expeditedVotingPeriodMs: DurationMs;
  readonly quorum: Dec;
  readonly threshold: Dec;
  readonly expeditedThreshold: Dec;
  readonly vetoThreshold: Dec;
  readonly minInitialDepositRatio: Dec;
  readonly minDepositRatio: Dec;
  readonly proposalCancelRatio: Dec;
  /** "" burns the withheld part of cancelled deposits. */
  readonly proposalCancelDest: string;
  readonly burnVoteQuorum: boolean;
  readonly burnProposalDepositPrevote: boolean;
  readonly burnVoteVeto: boolean;
}

const DAY_MS = 86_400_000;

/** Defaults of `x/gov/types/v1/params.go` (v0.50). */
export function defaultParams(bondDenom = "stake"): Params {
  return create(ParamsSchema, {
    minDeposit: coinsToProto([{ denom: bondDenom, amount: 10_000_000n }]),
    expeditedMinDeposit: coinsToProto([{ denom: bondDenom, amount: 50_000_000n }]),
    maxDepositPeriod: protoDuration(2 * DAY_MS),
    votingPeriod: protoDuration(2 * DAY_MS),
    expeditedVotingPeriod: protoDuration(DAY_MS),
    quorum: dec("0.334").toString(),
    threshold: dec("0.5").toString(),
    expeditedThreshold: dec("0.667").toString(),
    vetoThreshold: dec("0.334").toString(),
    minInitialDepositRatio: Dec.ZERO.toString(),
    proposalCancelRatio: dec("0.5").toString(),
    proposalCancelDest: "",
    burnVoteQuorum: false,
    burnProposalDepositPrevote: false,
    burnVoteVeto: true,
    minDepositRatio: dec("0.01").toString(),
  });
}

/** Minimum deposit that activates a proposal (and base of both deposit ratios). */
export const minDepositFor = (p: GovParams, expedited: boolean): Coins =>
  expedited ? p.expeditedMinDeposit : p.minDeposit;

const rawCoinsText = (coins: Params["minDeposit"]): string => coins.map((c) => `${c.amount}${c.denom}`).join(",");

function coinsParam(coins: Params["minDeposit"], label: string): Result<Coins, PlainError> {
  const parsed = coinsFromProto(coins);
  if (!parsed.ok || parsed.value.length === 0 || !validateCoins(parsed.value).ok) {
    return err(plain(`invalid ${label}: ${rawCoinsText(coins)}`));
  }
  return ok(parsed.value);
}

function durationParam(d: Duration | undefined, name: string): Result<DurationMs, PlainError> {
  if (d === undefined) return err(plain(`${name} must not be nil: 0`));
  const ms = protoDurationMs(d);
  if (ms <= 0) return err(plain(`${name} must be positive: ${formatDuration(ms)}`));
  return ok(durationMs(ms));
}

type DecRule = "nonNegative" | "positive";

/** A ratio in [0, 1] ("nonNegative") or (0, 1] ("positive") with the reference's error texts. */
function ratioParam(
  raw: string,
  rule: DecRule,
  texts: { invalid: string; negative: string; tooLarge: string; rawInTooLarge?: boolean },
): Result<Dec, PlainError> {
  const d = Dec.parse(raw);
  if (!d.ok) return err(plain(`${texts.invalid}: ${d.error}`));
  const bad = rule === "positive" ? !d.value.isPositive() : d.value.isNegative();
  if (bad) return err(plain(`${texts.negative}: ${d.value.toString()}`));
  if (d.value.gt(Dec.ONE)) return err(plain(`${texts.tooLarge}: ${texts.rawInTooLarge === true ? raw : d.value}`));
  return ok(d.value);
}

/**
 * `Params.ValidateBasic` (v0.50 order and texts) and parsing in one step. Errors are plain (Go `fmt.Errorf`).
 * Rules beyond ranges: expedited_min_deposit must exceed min_deposit, expedited_threshold > threshold,
 * expedited_voting_period < voting_period, proposal_cancel_dest empty or a valid address with the chain's `prefix`
 * (`null`: any prefix, for params read back from the store, which were checked against the chain's prefix when set).
 */
export function parseParams(p: Params, prefix: string | null = DEFAULT_BECH32_PREFIX): Result<GovParams, PlainError> {
  const minDeposit = coinsParam(p.minDeposit, "minimum deposit");
  if (!minDeposit.ok) return minDeposit;
  const expeditedMinDeposit = coinsParam(p.expeditedMinDeposit, "expedited minimum deposit");
  if (!expeditedMinDeposit.ok) return expeditedMinDeposit;
  if (isAllGTE(minDeposit.value, expeditedMinDeposit.value)) {
    return err(
      plain(`expedited minimum deposit must be greater than minimum deposit: ${rawCoinsText(p.expeditedMinDeposit)}`),
    );
  }
  const maxDepositPeriod = durationParam(p.maxDepositPeriod, "maximum deposit period");
  if (!maxDepositPeriod.ok) return maxDepositPeriod;
  const quorum = ratioParam(p.quorum, "nonNegative", {
    invalid: "invalid quorum string",
    negative: "quorum cannot be negative",
    tooLarge: "quorum too large",
    rawInTooLarge: true,
  });
  if (!quorum.ok) return quorum;
  const threshold = ratioParam(p.threshold, "positive", {
    invalid: "invalid threshold string",
    negative: "vote threshold must be positive",
    tooLarge: "vote threshold too large",
  });
  if (!threshold.ok) return threshold;
  const expeditedThreshold = ratioParam(p.expeditedThreshold, "positive", {
    invalid: "invalid expedited threshold string",
    negative: "expedited vote threshold must be positive",
    tooLarge: "expedited vote threshold too large",
  });
  if (!expeditedThreshold.ok) return expeditedThreshold;
  if (expeditedThreshold.value.lte(threshold.value)) {
    return err(
      plain(
        `expedited vote threshold ${expeditedThreshold.value}, must be greater than the regular threshold ${threshold.value}`,
      ),
    );
  }
  const vetoThreshold = ratioParam(p.vetoThreshold, "positive", {
    invalid: "invalid vetoThreshold string",
    negative: "veto threshold must be positive",
    tooLarge: "veto threshold too large",
  });
  if (!vetoThreshold.ok) return vetoThreshold;
  const votingPeriod = durationParam(p.votingPeriod, "voting period");
  if (!votingPeriod.ok) return votingPeriod;
  const expeditedVotingPeriod = durationParam(p.expeditedVotingPeriod, "expedited voting period");
  if (!expeditedVotingPeriod.ok) return expeditedVotingPeriod;
  if (expeditedVotingPeriod.value >= votingPeriod.value) {
    return err(
      plain(
        `expedited voting period ${formatDuration(expeditedVotingPeriod.value)} must be strictly less than the regular voting period ${formatDuration(votingPeriod.value)}`,
      ),
    );
  }
  const minInitialDepositRatio = ratioParam(p.minInitialDepositRatio, "nonNegative", {
    invalid: "invalid mininum initial deposit ratio of proposal",
    negative: "mininum initial deposit ratio of proposal must be positive",
    tooLarge: "mininum initial deposit ratio of proposal is too large",
  });
  if (!minInitialDepositRatio.ok) return minInitialDepositRatio;
  const proposalCancelRatio = ratioParam(p.proposalCancelRatio, "nonNegative", {
    invalid: "invalid burn rate of cancel proposal",
    negative: "burn rate of cancel proposal must be positive",
    tooLarge: "burn rate of cancel proposal is too large",
  });
  if (!proposalCancelRatio.ok) return proposalCancelRatio;
  const dest = p.proposalCancelDest;
  if (dest !== "" && (prefix === null ? anyPrefixBytes(dest) : decodeAddress(dest, prefix)) === undefined) {
    return err(plain(`deposits destination address is invalid: ${p.proposalCancelDest}`));
  }
  const minDepositRatio = ratioParam(p.minDepositRatio, "nonNegative", {
    invalid: "invalid mininum deposit ratio of proposal",
    negative: "mininum deposit ratio of proposal must be positive",
    tooLarge: "mininum deposit ratio of proposal is too large",
  });
  if (!minDepositRatio.ok) return minDepositRatio;
  return ok({
    minDeposit: minDeposit.value,
    expeditedMinDeposit: expeditedMinDeposit.value,
    maxDepositPeriodMs: maxDepositPeriod.value,
    votingPeriodMs: votingPeriod.value,
    expeditedVotingPeriodMs: expeditedVotingPeriod.value,
    quorum: quorum.value,
    threshold: threshold.value,
    expeditedThreshold: expeditedThreshold.value,
    vetoThreshold: vetoThreshold.value,
    minInitialDepositRatio: minInitialDepositRatio.value,
    minDepositRatio: minDepositRatio.value,
    proposalCancelRatio: proposalCancelRatio.value,
    proposalCancelDest: p.proposalCancelDest,
    burnVoteQuorum: p.burnVoteQuorum,
    burnProposalDepositPrevote: p.burnProposalDepositPrevote,
    burnVoteVeto: p.burnVoteVeto,
  });
}

/**
 * The params every gov check reads. Stored params were validated when set; a missing or unparseable record is a
 * broken invariant and surfaces as the reference's "failed to get governance parameters" error.
 */
export function readParams(ctx: Ctx): Result<GovParams, PlainError> {
  const raw = getStoredParamsBytes(ctx);
  if (raw === undefined) {
    return err(plain("failed to get governance parameters: collections: not found: key 'no_key' of type params"));
  }
  const last = lastRead;
  if (last !== undefined && bytesEqual(last.raw, raw)) return last.result;
  const parsed = parseParams(decodeMessage(ParamsSchema, raw), null);
  if (!parsed.ok) return err(plain(`failed to get governance parameters: ${parsed.error.message}`));
  const result = ok(Object.freeze(parsed.value));
  lastRead = { raw: raw.slice(), result };
  return result;
}

/**
 * The last params record readParams parsed successfully, and the result. The result is a function of the stored
 * bytes alone (and immutable), so a read of equal bytes reuses it: nothing to invalidate, whatever store reads.
 */
let lastRead: { readonly raw: Uint8Array; readonly result: Result<GovParams, PlainError> } | undefined;
