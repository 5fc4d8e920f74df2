import type { ExecOutcome, GovBlockEvent } from "../app/types.js";
import { present } from "../core/assert.js";
import type { Step, StepResult } from "./actions.js";
import { canonicalJson } from "./canonical-json.js";
import { type EngineCtx, type EngineState, referenceNode } from "./engine-state.js";

/**
 * Step and transaction bookkeeping, after each step and each committed block:
 *
 * 1. A step that ran to its end (a node operation, a check, a failed send) has its result at once.
 * 2. A step that sent transactions has its result when the last of them lands in a committed block: ok when every
 *    part succeeded, else the parts' errors joined. A landed submission records the proposal and its label.
 * 3. Each block's gov events move the proposals' statuses; the touched proposals are then re-read from the chain's
 *    committed state (times, failed reason).
 * 4. A handler run, a skipped plan, a plan passed or failed, and a change of the committed plan (traced as a `plan`
 *    event) mark a plan event height for the settle rule.
 * Steps whose transactions never landed are reported failed (`stepResults`).
 */

type Applied = ExecOutcome & { readonly ok: true };

export function recordStep<S>(
  s: EngineState<S>,
  step: Step,
  ok: boolean,
  error: string | null,
  result: Record<string, unknown> | null = null,
): void {
  s.book.stepResults.set(step.index, {
    index: step.index,
    label: step.label ?? null,
    action: step.action.kind,
    height: s.height,
    ok,
    error,
    result,
  });
}

/** Matches the committed block's tx results (in mempool order) to the steps that sent them. */
export function recordTxResults<S>(s: EngineState<S>, height: number, rep: Applied): void {
  const { book } = s;
  const entries = s.mempool;
  s.mempool = [];
  entries.forEach((e, i) => {
    if (e.stepIndex === undefined) return;
    const p = book.pendingTxSteps.get(e.stepIndex);
    if (p === undefined) return;
    const r = rep.txResults[i] ?? { ok: false, error: "no result" };
    if (!r.ok) p.errors.push(r.error ?? "failed");
    if (r.proposalId !== undefined && r.ok) {
      p.result = { proposalId: Number(r.proposalId) };
      if (e.tx.kind === "submitProposal") {
        const lbl = book.submitLabels.get(e.stepIndex) ?? null;
        if (lbl !== null) book.labels.set(lbl, r.proposalId);
        book.proposals.set(r.proposalId, {
          id: r.proposalId,
          label: lbl ?? p.label,
          status: "deposit_period",
          submitHeight: height,
          depositEndTimeMs: null,
          votingStartTimeMs: null,
          votingEndTimeMs: null,
          failedReason: "",
        });
      }
    }
    p.landed++;
    if (p.landed !== p.parts) return;
    book.pendingTxSteps.delete(e.stepIndex);
    book.stepResults.set(e.stepIndex, {
      index: e.stepIndex,
      label: p.label,
      action: p.action,
      height,
      ok: p.errors.length === 0,
      error: p.errors.length === 0 ? null : p.errors.join("; "),
      result: p.result,
    });
  });
}

/** Applies a block's gov events to the proposals, then re-reads the touched ones from the committed state. */
export function recordGov<S>(ctx: EngineCtx<S>, height: number, events: readonly GovBlockEvent[]): void {
  if (events.length === 0) return;
  const { book } = ctx.s;
  const ref = referenceNode(ctx);
  const touched = new Set<bigint>();
  for (const ev of events) {
    const p = book.proposals.get(ev.id);
    if (p === undefined) continue;
    touched.add(ev.id);
    switch (ev.kind) {
      case "dropped":
      case "cancelled":
      case "passed":
      case "rejected":
        p.status = ev.kind;
        break;
      case "failed":
        p.status = "failed";
        p.failedReason = ev.reason;
        break;
      case "voting-started":
        p.status = "voting_period";
        break;
      default:
        break;
    }
    if (ev.kind === "passed" || ev.kind === "failed")
      book.lastPlanEventHeight = Math.max(book.lastPlanEventHeight, height);
  }
  if (ref === undefined) return;
  for (const id of touched) {
    const v = ctx.host.readProposal(ref.state, id);
    if (v === undefined) continue;
    const p = present(book.proposals.get(id), `proposal ${id} was touched, so it is recorded`);
    p.status = v.status;
    p.depositEndTimeMs = v.depositEndTimeMs;
    p.votingStartTimeMs = v.votingStartTimeMs ?? null;
    p.votingEndTimeMs = v.votingEndTimeMs ?? null;
    p.failedReason = v.failedReason;
  }
}

/** Records a block's handler run and skipped plan (plan events for the settle rule). */
export function recordPlanOutcome<S>(s: EngineState<S>, height: number, rep: Applied): void {
  const { book } = s;
  if (rep.applied !== undefined) {
    book.handlerRuns.set(rep.applied, (book.handlerRuns.get(rep.applied) ?? 0) + 1);
    book.lastPlanEventHeight = height;
  }
  if (rep.skipped !== undefined) book.lastPlanEventHeight = height;
}

/**
 * Emits a `plan` trace event when the committed plan differs from the last one traced; returns the new plan then
 * (null: cleared), else undefined.
 */
export function tracePlanChange<S>(
  ctx: EngineCtx<S>,
  height: number,
): { readonly name: string; readonly height: number } | null | undefined {
  const { book } = ctx.s;
  const ref = referenceNode(ctx);
  if (ref === undefined) return undefined;
  const plan = ctx.host.readCommittedPlan(ref.state);
  const key = canonicalJson(plan);
  if (key === book.lastPlanKey) return undefined;
  book.lastPlanKey = key;
  book.lastPlanEventHeight = Math.max(book.lastPlanEventHeight, height);
  ctx.s.trace.emit({ kind: "plan", height, plan });
  return plan;
}

/** Step results by step index, including steps whose transactions never landed (reported as failed). */
export function stepResults<S>(s: EngineState<S>): StepResult[] {
  const out = [...s.book.stepResults.values()];
  for (const [index, p] of s.book.pendingTxSteps)
    out.push({
      index,
      label: p.label,
      action: p.action,
      height: null,
      ok: false,
      error: `not included in a committed block (the chain is at height ${s.height})`,
      result: null,
    });
  return out.sort((a, b) => a.index - b.index);
}
