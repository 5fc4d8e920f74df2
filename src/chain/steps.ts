import { actionTxs } from "./action-txs.js";
import type { Step } from "./actions.js";
import { recordStep } from "./book.js";
import { type EngineCtx, type NodeRecord, nodeNamed } from "./engine-state.js";

/** A node operation a step asks for: the coordinator performs it (lifecycle.ts, then catch-up), then records it. */
export type NodeOp<S> =
  | { readonly kind: "start"; readonly node: NodeRecord<S>; readonly binary: string; readonly skip: readonly number[] }
  | { readonly kind: "stop"; readonly node: NodeRecord<S> };

/**
 * Runs a step at the current point of the simulation:
 *
 * 1. Traced, and marked for the settle rule.
 * 2. A transaction action (proposal, deposit, votes, cancel, tx, authorityExec) puts its transactions in the mempool
 *    for the next block; its result comes when they land (book.ts). Resolving it can fail (an unknown proposal
 *    label): then it fails at once.
 * 3. A node action (swap, restart, stop) on a known node with a known binary returns the node operation to perform;
 *    its result is recorded by the coordinator once performed.
 * 4. A check resolves through the engine's `check` callback; without one it fails.
 */
export function runStep<S>(ctx: EngineCtx<S>, step: Step): NodeOp<S> | undefined {
  const { s } = ctx;
  const a = step.action;
  s.book.lastStepHeight = Math.max(s.book.lastStepHeight, s.height);
  s.trace.emit({
    kind: "step",
    index: step.index,
    label: step.label ?? null,
    action: a.kind,
    timeMs: s.nowMs,
    height: s.height,
  });
  if (a.kind === "submitProposal") s.book.submitLabels.set(step.index, a.id);
  const sent = actionTxs(a, (lbl) => s.book.labels.get(lbl), s.cfg.bech32Prefix);
  if (sent !== undefined) {
    if (!sent.ok) {
      recordStep(s, step, false, sent.error);
      return undefined;
    }
    s.book.pendingTxSteps.set(step.index, {
      label: step.label ?? null,
      action: a.kind,
      parts: sent.txs.length,
      errors: [],
      result: null,
      landed: 0,
    });
    for (const tx of sent.txs) s.mempool.push({ tx, stepIndex: step.index });
    s.book.lastStepHeight = Math.max(s.book.lastStepHeight, s.height + 1);
    if (sent.txs.length === 0) recordStep(s, step, true, null);
    return undefined;
  }
  switch (a.kind) {
    case "swapBinary":
    case "restart": {
      const node = nodeNamed(s, a.node);
      if (node === undefined) return fail(ctx, step, `unknown node "${a.node}"`);
      const binary = a.kind === "swapBinary" ? a.binary : node.binary;
      if (!ctx.host.hasBinary(binary)) return fail(ctx, step, `unknown binary "${binary}"`);
      return { kind: "start", node, binary, skip: a.skipUpgradeHeights ?? node.skip };
    }
    case "stop": {
      const node = nodeNamed(s, a.node);
      if (node === undefined) return fail(ctx, step, `unknown node "${a.node}"`);
      return { kind: "stop", node };
    }
    case "writeUpgradeInfo": {
      const node = nodeNamed(s, a.node);
      if (node === undefined) return fail(ctx, step, `unknown node "${a.node}"`);
      const written = ctx.host.writeUpgradeInfo(node.state, a.content);
      recordStep(s, step, written.ok, written.ok ? null : written.error);
      return undefined;
    }
    case "check": {
      const r = ctx.opts.check?.(a.id) ?? { ok: false, error: `no check runner for check ${a.id}` };
      recordStep(s, step, r.ok, r.error ?? null);
      return undefined;
    }
    default:
      return undefined;
  }
}

function fail<S>(ctx: EngineCtx<S>, step: Step, error: string): undefined {
  recordStep(ctx.s, step, false, error);
  return undefined;
}
