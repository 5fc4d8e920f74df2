import type { Halt } from "../app/types.js";
import type { LogLine } from "../core/context.js";
import type { EngineCtx, EngineState, NodeRecord } from "./engine-state.js";
import { scheduleFix, scheduleOperator } from "./operator.js";
import type { HaltRecord } from "./records.js";
import { offerHalt, pushEvent } from "./schedule.js";

/**
 * Node lifecycle: a node is running (a process of its binary over its state), halted (its process gone after an
 * error) or stopped (by a step).
 *
 * 1. Stop: the process is dropped, uncommitted work aborted; traced once (stopping a stopped node is silent).
 * 2. Start: stop first, then the app host starts the binary (upgrade-info.json, store loader). A failed start is a
 *    halt at the node's next height. A started node is behind the chain until the coordinator catches it up
 *    (produce.ts).
 * 3. Halt: recorded, traced, offered to halt watchers (schedule.ts); a node with a sidecar queues the sidecar for an
 *    `upgrade-needed` halt, after its delay.
 * 4. Sidecar (cosmovisor): acts only on the node's latest halt; reads upgrade-info.json and picks the binary (the
 *    configured one for the plan name, else the only binary with its handler). The coordinator starts it.
 */

/** The halt of a node whose block result differs from the chain's. */
export const appHashMismatch = (height: number): Halt => ({
  kind: "app-hash-mismatch",
  message: `wrong Block.Header.AppHash at height ${height}`,
});

export function stopNode<S>(ctx: EngineCtx<S>, n: NodeRecord<S>): void {
  n.process?.abort();
  n.process = undefined;
  if (n.status === "stopped") return;
  n.status = "stopped";
  ctx.s.trace.emit({ kind: "stop", node: n.cfg.name, timeMs: ctx.s.nowMs });
}

/** Starts `binary` on the node; true when it runs (then behind the chain until caught up). */
export function startProcess<S>(ctx: EngineCtx<S>, n: NodeRecord<S>, binary: string, skip: readonly number[]): boolean {
  const { s, host } = ctx;
  stopNode(ctx, n);
  n.binary = binary;
  n.skip = skip;
  s.trace.emit({ kind: "start", node: n.cfg.name, binary, skip, timeMs: s.nowMs });
  const res = host.start(n.state, n.cfg, binary, skip);
  if (!res.ok) {
    haltNode(ctx, n, host.lastHeight(n.state) + 1, res.halt, s.nowMs, []);
    return false;
  }
  n.process = res.process;
  n.status = "running";
  return true;
}

/** Halts the node at `height`; `logs` are its final log lines (HaltRecord.logs). */
export function haltNode<S>(
  ctx: EngineCtx<S>,
  n: NodeRecord<S>,
  height: number,
  halt: Halt,
  timeMs: number,
  logs: readonly LogLine[],
): void {
  const { s } = ctx;
  n.process?.abort();
  n.process = undefined;
  n.status = "halted";
  n.haltSeq++;
  const rec: HaltRecord = { node: n.cfg.name, height, kind: halt.kind, message: halt.message, timeMs, logs };
  s.halts.push(rec);
  s.trace.emit({ kind: "halt", node: n.cfg.name, height, haltKind: halt.kind, message: halt.message, timeMs });
  if (n.cfg.operator !== undefined && halt.kind === "upgrade-needed") scheduleOperator(ctx, n, height, timeMs);
  else if (n.operatorEarly !== undefined) scheduleFix(ctx, n, timeMs);
  if (n.cfg.sidecar.enabled && halt.kind === "upgrade-needed")
    pushEvent(s.schedule, {
      timeMs: timeMs + n.cfg.sidecar.delayMs,
      kind: "sidecar",
      node: n.cfg.name,
      haltSeq: n.haltSeq,
    });
  offerHalt(s, s.halts.length - 1);
}

/** The binary the node's sidecar switches to for its halt `haltSeq`, or undefined when it does nothing (traced). */
export function sidecarBinary<S>(ctx: EngineCtx<S>, n: NodeRecord<S>, haltSeq: number): string | undefined {
  const { s, host } = ctx;
  const node = n.cfg.name;
  const none = (reason: string): undefined => {
    s.trace.emit({ kind: "sidecar", node, action: "none", reason });
  };
  if (n.status !== "halted" || n.haltSeq !== haltSeq) return none("node no longer halted");
  const info = host.readUpgradeInfo(n.state);
  if (info.kind !== "ok") return none(info.kind === "absent" ? "no upgrade-info.json" : info.error);
  // cosmovisor (docs/fidelity.md §4.2 rule 3): after its first upgrade, a later upgrade-info.json triggers an upgrade
  // only if its height is greater than the last height it handled; otherwise it keeps waiting.
  if (info.height <= n.sidecarHandledHeight) return none(`already switched binaries for height ${info.height}`);
  n.sidecarHandledHeight = info.height;
  const candidates = host.binariesWithHandler(info.name);
  const binary = n.cfg.sidecar.binaries.get(info.name) ?? (candidates.length === 1 ? candidates[0] : undefined);
  if (binary === undefined)
    return none(
      candidates.length === 0
        ? `no binary has a handler for "${info.name}"`
        : `several binaries have a handler for "${info.name}"`,
    );
  s.trace.emit({ kind: "sidecar", node, action: "swap", plan: info.name, binary, timeMs: s.nowMs });
  return binary;
}

/** The halted state of the chain: stalled with block `height` uncommitted, and which nodes are halted. */
export interface HaltedInfo {
  readonly height: number;
  readonly nodes: string[];
  readonly reason: string;
}

export function haltedInfo<S>(s: EngineState<S>): HaltedInfo | null {
  if (!s.stalled) return null;
  const running = s.nodes.filter((n) => n.status === "running").reduce((p, n) => p + n.cfg.power, 0);
  return {
    height: s.height + 1,
    nodes: s.nodes.filter((n) => n.status === "halted").map((n) => n.cfg.name),
    reason: `no app hash reached more than 2/3 of the voting power (running power ${running} of ${s.totalPower})`,
  };
}
