import { meanInterval } from "./block-time.js";
import type { EngineCtx, NodeRecord } from "./engine-state.js";
import type { QueuedPayload } from "./event-queue.js";
import { OperatorDraws } from "./operator-draws.js";
import { type OperatorStep, planEarly, planFix, planRecovery } from "./operator-plan.js";
import { pushEvent } from "./schedule.js";

/**
 * The operator model in the engine (docs/scenario-format.md §2.4, docs/fidelity.md §4.6).
 *
 * 1. On a node's `upgrade-needed` halt its operator reads upgrade-info.json and picks the binary (the configured one
 *    for the plan, else the only binary with the plan's handler); cosmovisor acts only on a height above the last it
 *    handled (docs/fidelity.md §4.2 rule 3), a person always. Nothing to do is traced as phase `none`.
 * 2. The recovery (operator-plan.ts) is planned at once, with the draws of episode = the halt height, and each of its
 *    steps queued at its time; each traces as it is reached, so the trace and the timeline show the sequence.
 * 3. A step that names a binary starts it through the same engine action a swap uses: a wrong binary really runs,
 *    and the engine's own rules halt it again; the recovery's later steps expect exactly those halts (one per wrong
 *    binary: the next halt after the wrong start, on that binary) and go on through them. Any other halt ends the
 *    recovery and starts the next one: a step of an older halt (the node was restarted or halted otherwise
 *    meanwhile) is dropped.
 * 4. Ahead of the upgrade: once a plan is committed, an operator with `manual.early` or `cosmovisor.addUpgrade`
 *    plans its early action (planEarly) against the halt it expects (now + blocks to go × the mean block time). A
 *    staged upgrade writes upgrade-info.json and marks the height handled by cosmovisor; its stop stops the running
 *    node. The early start is an ordinary start: the engine's rules halt the node below the plan height (BINARY
 *    UPDATED BEFORE TRIGGER, a store load that fails, a wrong app version). Such a halt is handed to the person
 *    (planFix), who goes back to the old binary, removes a staged upgrade-info.json and restarts cosmovisor (which
 *    forgets the staged height); then the node halts at the plan height like the others.
 */
export function scheduleOperator<S>(ctx: EngineCtx<S>, n: NodeRecord<S>, height: number, timeMs: number): void {
  const { s, host } = ctx;
  const op = n.cfg.operator;
  if (op === undefined || expectedHalt(n)) return;
  // A halt the recovery in progress did not cause (a scenario step restarted the node meanwhile, or it halted at a
  // later plan): that recovery is over. Its remaining steps carry halt sequence numbers up to operatorThroughSeq;
  // move past them so that none of them applies to this halt.
  if (n.haltSeq <= n.operatorThroughSeq) n.haltSeq = n.operatorThroughSeq + 1;
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
  const binary = planBinary(ctx, n, info.name);
  if (typeof binary !== "string") {
    none(binary.none);
    return;
  }
  const draws = new OperatorDraws(s.cfg.seed, node);
  const plan = planRecovery(op, { haltMs: timeMs, episode: height, binary, oldBinary: n.binary }, draws, true);
  const steps = plan.steps ?? [];
  const afterDownloadFailure = steps.some((st) => st.phase === "download-failed");
  let seq = n.haltSeq;
  for (const st of steps) {
    pushStep(ctx, n, st, seq, afterDownloadFailure);
    if (st.phase === "wrong-binary") seq++;
  }
  n.operatorThroughSeq = seq;
}

/**
 * Whether the node's latest halt is the one its recovery's wrong binary caused (step 3): the next halt after that
 * start, on that binary. Takes the expectation: any halt ends it.
 */
function expectedHalt<S>(n: NodeRecord<S>): boolean {
  const a = n.operatorAwaits;
  n.operatorAwaits = undefined;
  return a !== undefined && a.haltSeq + 1 === n.haltSeq && a.binary === n.binary;
}

/** The binary the operator installs for plan `name`, or why there is none. */
function planBinary<S>(ctx: EngineCtx<S>, n: NodeRecord<S>, name: string): string | { readonly none: string } {
  const candidates = ctx.host.binariesWithHandler(name);
  const binary = n.cfg.operator?.binaries.get(name) ?? (candidates.length === 1 ? candidates[0] : undefined);
  if (binary !== undefined) return binary;
  return {
    none:
      candidates.length === 0
        ? `no binary has a handler for "${name}"`
        : `several binaries have a handler for "${name}"`,
  };
}

function pushStep<S>(
  ctx: EngineCtx<S>,
  n: NodeRecord<S>,
  st: OperatorStep,
  haltSeq: number,
  afterDownloadFailure: boolean,
  early?: { readonly planName: string; readonly planHeight: number },
): void {
  pushEvent(ctx.s.schedule, {
    timeMs: st.atMs,
    kind: "operator",
    node: n.cfg.name,
    haltSeq,
    phase: st.phase,
    detail: st.detail,
    ...(st.binary === undefined ? {} : { binary: st.binary }),
    ...(st.phase === "restart" ? { afterDownloadFailure } : {}),
    ...(early === undefined ? {} : { early }),
  });
}

