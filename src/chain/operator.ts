import type { EngineCtx, NodeRecord } from "./engine-state.js";
import type { QueuedPayload } from "./event-queue.js";
import { OperatorDraws } from "./operator-draws.js";
import { planRecovery } from "./operator-plan.js";
import { pushEvent } from "./schedule.js";

/**
 * The operator model in the engine (docs/scenario-format.md §2.4, docs/fidelity.md §4.6).
 *
 * 1. On a node's `upgrade-needed` halt its operator reads upgrade-info.json and picks the binary (the configured one
 *    for the plan, else the only binary with the plan's handler); cosmovisor acts only on a height above the last it
 *    handled (docs/fidelity.md §4.2 rule 3), a person always. Nothing to do is traced as phase `none`.
 * 2. The recovery (operator-plan.ts) is planned at once, with the draws of episode = the halt height, and each of its
 *    steps queued at its time; each traces as it is reached, so the trace and the timeline show the sequence.
 * 3. A step of an older halt (the node was restarted or halted again meanwhile) is dropped. The restart step starts
 *    the binary (the coordinator catches the node up).
 */
export function scheduleOperator<S>(ctx: EngineCtx<S>, n: NodeRecord<S>, height: number, timeMs: number): void {
  const { s, host } = ctx;
  const op = n.cfg.operator;
  if (op === undefined) return;
  const node = n.cfg.name;
  const none = (detail: string): void => {
    s.trace.emit({ kind: "operator", node, phase: "none", detail, timeMs });
  };
  const info = host.readUpgradeInfo(n.state);
  if (info.kind !== "ok") {
    none(info.kind === "absent" ? "no upgrade-info.json" : info.error);
    return;
  }
  if (op.cosmovisor !== undefined) {
    if (info.height <= n.sidecarHandledHeight) {
      none(`already switched binaries for height ${info.height}`);
      return;
    }
    n.sidecarHandledHeight = info.height;
  }
  const candidates = host.binariesWithHandler(info.name);
  const binary = op.binaries.get(info.name) ?? (candidates.length === 1 ? candidates[0] : undefined);
  if (binary === undefined) {
    none(
      candidates.length === 0
        ? `no binary has a handler for "${info.name}"`
        : `several binaries have a handler for "${info.name}"`,
    );
    return;
  }
  const draws = new OperatorDraws(s.cfg.seed, node);
  const plan = planRecovery(op, { haltMs: timeMs, episode: height, binary, oldBinary: n.binary }, draws, true);
  const afterDownloadFailure = (plan.steps ?? []).some((st) => st.phase === "download-failed");
  for (const st of plan.steps ?? [])
    pushEvent(s.schedule, {
      timeMs: st.atMs,
      kind: "operator",
      node,
      haltSeq: n.haltSeq,
      phase: st.phase,
      detail: st.detail,
      ...(st.phase === "restart" ? { binary, afterDownloadFailure } : {}),
    });
}

/** Handles a queued operator step: traces it; the binary to start for the restart step, else undefined. */
export function operatorStep<S>(
  ctx: EngineCtx<S>,
  n: NodeRecord<S>,
  e: Extract<QueuedPayload, { readonly kind: "operator" }>,
): string | undefined {
  if (n.status !== "halted" || n.haltSeq !== e.haltSeq) return undefined;
  const { s } = ctx;
  s.trace.emit({
    kind: "operator",
    node: n.cfg.name,
    phase: e.phase,
    detail: e.detail,
    timeMs: s.nowMs,
  });
  const hook = ctx.opts.operatorLaunch;
  return e.binary === undefined || hook === undefined
    ? e.binary
    : hook(n.cfg.name, e.binary, n.binary, e.afterDownloadFailure === true);
}
