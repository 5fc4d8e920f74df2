/**
 * The oracle's stepping API over the pure xstate transition functions, and the selectors a harness compares with the
 * real chain after every step. `observe()` is JSON-safe (plan heights outside the safe-integer range become decimal
 * strings) for readable diffs.
 */
import {
  type ActorScope,
  createActor,
  type EventFromLogic,
  type ExecutableActionObject,
  initialTransition,
  type SnapshotFrom,
} from "xstate";
import type { Height } from "../src/core/brand.js";
import type { VersionMap } from "./binary-outcome.js";
import { catchUp, resolveBlock } from "./consensus.js";
import { currentState } from "./context.js";
import { canStart, startNode, stopNode } from "./node-lifecycle.js";
import { FAST_PATH, traceIds } from "./transition-ids.js";
import type {
  BlockReport,
  ExecReport,
  HaltKind,
  HaltRecord,
  OracleContext,
  OracleEvent,
  OracleInput,
  Plan,
  StoreUpgradeRecord,
  UpgradeInfo,
} from "./types.js";
import { type UpgradeMachine, upgradeMachine } from "./upgrade-machine.js";

export type OracleSnapshot = SnapshotFrom<UpgradeMachine>;

export interface Oracle {
  readonly snapshot: OracleSnapshot;
  /** Ids of the transitions the last step fired (empty: the event was not enabled and nothing changed). */
  readonly fired: readonly string[];
}

export function createOracle(input: OracleInput): Oracle {
  const [snapshot] = initialTransition(upgradeMachine, input);
  return { snapshot, fired: [] };
}

/**
 * xstate's pure `transition(logic, snapshot, event)`, with one inert actor scope for every call instead of a fresh
 * one per call (xstate builds a new actor, and with it the machine's initial snapshot, each time). Same contract:
 * the next snapshot and the actions, collected and never executed. Sharing the scope is sound because nothing of it
 * outlives a call: the machine spawns no children, schedules no delayed events, emits nothing, and the collector is
 * replaced on every call (calls never nest: guards and assigns are plain functions). Equal to xstate's own
 * `transition()` on every event (oracle.property.test.ts).
 */
export function transitionOf(snapshot: OracleSnapshot, event: OracleEvent): [OracleSnapshot, ExecutableActionObject[]] {
  const actions: ExecutableActionObject[] = [];
  const scope = inertScope();
  scope.actionExecutor = (a) => {
    actions.push(a);
  };
  return [upgradeMachine.transition(snapshot, event, scope), actions];
}

type OracleScope = ActorScope<OracleSnapshot, EventFromLogic<UpgradeMachine>>;
let shared: OracleScope | undefined;

/** The one inert scope: an actor that is never started (its only effect, its initial snapshot, is built once). */
function inertScope(): OracleScope {
  if (shared !== undefined) return shared;
  const self = createActor(upgradeMachine, { input: { binaries: {}, nodes: [] } });
  shared = {
    self,
    id: "",
    sessionId: "",
    logger: () => {},
    defer: () => {},
    emit: () => {},
    system: self.system,
    stopChild: () => {},
    actionExecutor: () => {},
  };
  return shared;
}

/** Steps the model with one event. */
export function step(oracle: Oracle, event: OracleEvent): Oracle {
  if (event.type === "BLOCK") return stepBlocks(oracle, event.height, event.height);
  const quick = nodeStep(oracle.snapshot, event);
  if (quick !== undefined) return quick;
  const [snapshot, actions] = transitionOf(oracle.snapshot, event);
  return { snapshot, fired: traceIds(actions) };
}

/**
 * The snapshot in the same state (value, history, status) with another context: what xstate's
 * `resolveState({value, context, historyValue})` gives for the snapshot's own value, without resolving the state
 * nodes again (they are the snapshot's). For transitions that assign and keep the state value.
 */
function withContext(snapshot: OracleSnapshot, context: OracleContext): OracleSnapshot {
  return { ...snapshot, context };
}

type NodeEvent = Extract<OracleEvent, { readonly type: "NODE_STARTED" | "NODE_STOPPED" | "NODE_CAUGHT_UP" }>;

/**
 * The machine's root transitions (upgrade-machine.ts `on`): one guarded, targetless transition per node event,
 * whose only effect is its assign. The next context, or undefined when the guard does not hold. The ids are the
 * machine's own (transition-ids.ts).
 */
