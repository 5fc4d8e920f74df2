/**
 * One cancel-window trial, run on the chain engine (docs/fidelity.md §3.3, §3.5, §3.10, §3.11):
 *
 * 1. the upgrade proposal (plan height h0 + offset) lands in block h0 with a tenth of `min_deposit`; the rest is
 *    deposited `depositDelayMs` after its submission, and every validator votes yes in that same block;
 * 2. the cancel proposal (MsgCancelUpgrade) is submitted by strategy: `after-pass`, SafetyDelta after the block that
 *    executed the upgrade; `during-voting`, in the first block after the upgrade entered voting. It reaches its
 *    minimum deposit (`expedited_min_deposit` when expedited) `cancelDepositDelayMs` after its submission, and every
 *    validator votes yes in that block;
 * 3. the run stops as soon as the outcome is decided: the cancel executed, or the chain stalled because the plan
 *    became due (every node runs a binary without a handler, so all halt with `upgrade-needed`).
 *
 * Outcome `landed`: the upgrade passed and stored its plan, the cancel passed after it and cleared the plan, and no
 * node halted. Everything is read back from the engine (proposal records, block times, committed plan, halts).
 */

import type { CoinInput } from "../app/types.js";
import type { Action, Trigger } from "../chain/actions.js";
import { govAuthority } from "../core/address.js";
import type { Coins } from "../scenario/coins.js";
import type { Scenario } from "../scenario/index.js";
import type { Simulation } from "../scenario/simulate.js";
import { CANCEL_PROPOSER, PLAN_NAME, trialEngine, UPGRADE_PROPOSER } from "./chain.js";
import type { CancelWindowConfig } from "./model.js";

export interface TrialInput {
  /** Seed of the chain (its block times). */
  readonly seed: number;
  /** Plan height − h0. */
  readonly offset: number;
  readonly depositDelayMs: number;
  readonly cancelDepositDelayMs: number;
}

export type TrialOutcome =
  /** The cancel executed after the upgrade and before the plan was due: plan cleared, no halt. */
  | "landed"
  /** The plan became due first: every node halted at the trigger height. */
  | "too-late"
  /** during-voting: the cancel executed first (a no-op), then the upgrade stored its plan (docs/fidelity.md §3.11 table, row 2). */
  | "cancel-before-upgrade"
  /** The upgrade executed after its plan height: FAILED with "upgrade cannot be scheduled in the past". */
  | "plan-in-past"
  /** The upgrade was rejected or failed for another reason (a broken setup, never expected). */
  | "upgrade-not-passed"
  /** The cancel was not submitted, rejected or failed although the chain did not halt (never expected). */
  | "cancel-not-passed"
  /** The cancel passed after the upgrade but a plan is still stored (never expected). */
  | "plan-survived";

export interface TrialResult {
  readonly input: TrialInput;
  readonly outcome: TrialOutcome;
  readonly planHeight: number;
  /** Block whose EndBlocker executed the upgrade proposal; null when it never did. */
  readonly upgradeHeight: number | null;
  /** Block whose EndBlocker executed the cancel proposal; null when it never did. */
  readonly cancelHeight: number | null;
  /** Height of the first halt; null without one. */
  readonly haltHeight: number | null;
  readonly finalHeight: number;
  /** Step errors and failure reasons, for the unexpected outcomes. */
  readonly detail: string;
}

/** The parts of the configuration a trial needs. */
export type TrialSetup = Pick<CancelWindowConfig, "strategy" | "expedited" | "safetyDeltaMs" | "submitHeight">;

const UPGRADE = "upgrade";
const CANCEL = "cancel";

/** Deposits of one proposal: what the submission carries and what the later deposit adds up to the minimum. */
function depositParts(min: Coins, delayMs: number): { initial: CoinInput[]; rest: CoinInput[] } {
  if (delayMs === 0) return { initial: [...min], rest: [] };
  const initial = min.map((c) => ({ denom: c.denom, amount: c.amount / 10n > 0n ? c.amount / 10n : 1n }));
  const rest = min.map((c, i) => ({ denom: c.denom, amount: c.amount - initial[i]!.amount }));
  return { initial, rest };
}

/** Steps are scheduled as the run unfolds; indexes only grow, so same-time steps run in scheduling order. */
class TrialDriver {
  readonly e: Simulation;
  readonly #validators: readonly string[];
  #index = 0;

