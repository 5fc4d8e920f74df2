import { type EngineCtx, pending, referenceNode } from "./engine-state.js";
import { SETTLE_MARGIN_BLOCKS } from "./records.js";

/**
 * The settle rule, the default end of a scenario run (docs/scenario-format.md): the run ends SETTLE_MARGIN_BLOCKS
 * past the last step and the last plan event (a plan applied, skipped, changed, passed or failed), once no step or
 * event is pending, no proposal is in its deposit or voting period, and the chain stores no plan. Returns that
 * height, or undefined while the run cannot end whatever the height. One decision, read by the run loop (stop at
 * it) and by the idle fast path (commit no idle block past it), so both stop at the same block.
 */
export function settleHeight<S>(ctx: EngineCtx<S>): number | undefined {
  const { s } = ctx;
  if (pending(s)) return undefined;
  for (const p of s.book.proposals.values())
    if (p.status === "deposit_period" || p.status === "voting_period") return undefined;
  const ref = referenceNode(ctx);
  if (ref !== undefined && ctx.host.readCommitted(ref.state).plan !== null) return undefined;
  return Math.max(s.book.lastStepHeight, s.book.lastPlanEventHeight) + SETTLE_MARGIN_BLOCKS;
}

/** True when a settle run ends at the current height. */
export function settled<S>(ctx: EngineCtx<S>): boolean {
  const at = settleHeight(ctx);
  return at !== undefined && ctx.s.height >= at;
}
