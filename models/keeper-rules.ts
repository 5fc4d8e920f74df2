/**
 * The upgrade keeper's rules as pure functions of the committed state (docs/fidelity.md §2.2, §2.4; §3.10):
 * plan validation, ScheduleUpgrade, CancelUpgrade, the done markers and the all-or-nothing execution of a message list.
 */
import type { Height } from "../src/core/brand.js";
import { compareNames } from "./binary-outcome.js";
import type { ChainState, DoneEntry, Plan, PlanHeight, UpgradeMsg } from "./types.js";

export type ExecResult =
  | { readonly ok: true; readonly state: ChainState }
  | { readonly ok: false; readonly error: string };

/** Safe integers become numbers, so equal heights compare equal whatever their input type. */
export function normalizeHeight(h: PlanHeight): PlanHeight {
  if (typeof h === "number") return h;
  return h >= BigInt(Number.MIN_SAFE_INTEGER) && h <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(h) : h;
}

/** Three-way comparison of a plan height with a block height. */
export function compareHeight(a: PlanHeight, b: number): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Plan.ShouldExecute(h): height > 0 && height <= h. */
export function shouldExecute(plan: Plan, h: number): boolean {
  return compareHeight(plan.height, 0) > 0 && compareHeight(plan.height, h) <= 0;
}

/** Plan.ValidateBasic for the fields a message can set (time and client state are never set here). */
export function validatePlanBasic(plan: Plan): string | null {
  if (plan.name === "") return "name cannot be empty: invalid request";
  if (compareHeight(plan.height, 0) <= 0) return "height must be greater than 0: invalid request";
  return null;
}

/** GetDoneHeight: the lowest done height recorded for the exact name, 0 when none. */
export function doneHeight(done: readonly DoneEntry[], name: string): number {
  return done.find((d) => d.name === name)?.height ?? 0;
}

/** GetLastCompletedUpgrade: the highest done key (highest height, ties by greatest name bytes); null when none. */
export function lastCompletedUpgrade(done: readonly DoneEntry[]): DoneEntry | null {
  return done.at(-1) ?? null;
}

/** setDone at block `h`, keeping the store key order (height, then name bytes). */
export function markDone(done: readonly DoneEntry[], name: string, h: Height): readonly DoneEntry[] {
  return [...done, { name, height: h }].sort((a, b) => a.height - b.height || compareNames(a.name, b.name));
}

/** ScheduleUpgrade at block `h`: validate, refuse the past and completed names, then overwrite the slot. */
export function scheduleUpgrade(state: ChainState, h: number, plan: Plan): ExecResult {
  const invalid = validatePlanBasic(plan);
  if (invalid !== null) return { ok: false, error: invalid };
  if (compareHeight(plan.height, h) < 0) {
    return { ok: false, error: "upgrade cannot be scheduled in the past: invalid request" };
  }
  if (doneHeight(state.done, plan.name) !== 0) {
    return { ok: false, error: `upgrade with name ${plan.name} has already been completed: invalid request` };
  }
  return { ok: true, state: { ...state, plan } };
}

/** CancelUpgrade: clears the slot; succeeds silently when it is empty. */
export function cancelUpgrade(state: ChainState): ExecResult {
  return { ok: true, state: state.plan === null ? state : { ...state, plan: null } };
}

export function planOfMsg(msg: Extract<UpgradeMsg, { type: "softwareUpgrade" }>): Plan {
  return { name: msg.plan.name, height: normalizeHeight(msg.plan.height), info: msg.plan.info ?? "" };
}

/**
 * The Msg server's first check, before any plan is looked at: a message whose authority (here, the transaction's
 * signer) is not the keeper's is refused with ErrInvalidSigner, `expected <authority> got <signer>`.
 */
export function signerRefusal(authority: string, signer: string): string | null {
  return signer === authority
    ? null
    : `expected ${authority} got ${signer}: expected authority account as only signer for proposal message`;
}

/**
 * Msg/SoftwareUpgrade: after the authority check, the plan's ValidateBasic error is wrapped with `plan`, then
 * ScheduleUpgrade runs.
 */
export function softwareUpgrade(state: ChainState, h: number, plan: Plan): ExecResult {
  const invalid = validatePlanBasic(plan);
  if (invalid !== null) return { ok: false, error: `plan: ${invalid}` };
  return scheduleUpgrade(state, h, plan);
}

/** Runs `msgs` in order at block `h` on a branch: the first failure discards every message's effect. */
export function executeMessages(state: ChainState, h: number, msgs: readonly UpgradeMsg[]): ExecResult {
  let current = state;
  for (const msg of msgs) {
    const r = msg.type === "softwareUpgrade" ? softwareUpgrade(current, h, planOfMsg(msg)) : cancelUpgrade(current);
    if (!r.ok) return r;
    current = r.state;
  }
  return { ok: true, state: current };
}
