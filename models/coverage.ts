/**
 * Transition coverage of the upgrade-lifecycle machine.
 *
 * A transition is one transition definition of the statechart (source state node + event type + guarded branch),
 * named by its `trace` action id. `coveragePaths()` explores a small fixed world with `xstate/graph`
 * (`getAdjacencyMap` with an `events` payload generator and a coarse `serializeState`, so traversal terminates)
 * and picks, for every transition, a shortest path to a snapshot from which one candidate event fires it.
 */
import type { AnyStateNode } from "xstate";
import { getAdjacencyMap, getStateNodes } from "xstate/graph";
import { canonicalJson } from "./canonical.js";
import { currentState } from "./context.js";
import { compareHeight } from "./keeper-rules.js";
import { createOracle, firedBy, type OracleSnapshot, step } from "./oracle.js";
import { traceIds } from "./transition-ids.js";
import type { OracleEvent, OracleInput, UpgradeMsg } from "./types.js";
import { upgradeMachine } from "./upgrade-machine.js";

export interface TransitionInfo {
  /** The trace id, `<state>.<EVENT>.<label>`. */
  readonly id: string;
  /** Id of the source state node. */
  readonly source: string;
  readonly event: string;
  /** Target state node ids; empty for a targetless (context-only) transition. */
  readonly targets: readonly string[];
}

/** Every transition definition of the machine, in document order (root first). */
export function machineTransitions(): readonly TransitionInfo[] {
  const nodes: AnyStateNode[] = [upgradeMachine.root, ...getStateNodes(upgradeMachine.root)];
  const seen = new Set<string>();
  const out: TransitionInfo[] = [];
  for (const node of nodes) {
    if (seen.has(node.id)) continue;
    seen.add(node.id);
    for (const [event, defs] of node.transitions) {
      for (const def of defs) {
        const id = traceIds(def.actions as readonly unknown[])[0] ?? `${node.id}.${event}#untraced`;
        out.push({ id, source: node.id, event, targets: (def.target ?? []).map((t: AnyStateNode) => t.id) });
      }
    }
  }
  return out;
}

export interface CoverageReport {
  readonly total: number;
  readonly covered: readonly string[];
  readonly missing: readonly string[];
  /** covered / total, in [0, 1]. */
  readonly ratio: number;
}

/** Coverage from transition ids already known to have fired (e.g. accumulated `Oracle.fired`). */
export function coverageFromIds(ids: Iterable<string>): CoverageReport {
  const fired = new Set(ids);
  const all = machineTransitions().map((t) => t.id);
  const covered = all.filter((id) => fired.has(id));
  const missing = all.filter((id) => !fired.has(id));
  return { total: all.length, covered, missing, ratio: all.length === 0 ? 1 : covered.length / all.length };
}

export interface VisitedStep {
  readonly snapshot: OracleSnapshot;
  readonly event: OracleEvent;
}

/** Coverage of a list of visited (state, event) pairs: which transitions each pair fires. */
export function transitionCoverage(visited: Iterable<VisitedStep>): CoverageReport {
  const ids: string[] = [];
  for (const v of visited) ids.push(...firedBy(v.snapshot, v.event));
  return coverageFromIds(ids);
}

/* Exploration world ---------------------------------------------------------------------------------------------- */

/**
 * Two validators (a holds 3/4 of the power, so it commits alone and b alone stalls) and two binaries: `v1` without
 * handlers, `v2` with an `ok` handler and store upgrades for `up1`.
 */
export const COVERAGE_WORLD: OracleInput = {
  binaries: {
    v1: { handlers: {} },
    v2: { handlers: { up1: "ok" }, storeUpgrades: { up1: { added: ["extra"] } } },
  },
  nodes: [
    { name: "a", binary: "v1", power: 3 },
    { name: "b", binary: "v1", power: 1 },
  ],
};

const schedule = (name: string, height: number): UpgradeMsg => ({
  type: "softwareUpgrade",
  plan: { name, height, info: "" },
});

