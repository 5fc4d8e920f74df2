import type { OperatorPhase } from "../chain/operator-plan.js";
import type { TraceEvent } from "../chain/trace-events.js";

/**
 * Each node's state over time, for the report's per-node lane (docs/scenario-format.md §2.4): which binary it runs
 * or last ran, and whether it is running, halted (with the reason), stopped, or in its operator's hands (backing up,
 * downloading, upgrading, waiting for its operator). Read from the trace; pure.
 *
 * A state lasts from its event to the node's next state change (or the end of the run). A start ends any operator
 * phase; an operator phase changes the state of a halted or stopped node only (a late step of a recovery is not
 * drawn over a running node; a staged upgrade's steps after cosmovisor stopped the node are).
 */

export const NODE_STATES = [
  "running",
  "halted",
  "stopped",
  "backing up",
  "downloading",
  "upgrading",
  "waiting for operator",
] as const;
export type NodeState = (typeof NODE_STATES)[number];

export interface NodeSpan {
  readonly node: string;
  readonly state: NodeState;
  readonly binary: string;
  readonly fromMs: number;
  readonly toMs: number;
  /** The tooltip: node, state, binary, and a halt's reason. */
  readonly text: string;
}

/** The lane state an operator phase puts a halted node in; undefined: no change (the halt's state stays). */
function phaseState(phase: OperatorPhase | "none"): { state: NodeState; why?: string } | undefined {
  switch (phase) {
    case "backup":
      return { state: "backing up" };
    case "download":
      return { state: "downloading" };
    case "detect":
    case "stop":
    case "restart-delay":
    case "switch":
    case "pre-upgrade":
      return { state: "upgrading" };
    case "wait-operator":
    case "wrong-binary":
    case "operator-acts":
      return { state: "waiting for operator" };
    case "download-failed":
    case "pre-upgrade-failed":
    case "exited":
    case "absent":
      return { state: "halted" };
    default:
      return undefined;
  }
}

interface Open {
  state: NodeState;
  binary: string;
  fromMs: number;
  why: string;
}

export function nodeSpans(events: readonly TraceEvent[], endMs: number): NodeSpan[] {
  const out: NodeSpan[] = [];
  const open = new Map<string, Open>();
  const close = (node: string, atMs: number) => {
    const o = open.get(node);
    if (o === undefined || atMs <= o.fromMs) return;
    const why = o.why === "" ? "" : `: ${o.why}`;
    out.push({
      node,
      state: o.state,
      binary: o.binary,
      fromMs: o.fromMs,
      toMs: atMs,
      text: `${node}: ${o.state} (${o.binary})${why}`,
    });
  };
  const set = (node: string, atMs: number, state: NodeState, binary: string | undefined, why: string) => {
    const o = open.get(node);
    close(node, atMs);
    open.set(node, { state, binary: binary ?? o?.binary ?? "", fromMs: atMs, why });
  };
  for (const e of events) {
    switch (e.kind) {
      case "genesis":
        for (const n of e.nodes) set(n.name, e.timeMs, "running", n.binary, "");
        break;
      case "start":
        set(e.node, e.timeMs, "running", e.binary, "");
        break;
      case "stop":
        set(e.node, e.timeMs, "stopped", undefined, "");
        break;
      case "halt":
        set(e.node, e.timeMs, "halted", undefined, `${e.haltKind}: ${e.message}`);
        break;
      case "operator": {
        const o = open.get(e.node);
        const next = phaseState(e.phase);
        if (o === undefined || o.state === "running" || next === undefined) break;
        set(e.node, e.timeMs, next.state, undefined, next.state === "halted" ? `${o.why}; ${e.detail}` : e.detail);
        break;
      }
      default:
        break;
    }
  }
  for (const node of open.keys()) close(node, endMs);
  return out.sort((a, b) => a.node.localeCompare(b.node) || a.fromMs - b.fromMs);
}