/** Once plan (name, height) is committed at block `height` (time `timeMs`): each operator's early action, if any. */
export function scheduleEarly<S>(
  ctx: EngineCtx<S>,
  plan: { readonly name: string; readonly height: number },
  height: number,
  timeMs: number,
): void {
  const { s } = ctx;
  for (const n of s.nodes) {
    const op = n.cfg.operator;
    if (op === undefined || n.status !== "running" || plan.height <= height) continue;
    if (op.manual?.early === undefined && op.cosmovisor?.addUpgrade === undefined) continue;
    const binary = planBinary(ctx, n, plan.name);
    if (typeof binary !== "string" || binary === n.binary) continue;
    const expectedHaltMs = timeMs + (plan.height - height) * meanInterval(s.cfg.blockTime);
    const input = {
      nowMs: timeMs,
      expectedHaltMs,
      planName: plan.name,
      planHeight: plan.height,
      binary,
      oldBinary: n.binary,
    };
    const early = { planName: plan.name, planHeight: plan.height };
    for (const st of planEarly(op, input, new OperatorDraws(s.cfg.seed, n.cfg.name)))
      pushStep(ctx, n, st, n.haltSeq, false, early);
  }
}

/**
 * After a halt below the plan height that the operator's early start caused: the person's fix (planFix), if any,
 * with the draws of episode = the plan height (as `explore halt-recovery` draws it).
 */
export function scheduleFix<S>(ctx: EngineCtx<S>, n: NodeRecord<S>, timeMs: number): void {
  const early = n.operatorEarly;
  const m = n.cfg.operator?.manual;
  if (early === undefined) return;
  if (m === undefined) {
    ctx.s.trace.emit({
      kind: "operator",
      node: n.cfg.name,
      phase: "none",
      detail: "no person to go back to the old binary",
      timeMs,
    });
    return;
  }
  const draws = new OperatorDraws(ctx.s.cfg.seed, n.cfg.name);
  for (const st of planFix(m, timeMs, early.planHeight, early.oldBinary, draws)) pushStep(ctx, n, st, n.haltSeq, false);
}

/** What the engine does for an operator step: start a binary, stop the running node, or nothing. */
export type OperatorMove = { readonly kind: "start"; readonly binary: string } | { readonly kind: "stop" } | undefined;

/** Handles a queued operator step: traces it and returns the engine's move. */
export function operatorStep<S>(
  ctx: EngineCtx<S>,
  n: NodeRecord<S>,
  e: Extract<QueuedPayload, { readonly kind: "operator" }>,
): OperatorMove {
  const live = e.early === undefined ? n.status === "halted" : n.status !== "halted";
  if (!live || n.haltSeq !== e.haltSeq) return undefined;
  const { s, host } = ctx;
  s.trace.emit({
    kind: "operator",
    node: n.cfg.name,
    phase: e.phase,
    detail: e.detail,
    timeMs: s.nowMs,
  });
  if (e.early !== undefined && earlyEffect(ctx, n, e, e.early)) return { kind: "stop" };
  if (e.phase === "downgrade" && n.operatorEarly !== undefined) {
    if (n.operatorEarly.staged) host.removeUpgradeInfo(n.state);
    n.sidecarHandledHeight = n.operatorEarly.handledHeight;
    n.operatorEarly = undefined;
  }
  if (e.binary === undefined) return undefined;
  if (e.phase === "wrong-binary") n.operatorAwaits = { haltSeq: n.haltSeq, binary: e.binary };
  const hook = ctx.opts.operatorLaunch;
  const binary =
    hook === undefined || e.phase !== "restart"
      ? e.binary
      : hook(n.cfg.name, e.binary, n.binary, e.afterDownloadFailure === true);
  return { kind: "start", binary };
}

/**
 * What an early step does besides starting a binary: staging writes the file and marks the height handled; true
 * when the step stops the running node (cosmovisor's stop of a staged upgrade).
 */
function earlyEffect<S>(
  ctx: EngineCtx<S>,
  n: NodeRecord<S>,
  e: Extract<QueuedPayload, { readonly kind: "operator" }>,
  plan: { readonly planName: string; readonly planHeight: number },
): boolean {
  switch (e.phase) {
    case "stage":
      ctx.host.stageUpgradeInfo(n.state, plan.planName, plan.planHeight);
      n.operatorEarly = {
        planHeight: plan.planHeight,
        oldBinary: n.binary,
        handledHeight: n.sidecarHandledHeight,
        staged: true,
      };
      n.sidecarHandledHeight = Math.max(n.sidecarHandledHeight, plan.planHeight);
      break;
    case "stop":
      return n.status === "running";
    case "restart-early":
      n.operatorEarly ??= {
        planHeight: plan.planHeight,
        oldBinary: n.binary,
        handledHeight: n.sidecarHandledHeight,
        staged: false,
      };
      break;
    default:
      break;
  }
  return false;
}
