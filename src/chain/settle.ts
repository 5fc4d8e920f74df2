import { type EngineCtx, type EngineState, pending, referenceNode } from "./engine-state.js";
import { SETTLE_MARGIN_BLOCKS } from "./records.js";

/**
 * The settle rule, the default end of a scenario run (docs/scenario-format.md): the run ends SETTLE_MARGIN_BLOCKS
 * past the last step and the last plan event (a plan applied, skipped, changed, passed or failed), once no step or
 * event is pending, no proposal is in its deposit or voting period, and the chain stores no plan. One rule, read by
 * the run loop (`settled`: stop here) and by the idle fast path (`settleHeight`: commit no idle block past it), so
 * both stop at the same block.
 */

/** The height the rule names: SETTLE_MARGIN_BLOCKS past the last step and the last plan event. */
const settleFloor = <S>(s: EngineState<S>): number =>
  Math.max(s.book.lastStepHeight, s.book.lastPlanEventHeight) + SETTLE_MARGIN_BLOCKS;

/** True while the run cannot end whatever the height: something pending, a proposal open, a plan stored. */
function settleBlocked<S>(ctx: EngineCtx<S>): boolean {
  const { s } = ctx;
  if (pending(s)) return true;
  for (const p of s.book.proposals.values())
    if (p.status === "deposit_period" || p.status === "voting_period") return true;
  const ref = referenceNode(ctx);
  return ref !== undefined && ctx.host.readCommittedPlan(ref.state) !== null;
}

/** The height at which a settle run ends, or undefined while it cannot end. */
export function settleHeight<S>(ctx: EngineCtx<S>): number | undefined {
  return settleBlocked(ctx) ? undefined : settleFloor(ctx.s);
}

/** True when a settle run ends at the current height (the cheap half of the rule first). */
export function settled<S>(ctx: EngineCtx<S>): boolean {
  return ctx.s.height >= settleFloor(ctx.s) && !settleBlocked(ctx);
}