  constructor(e: Simulation, validators: readonly string[]) {
    this.e = e;
    this.#validators = validators;
  }

  schedule(trigger: Trigger, action: Action, label?: string): void {
    this.e.schedule({ index: this.#index++, trigger, action, ...(label === undefined ? {} : { label }) });
  }

  /**
   * Runs until the transactions of the steps scheduled for `timeMs` have landed in the first block at or after it
   * (or the chain stalled). Only the driver's own steps are ever pending, so `pending` means "not landed yet".
   */
  landAt(timeMs: number): void {
    this.e.run({ untilTimeMs: timeMs });
    if (!this.e.stalled && this.e.pending) this.e.run({ untilHeight: this.e.height + 1 });
  }

  /** Submission block time of a proposal; undefined when its submission did not land. */
  submitTimeOf(label: string): number | undefined {
    const p = this.e.proposalByLabel(label);
    return p === undefined ? undefined : this.e.blocks.timeMs(p.submitHeight);
  }

  /** Tops the proposal up to its minimum deposit at `timeMs` (if needed) and has every validator vote yes then. */
  activate(label: string, from: string, rest: readonly CoinInput[], timeMs: number): void {
    if (rest.length > 0)
      this.schedule({ kind: "time", timeMs }, { kind: "deposit", proposal: label, from, amount: rest });
    this.schedule(
      { kind: "time", timeMs },
      { kind: "vote", proposal: label, votes: new Map(this.#validators.map((v) => [v, "yes"] as const)) },
    );
    this.landAt(timeMs);
  }

  /** Runs until the proposal left its voting period, or the chain stalled. */
  runUntilDecided(label: string): void {
    for (;;) {
      const p = this.e.proposalByLabel(label);
      if (p === undefined || p.status !== "voting_period" || this.e.stalled) return;
      const before = this.e.height;
      const end = p.votingEndTimeMs;
      // All blocks up to the end time, then the first block at or after it (whose EndBlocker tallies).
      if (end !== null && this.e.lastBlockTimeMs < end) this.e.run({ untilTimeMs: end });
      if (this.e.proposalByLabel(label)?.status === "voting_period" && !this.e.stalled)
        this.e.run({ untilHeight: this.e.height + 1 });
      if (this.e.height === before) return;
    }
  }

  /** The first committed block whose time reaches `timeMs`: where gov executes a proposal ending then. */
  firstBlockAtOrAfter(timeMs: number): number | null {
    let lo = 1;
    let hi = this.e.height;
    if (hi < 1 || (this.e.blocks.timeMs(hi) ?? Number.NEGATIVE_INFINITY) < timeMs) return null;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.e.blocks.timeMs(mid) ?? Number.POSITIVE_INFINITY) >= timeMs) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  stepErrors(): string {
    return this.e
      .stepResults()
      .filter((r) => !r.ok)
      .map((r) => `step ${r.index} (${r.action}): ${r.error}`)
      .join("; ");
  }
}

/** Runs one trial on a fresh engine built from the trial chain `chain` (see chain.ts). */
export function runTrial(chain: Scenario, setup: TrialSetup, input: TrialInput): TrialResult {
  const e = trialEngine(chain, input.seed);
  const d = new TrialDriver(
    e,
    chain.chain.validators.map((v) => v.name),
  );
  const h0 = setup.submitHeight;
  const planHeight = h0 + input.offset;
  const gov = chain.chain.gov;
  const authority = govAuthority(chain.chain.bech32Prefix);

  const up = depositParts(gov.minDeposit, input.depositDelayMs);
  d.schedule(
    { kind: "height", height: h0 },
    {
      kind: "submitProposal",
      id: UPGRADE,
      proposer: UPGRADE_PROPOSER,
      title: `Upgrade to ${PLAN_NAME}`,
      summary: `Schedules ${PLAN_NAME} at height ${planHeight}`,
      metadata: "",
      deposit: up.initial,
      expedited: false,
      messages: [
        {
          kind: "softwareUpgrade",
          authority,
          plan: { name: PLAN_NAME, height: BigInt(planHeight), info: "" },
        },
      ],
    },
  );
  e.run({ untilHeight: h0 });
  const upSubmit = d.submitTimeOf(UPGRADE);
  if (upSubmit !== undefined) d.activate(UPGRADE, UPGRADE_PROPOSER, up.rest, upSubmit + input.depositDelayMs);

  const cancelMin = setup.expedited ? gov.expeditedMinDeposit : gov.minDeposit;
  const cancel = depositParts(cancelMin, input.cancelDepositDelayMs);
  const submitCancel = (timeMs: number): void => {
    d.schedule(
      { kind: "time", timeMs },
      {
        kind: "submitProposal",
        id: CANCEL,
        proposer: CANCEL_PROPOSER,
        title: `Cancel ${PLAN_NAME}`,
        summary: `Cancels the scheduled ${PLAN_NAME} upgrade`,
        metadata: "",
        deposit: cancel.initial,
        expedited: setup.expedited,
        messages: [{ kind: "cancelUpgrade", authority }],
      },
    );
    d.landAt(timeMs);
    const t = d.submitTimeOf(CANCEL);
    if (t !== undefined) d.activate(CANCEL, CANCEL_PROPOSER, cancel.rest, t + input.cancelDepositDelayMs);
  };

  const upgradeRecord = () => e.proposalByLabel(UPGRADE);
  if (upgradeRecord()?.status === "voting_period") {
    if (setup.strategy === "during-voting") {
      submitCancel(e.nowMs);
      d.runUntilDecided(UPGRADE);
    } else {
      d.runUntilDecided(UPGRADE);
      const u = upgradeRecord();
      if (u?.status === "passed" && u.votingEndTimeMs !== null) {
        const hu = d.firstBlockAtOrAfter(u.votingEndTimeMs);
        if (hu !== null) submitCancel(e.blocks.timeMs(hu)! + setup.safetyDeltaMs);
      }
    }
    d.runUntilDecided(CANCEL);
  }
  return classify(d, input, planHeight);
}

function classify(d: TrialDriver, input: TrialInput, planHeight: number): TrialResult {
  const e = d.e;
  const u = e.proposalByLabel(UPGRADE);
  const c = e.proposalByLabel(CANCEL);
  const executedAt = (p: typeof u): number | null =>
    p === undefined || p.votingEndTimeMs === null || p.status === "voting_period" || p.status === "deposit_period"
      ? null
      : d.firstBlockAtOrAfter(p.votingEndTimeMs);
  const upgradeHeight = executedAt(u);
  const cancelHeight = c?.status === "passed" ? executedAt(c) : null;
  const halt = e.halts[0];
  const base = {
    input,
    planHeight,
    upgradeHeight,
    cancelHeight,
    haltHeight: halt?.height ?? null,
    finalHeight: e.height,
  };
  const result = (outcome: TrialOutcome, detail = ""): TrialResult => ({ ...base, outcome, detail });
  if (u?.status !== "passed") {
    if (u?.status === "failed" && u.failedReason.includes("in the past")) return result("plan-in-past", u.failedReason);
    return result("upgrade-not-passed", u === undefined ? d.stepErrors() : `${u.status} ${u.failedReason}`.trim());
  }
  if (halt !== undefined) return result("too-late", `${halt.node} ${halt.kind} at ${halt.height}: ${halt.message}`);
  if (c === undefined || c.status !== "passed" || cancelHeight === null)
    return result("cancel-not-passed", c === undefined ? d.stepErrors() : `${c.status} ${c.failedReason}`.trim());
  const cancelAfter =
    c.votingEndTimeMs! > u.votingEndTimeMs! || (c.votingEndTimeMs === u.votingEndTimeMs && c.id > u.id);
  if (!cancelAfter) return result("cancel-before-upgrade");
  if (e.committed()?.plan !== null) return result("plan-survived", JSON.stringify(e.committed()?.plan ?? null));
  return result("landed");
}

/**
 * The smallest offset at which this trial's seed (same block times, same deposit delays) lands; +∞ when it did
 * not land. Exact, not an estimate: a trial's run up to the cancel's execution does not depend on the plan height
 * (block times depend only on (seed, height), steps on times), so with the cancel executed in block hc after the
 * upgrade executed in block hu, a plan at H lands iff H > hc (due in a later block), or H = hu = hc (stored and
 * cleared in the same EndBlocker). A lower H triggers first, or (H < hu) makes the upgrade fail as "in the past".
 */
export function landingOffset(r: TrialResult, submitHeight: number): number {
  if (r.outcome !== "landed" || r.upgradeHeight === null || r.cancelHeight === null) return Number.POSITIVE_INFINITY;
  const h = r.cancelHeight > r.upgradeHeight ? r.cancelHeight + 1 : r.upgradeHeight;
  return h - submitHeight;
}
