/**
 * `chainsim preflight`: checks a proposed upgrade against a profile's state before anyone submits it. Pure and
 * deterministic (the Monte Carlo draws come from the seed). Each finding names the reference rule it rests on.
 *
 * 1. Plan: Plan.ValidateBasic (x/upgrade types/plan.go: a name, a height > 0), and not at or below the chain's
 *    height (Keeper.ScheduleUpgrade: "upgrade cannot be scheduled in the past").
 * 2. Timing: the plan height against the end of voting, from the submission time: the voting period (or the
 *    expedited one, then the regular one it falls back to when the expedited tally fails), then the deposit period
 *    added in front when the deposit is short. A proposal that passes at or after its plan height executes
 *    MsgSoftwareUpgrade past it and ScheduleUpgrade refuses it as in the past. The heights come from the block-time
 *    model (P5–P95 of the heights reached at the end of voting).
 * 3. Cancel window: the plan at least 2 × (VotingPeriod + DepositPeriod) + SafetyDelta after submission (P95 of the
 *    heights reached then), so that a cancel proposal still passes before the upgrade height.
 * 4. Conflicts: the pending plan this one would replace (ScheduleUpgrade overwrites it silently), other pending
 *    proposals that carry a plan, and a name already done (ScheduleUpgrade: "upgrade with name N has already been
 *    completed").
 * 5. Info (info.ts): valid JSON; a `binaries` map as cosmovisor reads it.
 * 6. Window: the P5–P95 band of the halt time inside `--window` (UTC, a fixed offset or a named zone; daily-window.ts).
 */

import type { BlockTimeModel } from "../chain/block-time.js";
import { assert } from "../core/assert.js";
import { formatDuration } from "../core/go/duration.js";
import { formatRfc3339, parseRfc3339 } from "../core/go/time.js";
import type { GenesisGovParams } from "../scenario/model.js";
import type { Profile } from "../scenario/profile.js";
import { haltTimes, heightsAt, type PlanClock, quantile } from "./plan-height.js";
import { type Finding, infoFindings } from "./preflight-info.js";

export type { Finding };

import { bandInsideWindow, type DailyWindow, formatWindow } from "./daily-window.js";

export interface PreflightInput {
  readonly profile: Profile;
  /** The profile's block-time model and gov params, resolved (defaults applied). */
  readonly blockTime: BlockTimeModel;
  readonly gov: GenesisGovParams;
  readonly name: string;
  readonly height: number;
  readonly info?: string | undefined;
  readonly submitAtMs: number;
  readonly expedited: boolean;
  readonly safetyDeltaMs: number;
  readonly window?: DailyWindow | undefined;
  readonly runs: number;
  readonly seed: number;
}

/** A P5–P50–P95 band (heights or Unix ms). */
export interface Band {
  readonly p5: number;
  readonly p50: number;
  readonly p95: number;
}

export interface PreflightReport {
  readonly findings: readonly Finding[];
  /** When block `height` comes (undefined when the height is not ahead of the chain). */
  readonly haltTimeMs?: Band;
  /** The end of voting (the regular period; an expedited proposal's fallback end) and the heights reached then. */
  readonly votingEnd: { readonly timeMs: number; readonly heights: Band };
  /** The lowest height that leaves the cancel window (P95 of the heights reached at its end). */
  readonly cancelWindowHeight: number;
}

/** A band of halt times, to the millisecond. */
const timeBand = (sorted: Float64Array): Band => ({
  p5: Math.round(quantile(sorted, 0.05)),
  p50: Math.round(quantile(sorted, 0.5)),
  p95: Math.round(quantile(sorted, 0.95)),
});

/** A band of heights, whole heights widened outwards (the quantiles interpolate between runs). */
const heightBand = (sorted: Float64Array): Band => ({
  p5: Math.floor(quantile(sorted, 0.05)),
  p50: Math.round(quantile(sorted, 0.5)),
  p95: Math.ceil(quantile(sorted, 0.95)),
});

const RULE = {
  validateBasic: "x/upgrade Plan.ValidateBasic",
  past: 'x/upgrade Keeper.ScheduleUpgrade: "upgrade cannot be scheduled in the past"',
  voting: 'x/gov voting_period, then x/upgrade Keeper.ScheduleUpgrade: "upgrade cannot be scheduled in the past"',
  expedited:
    'x/gov expedited_voting_period and the expedited-to-regular fallback (voting end moves to voting start + voting_period), then x/upgrade Keeper.ScheduleUpgrade: "upgrade cannot be scheduled in the past"',
  deposit:
    'x/gov max_deposit_period (voting starts only when min_deposit is reached), then x/upgrade Keeper.ScheduleUpgrade: "upgrade cannot be scheduled in the past"',
  cancel:
    "x/upgrade MsgCancelUpgrade through x/gov: a cancel must pass before the plan height, 2 × (voting_period + max_deposit_period) + safety delta",
  replace: "x/upgrade Keeper.ScheduleUpgrade: a new plan silently replaces the stored one",
  pending: "x/gov: proposals execute when they pass; the last MsgSoftwareUpgrade to execute holds the plan",
  done: 'x/upgrade Keeper.ScheduleUpgrade: "upgrade with name <name> has already been completed"',
  window: "the operators' window: the P5–P95 band of the halt time",
} as const;

