/**
 * The statechart's transition ids, read from the machine (upgrade-machine.ts) instead of written out again.
 *
 * 1. A transition is named by its `trace` action's id, `<state>.<EVENT>.<label>` (upgrade-machine.ts header).
 * 2. `transitionId(source, event, guard)` finds the one transition definition of state node `source` on `event`
 *    whose guard is `guard`, and returns its id. It throws when there is none or more than one, so a renamed state,
 *    event or guard fails at import time of the module that asks, not silently at a wrong id.
 * 3. `FAST_PATH` is every id the oracle's fast path (oracle.ts `nodeStep`, `stepBlocks`) reports without running
 *    xstate, looked up once. `transition-ids.test.ts` holds each to the shape the fast path assumes (targetless or a
 *    self-target, one assign), so the fast path and the machine cannot diverge unnoticed.
 */
import type { AnyStateNode } from "xstate";
import type { OracleEvent } from "./types.js";
import { upgradeMachine } from "./upgrade-machine.js";

interface TraceAction {
  readonly type: string;
  readonly params?: { readonly id?: unknown };
}

/** The ids of the `trace` actions among `actions`, in order (a transition definition has one). */
export function traceIds(actions: readonly unknown[]): readonly string[] {
  const ids: string[] = [];
  for (const a of actions) {
    if (typeof a !== "object" || a === null) continue;
    const action = a as TraceAction;
    if (action.type === "trace" && typeof action.params?.id === "string") ids.push(action.params.id);
  }
  return ids;
}

/** The id of the machine's state node `path` (dot-separated below the root; "" for the root). */
export const stateNodeId = (path: string): string => (path === "" ? upgradeMachine.id : `${upgradeMachine.id}.${path}`);

/** The state node at `path` (see `stateNodeId`). */
export function stateNodeAt(path: string): AnyStateNode {
  return path === "" ? upgradeMachine.root : upgradeMachine.getStateNodeById(stateNodeId(path));
}

/** The one transition definition of `source` on `event` guarded by `guard`; throws unless exactly one. */
export function transitionDef(source: string, event: OracleEvent["type"], guard: string) {
  const defs = (stateNodeAt(source).transitions.get(event) ?? []).filter((d) => d.guard === guard);
  if (defs.length !== 1) {
    throw new Error(`upgrade machine: ${defs.length} transitions of "${source}" on ${event} guarded by ${guard}`);
  }
  return defs[0] as NonNullable<(typeof defs)[number]>;
}

/** The trace id of the one transition of `source` on `event` guarded by `guard`. */
export function transitionId(source: string, event: OracleEvent["type"], guard: string): string {
  const [id, ...more] = traceIds(transitionDef(source, event, guard).actions as readonly unknown[]);
  if (id === undefined || more.length > 0) throw new Error(`upgrade machine: ${source} ${event} ${guard} has no id`);
  return id;
}

/** Where each fast-path transition sits in the machine: source state path, event, guard. */
export const FAST_PATH_SITES = {
  nodeStart: ["", "NODE_STARTED", "nodeStartable"],
  nodeStop: ["", "NODE_STOPPED", "nodeKnown"],
  nodeCatchUp: ["", "NODE_CAUGHT_UP", "nodeKnown"],
  planKeep: ["plan.scheduled", "BLOCK", "blockAttempted"],
  planNone: ["plan.noneScheduled", "BLOCK", "blockAttempted"],
  chainCommit: ["chain.progressing", "BLOCK", "blockCommits"],
  chainStall: ["chain.stalled", "BLOCK", "blockStalls"],
} as const satisfies Record<string, readonly [string, OracleEvent["type"], string]>;

/** The ids the oracle's fast path fires without xstate, read from the machine. */
export const FAST_PATH: { readonly [K in keyof typeof FAST_PATH_SITES]: string } = Object.fromEntries(
  Object.entries(FAST_PATH_SITES).map(([k, [source, event, guard]]) => [k, transitionId(source, event, guard)]),
) as { readonly [K in keyof typeof FAST_PATH_SITES]: string };