const NODE_TRANSITIONS: {
  readonly [T in NodeEvent["type"]]: {
    readonly id: string;
    readonly next: (ctx: OracleContext, ev: Extract<NodeEvent, { readonly type: T }>) => OracleContext | undefined;
  };
} = {
  NODE_STARTED: { id: FAST_PATH.nodeStart, next: (c, e) => (canStart(c, e) ? startNode(c, e) : undefined) },
  NODE_STOPPED: { id: FAST_PATH.nodeStop, next: (c, e) => (knows(c, e.node) ? stopNode(c, e.node) : undefined) },
  NODE_CAUGHT_UP: {
    id: FAST_PATH.nodeCatchUp,
    next: (c, e) => (knows(c, e.node) ? catchUp(c, e.node).context : undefined),
  },
};

const knows = (ctx: OracleContext, name: string): boolean => ctx.nodes.some((n) => n.name === name);

/**
 * A node event stepped without xstate's macrostep: its root transition changes the context only, never the state
 * value, so the next snapshot is the same value with the assigned context. Equal to xstate's transition()
 * (oracle.property.test.ts); undefined for every other event.
 */
function nodeStep(snapshot: OracleSnapshot, event: OracleEvent): Oracle | undefined {
  if (event.type !== "NODE_STARTED" && event.type !== "NODE_STOPPED" && event.type !== "NODE_CAUGHT_UP")
    return undefined;
  const t = NODE_TRANSITIONS[event.type] as {
    readonly id: string;
    readonly next: (ctx: OracleContext, ev: NodeEvent) => OracleContext | undefined;
  };
  const context = t.next(snapshot.context, event);
  if (context === undefined) return { snapshot, fired: [] };
  return { snapshot: withContext(snapshot, context), fired: [t.id] };
}

/**
 * BLOCK events for every height `from`..`to` in turn (an idle stretch of the chain, which the engine commits as one
 * range; or one BLOCK, `from` = `to`), folded into one step: the same snapshot and the same fired ids, in order, as
 * xstate's transition of each BLOCK (oracle.property.test.ts). A block attempt that neither applies nor skips a plan
 * and leaves the chain region where it is fires the same two self-transitions whatever else it does: the plan
 * region's (`noneScheduled.BLOCK.noPlan` or `scheduled.BLOCK.keep`), then the chain region's
 * (`progressing.BLOCK.commit` for a commit while progressing, `stalled.BLOCK.stall` for another failed attempt while
 * stalled), and their only effect is the applyBlock assign: the next context is the block's resolution, the state
 * value unchanged. Such blocks are folded over the context alone, and the snapshot is built once at the end; any
 * other block (a plan applied or skipped, the chain stalling or recovering, a height out of turn) goes through
 * xstate's transition. The ids are the machine's own (transition-ids.ts `FAST_PATH`).
 */
export function stepBlocks(oracle: Oracle, from: number, to: number): Oracle {
  let snapshot = oracle.snapshot;
  let context = snapshot.context;
  const fired: string[] = [];
  const settle = (): void => {
    if (context !== snapshot.context) snapshot = withContext(snapshot, context);
  };
  for (let h = from; h <= to; h++) {
    const value = snapshot.value as { readonly plan: PlanRegion; readonly chain: ChainRegion };
    const r = resolveBlock(context, h);
    const stays = r.committed ? value.chain === "progressing" : value.chain === "stalled";
    if (r.valid && stays && r.action !== "applied" && r.action !== "skipped") {
      fired.push(
        value.plan === "scheduled" ? FAST_PATH.planKeep : FAST_PATH.planNone,
        r.committed ? FAST_PATH.chainCommit : FAST_PATH.chainStall,
      );
      context = r.context;
      continue;
    }
    settle();
    const [next, actions] = transitionOf(snapshot, { type: "BLOCK", height: h });
    fired.push(...traceIds(actions));
    snapshot = next;
    context = next.context;
  }
  settle();
  return { snapshot, fired };
}

/** The transition ids `event` would fire from `snapshot`, without keeping the result. */
export function firedBy(snapshot: OracleSnapshot, event: OracleEvent): readonly string[] {
  return traceIds(transitionOf(snapshot, event)[1]);
}

/* Selectors ------------------------------------------------------------------------------------------------------ */

export type PlanRegion = "noneScheduled" | "scheduled";
export type ChainRegion = "progressing" | "stalled";

export function selectRegions(s: OracleSnapshot): { readonly plan: PlanRegion; readonly chain: ChainRegion } {
  const value = s.value as { readonly plan: PlanRegion; readonly chain: ChainRegion };
  return { plan: value.plan, chain: value.chain };
}

export const selectHeight = (s: OracleSnapshot): Height => s.context.height;
export const selectPlan = (s: OracleSnapshot): Plan | null => currentState(s.context).plan;
export const selectProtocolVersion = (s: OracleSnapshot): number => currentState(s.context).protocolVersion;
export const selectModuleVersions = (s: OracleSnapshot): VersionMap => currentState(s.context).moduleVersions;
export const selectStores = (s: OracleSnapshot): readonly string[] => currentState(s.context).stores;

