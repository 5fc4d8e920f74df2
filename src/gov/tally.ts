import { create } from "@bufbuild/protobuf";
import { toHex } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import {
  type Proposal,
  type TallyResult,
  TallyResultSchema,
  type Vote,
  VoteOption,
} from "../gen/chain/gov/v1/gov_pb.js";
import { anyPrefixBytes } from "./address-check.js";
import { Dec } from "./dec.js";
import type { GovParams } from "./params.js";
import type { StakingView, TallyCounts, TallyReason } from "./types.js";

/** The outcome of counting a proposal's votes against the current bonded set. */
export interface Tally {
  readonly passes: boolean;
  readonly burnDeposits: boolean;
  readonly reason: TallyReason;
  /** Exact (decimal) power per option. */
  readonly yes: Dec;
  readonly abstain: Dec;
  readonly no: Dec;
  readonly noWithVeto: Dec;
  /** Total voting power T (abstain included). */
  readonly totalPower: Dec;
  /** Total bonded tokens B. */
  readonly totalBonded: bigint;
  readonly counts: TallyCounts;
}

export const emptyTallyResult = (): TallyResult =>
  create(TallyResultSchema, { yesCount: "0", abstainCount: "0", noCount: "0", noWithVetoCount: "0" });

/** `final_tally_result`: each option's power truncated to an integer. */
export const tallyResultOf = (c: TallyCounts): TallyResult =>
  create(TallyResultSchema, {
    yesCount: c.yes.toString(),
    abstainCount: c.abstain.toString(),
    noCount: c.no.toString(),
    noWithVetoCount: c.noWithVeto.toString(),
  });

const keyOf = (address: string): string => {
  const b = anyPrefixBytes(address);
  return b === undefined ? `text:${address}` : toHex(b);
};

/**
 * Tally (`x/gov/keeper/tally.go`) for the simulator's staking model: every bonded validator has power equal to
 * its bonded tokens; a validator's vote carries all of it, any other voter's vote carries 0. Each weighted option
 * adds `power × weight` (rounded half-to-even); T grows by the validator's power.
 *
 * Decision, in this order (B = total bonded tokens, T = total voting power):
 * 1. B = 0 → fail, keep deposits.       2. T/B < quorum → fail, burn iff burn_vote_quorum.
 * 3. T − abstain = 0 → fail.            4. veto/T > veto_threshold → fail, burn iff burn_vote_veto.
 * 5. yes/(T − abstain) > threshold (expedited_threshold when expedited) → pass.   6. otherwise fail.
 * Pure: deleting the counted votes is the EndBlocker's job.
 */
export function computeTally(
  ctx: Ctx,
  staking: StakingView,
  proposal: Proposal,
  params: GovParams,
  votes: readonly Vote[],
): Tally {
  // Stryker disable next-line MethodExpression: a validator without tokens adds 0 to B, to T and to every option
  const validators = staking.bondedValidators(ctx).filter((v) => v.tokens > 0n);
  const votesByVoter = new Map<string, Vote>();
  for (const v of votes) votesByVoter.set(keyOf(v.voter), v);

  const results = new Map<VoteOption, Dec>([
    [VoteOption.YES, Dec.ZERO],
    [VoteOption.ABSTAIN, Dec.ZERO],
    [VoteOption.NO, Dec.ZERO],
    [VoteOption.NO_WITH_VETO, Dec.ZERO],
  ]);
  let totalPower = Dec.ZERO;
  let totalBonded = 0n;
  for (const val of validators) {
    totalBonded += val.tokens;
    const vote = votesByVoter.get(keyOf(val.operator));
    if (vote === undefined) continue;
    const power = Dec.fromInt(val.tokens);
    for (const opt of vote.options) {
      const weight = Dec.parse(opt.weight);
      if (!weight.ok) continue;
      const prev = results.get(opt.option);
      if (prev !== undefined) results.set(opt.option, prev.add(power.mul(weight.value)));
    }
    totalPower = totalPower.add(power);
  }

  const yes = results.get(VoteOption.YES)!;
  const abstain = results.get(VoteOption.ABSTAIN)!;
  const no = results.get(VoteOption.NO)!;
  const noWithVeto = results.get(VoteOption.NO_WITH_VETO)!;
  const counts: TallyCounts = {
    yes: yes.truncateInt(),
    abstain: abstain.truncateInt(),
    no: no.truncateInt(),
    noWithVeto: noWithVeto.truncateInt(),
  };
  const base = { yes, abstain, no, noWithVeto, totalPower, totalBonded, counts };
  const fail = (reason: TallyReason, burnDeposits: boolean): Tally => ({
    ...base,
    passes: false,
    burnDeposits,
    reason,
  });

  if (totalBonded === 0n) return fail("no-bonded-tokens", false);
  if (totalPower.quo(Dec.fromInt(totalBonded)).lt(params.quorum)) return fail("quorum-not-met", params.burnVoteQuorum);
  const nonAbstain = totalPower.sub(abstain);
  if (nonAbstain.isZero()) return fail("all-abstain", false);
  if (noWithVeto.quo(totalPower).gt(params.vetoThreshold)) return fail("vetoed", params.burnVoteVeto);
  const threshold = proposal.expedited ? params.expeditedThreshold : params.threshold;
  if (yes.quo(nonAbstain).gt(threshold)) return { ...base, passes: true, burnDeposits: false, reason: "passed" };
  return fail("threshold-not-met", false);
}