/** Runs every check. */
export function preflight(input: PreflightInput): PreflightReport {
  const clock: PlanClock = {
    height: input.profile.at.height,
    timeMs: msOf(input.profile.at.time),
    blockTime: input.blockTime,
  };
  const heightsBy = (t: number): Band => heightBand(heightsAt(clock, t, input.runs, input.seed));
  const g = input.gov;
  const votingEndMs = input.submitAtMs + g.votingPeriodMs;
  const cancelEndMs = input.submitAtMs + 2 * (g.votingPeriodMs + g.maxDepositPeriodMs) + input.safetyDeltaMs;
  const cancelWindowHeight = heightsBy(cancelEndMs).p95 + 1;
  const findings: Finding[] = [...planFindings(input)];
  const ahead = input.height > clock.height && input.name !== "";
  let haltTimeMs: Band | undefined;
  if (ahead) {
    findings.push(...timingFindings(input, heightsBy));
    if (input.height < cancelWindowHeight)
      findings.push({
        kind: "cancel-window",
        message: `height ${input.height} is less than 2 × (voting ${formatDuration(g.votingPeriodMs)} + deposit ${formatDuration(g.maxDepositPeriodMs)}) + safety ${formatDuration(input.safetyDeltaMs)} after submission (${formatRfc3339(cancelEndMs)}): a cancel proposal may not pass before it; schedule at height ${cancelWindowHeight} or later`,
        rule: RULE.cancel,
      });
    haltTimeMs = timeBand(haltTimes(clock, input.height, input.runs, input.seed));
    if (input.window !== undefined && !bandInsideWindow(haltTimeMs.p5, haltTimeMs.p95, input.window))
      findings.push({
        kind: "window",
        message: `the halt at height ${input.height} comes between ${formatRfc3339(haltTimeMs.p5)} and ${formatRfc3339(haltTimeMs.p95)} (P5–P95), not inside the window ${formatWindow(input.window)}`,
        rule: RULE.window,
      });
  }
  findings.push(...conflictFindings(input), ...(input.info === undefined ? [] : infoFindings(input.info)));
  return {
    findings,
    ...(haltTimeMs === undefined ? {} : { haltTimeMs }),
    votingEnd: { timeMs: votingEndMs, heights: heightsBy(votingEndMs) },
    cancelWindowHeight,
  };
}

function msOf(rfc3339: string): number {
  const t = parseRfc3339(rfc3339);
  assert(t.ok, "a profile's times are validated RFC 3339");
  return t.value;
}

function planFindings(input: PreflightInput): Finding[] {
  const out: Finding[] = [];
  if (input.name === "")
    out.push({ kind: "plan", message: "the plan has no name: name cannot be empty", rule: RULE.validateBasic });
  if (input.height <= 0)
    out.push({
      kind: "plan",
      message: `height ${input.height}: height must be greater than 0`,
      rule: RULE.validateBasic,
    });
  else if (input.height <= input.profile.at.height)
    out.push({
      kind: "timing",
      message: `height ${input.height} is not above the chain's height ${input.profile.at.height}: upgrade cannot be scheduled in the past`,
      rule: RULE.past,
    });
  return out;
}

/** The first end of voting the plan height may come before (header, step 2). */
function timingFindings(input: PreflightInput, heightsBy: (t: number) => Band): Finding[] {
  const g = input.gov;
  const at = formatRfc3339(input.submitAtMs);
  const ends: { endMs: number; what: string; rule: string }[] = [
    ...(input.expedited
      ? [
          {
            endMs: input.submitAtMs + g.expeditedVotingPeriodMs,
            what: `the expedited voting period (${formatDuration(g.expeditedVotingPeriodMs)})`,
            rule: RULE.expedited,
          },
          {
            endMs: input.submitAtMs + g.votingPeriodMs,
            what: `the voting period after the expedited-to-regular fallback (${formatDuration(g.votingPeriodMs)} from the voting start)`,
            rule: RULE.expedited,
          },
        ]
      : [
          {
            endMs: input.submitAtMs + g.votingPeriodMs,
            what: `the voting period (${formatDuration(g.votingPeriodMs)})`,
            rule: RULE.voting,
          },
        ]),
    {
      endMs: input.submitAtMs + g.maxDepositPeriodMs + g.votingPeriodMs,
      what: `the deposit period (${formatDuration(g.maxDepositPeriodMs)}) and the voting period (${formatDuration(g.votingPeriodMs)}) when the deposit is short at submission`,
      rule: RULE.deposit,
    },
  ];
  for (const e of ends) {
    const h = heightsBy(e.endMs);
    if (input.height <= h.p95)
      return [
        {
          kind: "timing",
          message: `height ${input.height} may come before the end of ${e.what} from a submission at ${at}: voting ends ${formatRfc3339(e.endMs)}, at heights ${h.p5}–${h.p95} (P5–P95); a proposal that passes after its plan height is refused as in the past`,
          rule: e.rule,
        },
      ];
  }
  return [];
}

function conflictFindings(input: PreflightInput): Finding[] {
  const out: Finding[] = [];
  const p = input.profile;
  if (p.plan !== null)
    out.push({
      kind: "conflict",
      message: `the chain holds plan "${p.plan.name}" at height ${p.plan.height}: this plan would replace it when it passes`,
      rule: RULE.replace,
    });
  for (const q of p.proposals ?? [])
    for (const m of q.messages)
      if ("softwareUpgrade" in m)
        out.push({
          kind: "conflict",
          message: `proposal ${q.id} (${q.status} period${q.votingEndTime === undefined ? "" : `, voting ends ${q.votingEndTime}`}) carries plan "${m.softwareUpgrade.name}" at height ${m.softwareUpgrade.height}`,
          rule: RULE.pending,
        });
  const done = (p.applied ?? []).find((a) => a.name === input.name);
  if (done !== undefined)
    out.push({
      kind: "conflict",
      message: `plan "${input.name}" was already applied at height ${done.height}: upgrade with name ${input.name} has already been completed`,
      rule: RULE.done,
    });
  return out;
}
