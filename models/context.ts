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