/** Payload generator: the events explored from a snapshot (a function of its context only). */
export function candidateEvents(snapshot: OracleSnapshot): readonly OracleEvent[] {
  const ctx = snapshot.context;
  const h = ctx.height;
  const events: OracleEvent[] = [{ type: "BLOCK", height: h + 1 }];
  if (h >= 1) {
    const variants: readonly (readonly UpgradeMsg[])[] = [
      [schedule("up1", h + 1)],
      [schedule("up1", h + 3)],
      [{ type: "cancelUpgrade" }],
      [],
      [schedule("", h + 1)],
    ];
    for (const type of ["PROPOSAL_EXECUTED", "AUTHORITY_EXEC"] as const) {
      for (const msgs of variants) events.push({ type, height: h, msgs });
    }
  }
  for (const node of ctx.nodes) {
    for (const binary of Object.keys(ctx.binaries)) {
      events.push({ type: "NODE_STARTED", node: node.name, binary, skipHeights: [] });
      events.push({ type: "NODE_STARTED", node: node.name, binary, skipHeights: [h + 1] });
    }
    events.push({ type: "NODE_STOPPED", node: node.name });
  }
  const first = ctx.nodes[0];
  if (first !== undefined) events.push({ type: "NODE_CAUGHT_UP", node: first.name });
  return events;
}

/**
 * Coarse serialization: the state value, whether the chain is still at genesis, whether the plan is absent / due next block / later, the done names, and
 * per node its status, binary and whether the next height is one of its skip heights. Heights are otherwise left out,
 * so the abstraction is finite and traversal terminates.
 */
export function coarseKey(snapshot: OracleSnapshot): string {
  const ctx = snapshot.context;
  const state = currentState(ctx);
  const plan = state.plan === null ? "none" : compareHeight(state.plan.height, ctx.height + 1) <= 0 ? "due" : "later";
  return canonicalJson({
    value: snapshot.value,
    genesis: ctx.height === 0,
    plan,
    done: state.done.map((d) => d.name),
    nodes: ctx.nodes.map((n) => [n.status.state, n.binary, n.skipHeights.includes(ctx.height + 1)]),
  });
}

export interface CoveragePath {
  readonly events: readonly OracleEvent[];
  /** Transition ids the path's last event fires (new coverage it contributes). */
  readonly covers: readonly string[];
}

/**
 * Paths from the initial state that together fire every transition reachable in `input`'s world.
 *
 * `getAdjacencyMap` expands the first snapshot it meets for each coarse key (its representative). Paths must lead to
 * that exact snapshot, not just to the key, so `serializeState` also records, for every snapshot it is shown, the
 * event sequence that produced it from its predecessor (breadth-first, hence shortest). Each edge of the map then
 * yields the path "representative's events + the edge's event", which fires exactly the edge's transitions.
 */
export function coveragePaths(input: OracleInput = COVERAGE_WORLD): readonly CoveragePath[] {
  const lineage = new WeakMap<object, readonly OracleEvent[]>();
  const adjacency = getAdjacencyMap(upgradeMachine, {
    input,
    events: (s) => candidateEvents(s as OracleSnapshot),
    serializeState: (s, event, prev) => {
      if (!lineage.has(s)) {
        const before = prev === undefined ? [] : (lineage.get(prev) ?? []);
        lineage.set(s, event === undefined ? before : [...before, event as OracleEvent]);
      }
      return coarseKey(s as OracleSnapshot);
    },
    serializeEvent: (e) => canonicalJson(e),
  });
  const entries = Object.values(adjacency)
    .map((v) => ({ state: v.state as OracleSnapshot, prefix: lineage.get(v.state) ?? [] }))
    .sort((x, y) => x.prefix.length - y.prefix.length);
  const covered = new Set<string>();
  const out: CoveragePath[] = [];
  for (const { state, prefix } of entries) {
    for (const event of candidateEvents(state)) {
      const fresh = firedBy(state, event).filter((id) => !covered.has(id));
      if (fresh.length === 0) continue;
      for (const id of fresh) covered.add(id);
      out.push({ events: [...prefix, event], covers: fresh });
    }
  }
  return out;
}

/** Replays paths from the initial state and reports the transitions they fire. */
export function replayCoverage(paths: readonly CoveragePath[], input: OracleInput = COVERAGE_WORLD): CoverageReport {
  const ids: string[] = [];
  for (const path of paths) {
    let oracle = createOracle(input);
    for (const event of path.events) {
      oracle = step(oracle, event);
      ids.push(...oracle.fired);
    }
  }
  return coverageFromIds(ids);
}
