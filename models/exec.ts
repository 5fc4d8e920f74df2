/**
 * PROPOSAL_EXECUTED and AUTHORITY_EXEC: upgrade messages that ran inside block `height` after its PreBlocker
 * (transactions, then the gov EndBlocker). The harness sends them once block `height` has committed, so they apply
 * to the committed state at that height; events for any other height are not enabled.
 */
import { height } from "../src/core/brand.js";
import { currentState } from "./context.js";
import { type ExecResult, executeMessages } from "./keeper-rules.js";
import type { OracleContext, OracleEvent, Plan } from "./types.js";

export type ExecEvent = Extract<OracleEvent, { type: "PROPOSAL_EXECUTED" | "AUTHORITY_EXEC" }>;

export interface ExecResolution {
  /** False when the event's height is not the chain's last committed height (≥ 1). */
  readonly valid: boolean;
  readonly result: ExecResult | null;
  /** The plan slot before and after (after = before when the messages failed). */
  readonly planBefore: Plan | null;
  readonly planAfter: Plan | null;
}

export function resolveExec(ctx: OracleContext, ev: ExecEvent): ExecResolution {
  const before = currentState(ctx).plan;
  if (ctx.height < 1 || ev.height !== ctx.height)
    return { valid: false, result: null, planBefore: before, planAfter: before };
  const result = executeMessages(currentState(ctx), ev.height, ev.msgs);
  return { valid: true, result, planBefore: before, planAfter: result.ok ? result.state.plan : before };
}

export function applyExec(ctx: OracleContext, ev: ExecEvent): OracleContext {
  const r = resolveExec(ctx, ev);
  if (!r.valid || r.result === null) return ctx;
  const lastExec = {
    source: ev.type === "PROPOSAL_EXECUTED" ? "proposal" : "authority",
    height: height(ev.height),
    ok: r.result.ok,
    error: r.result.ok ? null : r.result.error,
  } as const;
  if (!r.result.ok) return { ...ctx, lastExec };
  return { ...ctx, states: ctx.states.withLast(r.result.state), lastExec };
}
