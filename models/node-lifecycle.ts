/**
 * NODE_STARTED and NODE_STOPPED (docs/scenario-format.md §1 "Starting a node"). A start is a stop plus a start: the keeper's
 * downgrade flag is reset, upgrade-info.json persists, and the store upgrades the binary lists for the plan named in
 * upgrade-info.json are loaded iff that height is not a skip height and equals the node's last height + 1.
 */

import { storeUpgradesFor } from "./binaries.js";
import { canonicalJson } from "./canonical.js";
import { contextWith, findNode, nodeWith, replaceNode } from "./context.js";
import type { NodeState, OracleContext, OracleEvent } from "./types.js";

export type StartEvent = Extract<OracleEvent, { type: "NODE_STARTED" }>;

/** True when the event names a known node and a known binary. */
export function canStart(ctx: OracleContext, ev: StartEvent): boolean {
  return findNode(ctx, ev.node) !== undefined && Object.hasOwn(ctx.binaries, ev.binary);
}

export function startNode(ctx: OracleContext, ev: StartEvent): OracleContext {
  const node = findNode(ctx, ev.node);
  const binary = ctx.binaries[ev.binary];
  if (node === undefined || binary === undefined || !Object.hasOwn(ctx.binaries, ev.binary)) return ctx;
  const skipHeights = ev.skipHeights === undefined ? node.skipHeights : [...ev.skipHeights];
  const info = node.upgradeInfo;
  const spec = info === null ? null : storeUpgradesFor(binary, info.name);
  const loads =
    info !== null && spec !== null && !skipHeights.includes(info.height) && info.height === node.lastHeight + 1;
  const next: NodeState = nodeWith(node, {
    binary: ev.binary,
    skipHeights,
    status: { state: "running" },
    downgradeCheckPending: true,
    pendingStoreUpgrade: loads && info !== null ? `${info.name}:${canonicalJson(spec)}` : null,
  });
  return contextWith(ctx, {
    nodes: replaceNode(ctx.nodes, next),
    storeUpgradesApplied:
      loads && info !== null
        ? [...ctx.storeUpgradesApplied, { node: node.name, name: info.name, height: info.height }]
        : ctx.storeUpgradesApplied,
  });
}

export function stopNode(ctx: OracleContext, name: string): OracleContext {
  const node = findNode(ctx, name);
  if (node === undefined) return ctx;
  return contextWith(ctx, {
    nodes: replaceNode(ctx.nodes, nodeWith(node, { status: { state: "stopped" }, pendingStoreUpgrade: null })),
  });
}
