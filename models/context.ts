/**
 * The oracle's initial context and small immutable helpers over it.
 */
import { type Height, height } from "../src/core/brand.js";
import { genesisVersionMap } from "./binaries.js";
import { History } from "./history.js";
import type { ChainState, NameCount, NodeState, OracleContext, OracleInput } from "./types.js";

export function initialContext(input: OracleInput): OracleContext {
  const genesisName = input.genesisBinary ?? Object.keys(input.binaries)[0];
  const genesisBinary = genesisName === undefined ? undefined : input.binaries[genesisName];
  const genesis: ChainState = {
    plan: null,
    done: [],
    protocolVersion: 0,
    moduleVersions: genesisVersionMap(genesisBinary),
    stores: [],
  };
  const nodes: NodeState[] = input.nodes.map((n) => ({
    name: n.name,
    power: n.power ?? 0,
    binary: n.binary,
    skipHeights: [...(n.skipHeights ?? [])],
    status: { state: "running" },
    lastHeight: height(0),
    downgradeCheckPending: true,
    upgradeInfo: null,
    pendingStoreUpgrade: null,
  }));
  return {
    binaries: input.binaries,
    nodes,
    height: height(0),
    states: History.of(genesis),
    blockKeys: History.of(""),
    handlerRuns: [],
    halts: [],
    storeUpgradesApplied: [],
    lastBlock: null,
    lastExec: null,
  };
}

/** The committed state at `h` (the genesis state for unknown heights is never needed: h ≤ chain height). */
export function stateAt(ctx: OracleContext, h: Height): ChainState {
  const s = ctx.states.at(h);
  if (s === undefined) throw new RangeError(`no committed state at height ${h}`);
  return s;
}

export const currentState = (ctx: OracleContext): ChainState => stateAt(ctx, ctx.height);

export const findNode = (ctx: OracleContext, name: string): NodeState | undefined =>
  ctx.nodes.find((n) => n.name === name);

export function replaceNode(nodes: readonly NodeState[], next: NodeState): readonly NodeState[] {
  return nodes.map((n) => (n.name === next.name ? next : n));
}

export function incrementCount(counts: readonly NameCount[], name: string): readonly NameCount[] {
  return counts.some((c) => c.name === name)
    ? counts.map((c) => (c.name === name ? { name, count: c.count + 1 } : c))
    : [...counts, { name, count: 1 }];
}

/**
 * `{ ...ctx, ...change }` as an object literal of OracleContext's fields in initialContext's order. A spread of a
 * spread-made object costs this V8 10–25 times as much as a literal, and contexts are copied per block and per node
 * event. No field of a context is ever undefined, so an undefined (absent) field of `change` keeps ctx's.
 */
export function contextWith(ctx: OracleContext, change: Partial<OracleContext>): OracleContext {
  return {
    binaries: change.binaries !== undefined ? change.binaries : ctx.binaries,
    nodes: change.nodes !== undefined ? change.nodes : ctx.nodes,
    height: change.height !== undefined ? change.height : ctx.height,
    states: change.states !== undefined ? change.states : ctx.states,
    blockKeys: change.blockKeys !== undefined ? change.blockKeys : ctx.blockKeys,
    handlerRuns: change.handlerRuns !== undefined ? change.handlerRuns : ctx.handlerRuns,
    halts: change.halts !== undefined ? change.halts : ctx.halts,
    storeUpgradesApplied:
      change.storeUpgradesApplied !== undefined ? change.storeUpgradesApplied : ctx.storeUpgradesApplied,
    lastBlock: change.lastBlock !== undefined ? change.lastBlock : ctx.lastBlock,
    lastExec: change.lastExec !== undefined ? change.lastExec : ctx.lastExec,
  };
}

/** `{ ...n, ...change }` as an object literal of NodeState's fields in initialContext's order (see contextWith). */
export function nodeWith(n: NodeState, change: Partial<NodeState>): NodeState {
  return {
    name: change.name !== undefined ? change.name : n.name,
    power: change.power !== undefined ? change.power : n.power,
    binary: change.binary !== undefined ? change.binary : n.binary,
    skipHeights: change.skipHeights !== undefined ? change.skipHeights : n.skipHeights,
    status: change.status !== undefined ? change.status : n.status,
    lastHeight: change.lastHeight !== undefined ? change.lastHeight : n.lastHeight,
    downgradeCheckPending:
      change.downgradeCheckPending !== undefined ? change.downgradeCheckPending : n.downgradeCheckPending,
    upgradeInfo: change.upgradeInfo !== undefined ? change.upgradeInfo : n.upgradeInfo,
    pendingStoreUpgrade: change.pendingStoreUpgrade !== undefined ? change.pendingStoreUpgrade : n.pendingStoreUpgrade,
  };
}
