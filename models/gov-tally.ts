/**
 * The governance decision, written from the specification (docs/fidelity.md, gov tally and deposits) independently of
 * `src/gov`: given the votes that executed, the validators' powers and the params, which way a proposal goes and what
 * happens to its deposits. The harness steps it from the votes it cast, so a tally that never passes, always passes
 * or ignores the veto disagrees with the model instead of teaching it the wrong answer.
 *
 * Scope: validators vote with their whole power (no delegators in a property world); a vote replaces the voter's
 * earlier vote; non-validators carry no power. Arithmetic is exact (bigint rationals). The reference computes in
 * 18-decimal fixed point; the two can disagree only when a ratio lies within 10^-18 of a threshold, which integer
 * powers of the property worlds cannot produce.
 *
 * Decision order (reference x/gov/keeper/tally.go): no bonded power → fail; quorum not met (strictly below) → fail,
 * burn iff burnVoteQuorum; every vote abstains → fail; veto strictly above vetoThreshold of all voting power (abstain
 * included) → fail, burn iff burnVoteVeto; yes strictly above threshold (expeditedThreshold when expedited) of the
 * non-abstaining power → pass; otherwise fail. Pure.
 */

export const GOV_VOTE_OPTIONS = ["yes", "abstain", "no", "no_with_veto"] as const;
export type GovVoteOption = (typeof GOV_VOTE_OPTIONS)[number];

/** The tally params, ratios as decimal strings ("0.334") as the reference stores them. */
export interface TallyParams {
  readonly quorum: string;
  readonly threshold: string;
  readonly expeditedThreshold: string;
  readonly vetoThreshold: string;
  readonly burnVoteQuorum: boolean;
  readonly burnVoteVeto: boolean;
}

/** The reference defaults (x/gov/types/v1/params.go). */
export const DEFAULT_TALLY_PARAMS: TallyParams = {
  quorum: "0.334",
  threshold: "0.5",
  expeditedThreshold: "0.667",
  vetoThreshold: "0.334",
  burnVoteQuorum: false,
  burnVoteVeto: true,
};

export type TallyReason = "no-bonded-power" | "no-quorum" | "all-abstain" | "vetoed" | "passed" | "threshold-not-met";

export interface TallyOutcome {
  readonly passes: boolean;
  readonly burnDeposits: boolean;
  readonly reason: TallyReason;
  /** Power per option, as `final_tally_result` holds it (integers: validators vote with whole powers). */
  readonly result: Readonly<Record<GovVoteOption, bigint>>;
}

/** A decimal string as an exact fraction n / 10^k. */
function ratio(decimal: string): { readonly n: bigint; readonly d: bigint } {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (m === null) throw new RangeError(`not a non-negative decimal: "${decimal}"`);
  const frac = m[2] ?? "";
  return { n: BigInt(`${m[1]}${frac}`), d: 10n ** BigInt(frac.length) };
}

/** a / b compared with the decimal r: -1, 0 or 1. b > 0. */
function cmp(a: bigint, b: bigint, r: string): -1 | 0 | 1 {
  const { n, d } = ratio(r);
  const left = a * d;
  const right = n * b;
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * The tally of one proposal at the end of its voting period. `votes` are the votes that executed, in execution
 * order (a later vote of the same voter replaces the earlier one); `powers` the bonded validators' powers.
 */
export function tally(
  votes: readonly (readonly [voter: string, option: GovVoteOption])[],
  powers: ReadonlyMap<string, number>,
  params: TallyParams,
  expedited: boolean,
): TallyOutcome {
  const latest = new Map<string, GovVoteOption>();
  for (const [voter, option] of votes) latest.set(voter, option);
  const result: Record<GovVoteOption, bigint> = { yes: 0n, abstain: 0n, no: 0n, no_with_veto: 0n };
  let total = 0n;
  for (const [voter, option] of latest) {
    const power = BigInt(powers.get(voter) ?? 0);
    result[option] += power;
    total += power;
  }
  let bonded = 0n;
  for (const p of powers.values()) bonded += BigInt(p);
  const out = (passes: boolean, burnDeposits: boolean, reason: TallyReason): TallyOutcome => ({
    passes,
    burnDeposits,
    reason,
    result,
  });
  if (bonded === 0n) return out(false, false, "no-bonded-power");
  if (cmp(total, bonded, params.quorum) < 0) return out(false, params.burnVoteQuorum, "no-quorum");
  if (total - result.abstain === 0n) return out(false, false, "all-abstain");
  if (cmp(result.no_with_veto, total, params.vetoThreshold) > 0) return out(false, params.burnVoteVeto, "vetoed");
  const threshold = expedited ? params.expeditedThreshold : params.threshold;
  if (cmp(result.yes, total - result.abstain, threshold) > 0) return out(true, false, "passed");
  return out(false, false, "threshold-not-met");
}

/**
 * What a proposal's deposits become once it is decided: refunded to the depositors, burned, or (an expedited
 * proposal that does not pass) kept for the regular tally it falls back to.
 */
export type DepositFate = "refund" | "burn" | "keep";

export function depositFate(outcome: TallyOutcome, expedited: boolean): DepositFate {
  if (outcome.passes) return "refund";
  if (expedited) return "keep";
  return outcome.burnDeposits ? "burn" : "refund";
}