/** Done names → the block height at which each upgrade ran. */
export function selectApplied(s: OracleSnapshot): Readonly<Record<string, number>> {
  return Object.fromEntries(currentState(s.context).done.map((d) => [d.name, d.height]));
}

/** Plan name → times its handler's effects were committed on the chain. */
export function selectHandlerRuns(s: OracleSnapshot): Readonly<Record<string, number>> {
  return Object.fromEntries(s.context.handlerRuns.map((c) => [c.name, c.count]));
}

export interface NodePrediction {
  readonly binary: string;
  readonly status: "running" | "halted" | "stopped";
  readonly halt: { readonly kind: HaltKind; readonly message: string; readonly height: Height } | null;
  readonly height: Height;
  readonly skipUpgradeHeights: readonly number[];
  readonly upgradeInfo: UpgradeInfo | null;
  readonly downgradeCheckPending: boolean;
}

export function selectNodes(s: OracleSnapshot): Readonly<Record<string, NodePrediction>> {
  return Object.fromEntries(
    s.context.nodes.map((n): [string, NodePrediction] => [
      n.name,
      {
        binary: n.binary,
        status: n.status.state,
        halt:
          n.status.state === "halted"
            ? { kind: n.status.kind, message: n.status.message, height: n.status.height }
            : null,
        height: n.lastHeight,
        skipUpgradeHeights: n.skipHeights,
        upgradeInfo: n.upgradeInfo,
        downgradeCheckPending: n.downgradeCheckPending,
      },
    ]),
  );
}

export function selectUpgradeInfo(s: OracleSnapshot): Readonly<Record<string, UpgradeInfo | null>> {
  return Object.fromEntries(s.context.nodes.map((n) => [n.name, n.upgradeInfo]));
}

export const selectHalts = (s: OracleSnapshot): readonly HaltRecord[] => s.context.halts;
export const selectLastBlock = (s: OracleSnapshot): BlockReport | null => s.context.lastBlock;
export const selectLastExec = (s: OracleSnapshot): ExecReport | null => s.context.lastExec;
export const selectStoreUpgradesApplied = (s: OracleSnapshot): readonly StoreUpgradeRecord[] =>
  s.context.storeUpgradesApplied;

export interface Prediction {
  readonly regions: { readonly plan: PlanRegion; readonly chain: ChainRegion };
  readonly height: Height;
  readonly stalled: boolean;
  readonly plan: Plan | null;
  readonly applied: Readonly<Record<string, number>>;
  readonly protocolVersion: number;
  readonly moduleVersions: VersionMap;
  readonly stores: readonly string[];
  readonly handlerRuns: Readonly<Record<string, number>>;
  readonly nodes: Readonly<Record<string, NodePrediction>>;
  readonly upgradeInfo: Readonly<Record<string, UpgradeInfo | null>>;
  readonly halts: readonly HaltRecord[];
  readonly storeUpgradesApplied: readonly StoreUpgradeRecord[];
  readonly lastBlock: BlockReport | null;
  readonly lastExec: ExecReport | null;
}

/** Everything the model predicts about the committed chain and the nodes, after the last event. */
export function predict(s: OracleSnapshot): Prediction {
  const regions = selectRegions(s);
  return {
    regions,
    height: selectHeight(s),
    stalled: regions.chain === "stalled",
    plan: selectPlan(s),
    applied: selectApplied(s),
    protocolVersion: selectProtocolVersion(s),
    moduleVersions: selectModuleVersions(s),
    stores: selectStores(s),
    handlerRuns: selectHandlerRuns(s),
    nodes: selectNodes(s),
    upgradeInfo: selectUpgradeInfo(s),
    halts: selectHalts(s),
    storeUpgradesApplied: selectStoreUpgradesApplied(s),
    lastBlock: selectLastBlock(s),
    lastExec: selectLastExec(s),
  };
}

/** JSON-safe form of a plan height: a number when it is a safe integer, else its decimal string. */
export const jsonHeight = (h: number | bigint): number | string => (typeof h === "bigint" ? h.toString() : h);

export type Observation = Omit<Prediction, "plan"> & {
  readonly plan: { readonly name: string; readonly height: number | string; readonly info: string } | null;
};

/** `predict()` in a form `JSON.stringify` accepts, for readable diffs against the real chain. */
export function observe(s: OracleSnapshot): Observation {
  const p = predict(s);
  return { ...p, plan: p.plan === null ? null : { ...p.plan, height: jsonHeight(p.plan.height) } };
}
