/**
 * Block execution across nodes and the consensus rule of docs/scenario-format.md §1: every running node runs the PreBlocker of
 * block h on the committed state at h-1; the nodes that ran without error and reached the same result commit h when
 * they hold more than 2/3 of the total voting power; running nodes with another result halt (app-hash-mismatch);
 * otherwise the chain stalls at h-1.
 *
 * The app hash is abstracted as `blockKey`: the canonical JSON of the post-PreBlock state plus the handler's store
 * markers. All nodes start block h from the same committed state, so equal keys mean equal app hashes. Block h's
 * transactions (AUTHORITY_EXEC / PROPOSAL_EXECUTED) are identical on every committing node and are applied to the
 * committed state afterwards (see exec.ts), so they are not part of the key.
 *
 * Catch-up: a running node whose last height is below the chain's re-executes the committed blocks in order
 * (PreBlock on `states[k-1]`, compared with `blockKeys[k]`) when NODE_CAUGHT_UP names it, and at the latest before
 * it executes the next BLOCK. A halt or a different key stops it there.
 */
import { type Height, height } from "../src/core/brand.js";
import { canonicalJson } from "./canonical.js";
import { contextWith, currentState, incrementCount, replaceNode, stateAt } from "./context.js";
import { type PreBlockOutcome, preBlock } from "./preblock.js";
import type { BinaryInput, ChainState, HaltRecord, NodeState, OracleContext, PlanAction } from "./types.js";

export const appHashMismatchMessage = (h: number): string => `wrong Block.Header.AppHash at height ${h}`;

export function blockKey(post: ChainState, effects: readonly string[]): string {
  if (effects.length > 0) return canonicalJson({ post, effects });
  // Idle blocks commit the very state object they start from, block after block: its key is written once.
  let key = idleKeys.get(post);
  if (key === undefined) {
    key = canonicalJson({ post, effects });
    idleKeys.set(post, key);
  }
  return key;
}

/** Block keys of states with no handler effects, by state object (states are immutable). */
const idleKeys = new WeakMap<ChainState, string>();

/**
 * What a node's PreBlocker reads besides the committed state (see runPreBlock): nodes with equal inputs get the
 * same outcome from the same state, so one PreBlock per distinct input serves them all.
 */
export const preBlockInput = (n: NodeState): string =>
  `${n.binary}\u0000${n.skipHeights.join(",")}\u0000${n.downgradeCheckPending}\u0000${n.pendingStoreUpgrade ?? "\u0001"}`;

const binaryOf = (ctx: OracleContext, node: NodeState): BinaryInput => ctx.binaries[node.binary] ?? { handlers: {} };

export const isRunning = (n: NodeState): boolean => n.status.state === "running";

export function haltNode(node: NodeState, record: HaltRecord): NodeState {
  return {
    ...node,
    status: { state: "halted", kind: record.kind, message: record.message, height: record.height },
  };
}

export function runPreBlock(ctx: OracleContext, node: NodeState, pre: ChainState, h: Height): PreBlockOutcome {
  return preBlock(pre, h, {
    binary: binaryOf(ctx, node),
    skipHeights: node.skipHeights,
    downgradeCheckPending: node.downgradeCheckPending,
    pendingStoreUpgrade: node.pendingStoreUpgrade,
  });
}

export interface CatchUpResult {
  readonly node: NodeState;
  readonly halts: readonly HaltRecord[];
}

/** Re-executes committed blocks lastHeight+1..chain height on a running node. */
export function catchUpNode(ctx: OracleContext, start: NodeState): CatchUpResult {
  let node = start;
  if (!isRunning(node)) return { node, halts: [] };
  for (let k = node.lastHeight + 1; k <= ctx.height; k++) {
    const h = height(k);
    const out = runPreBlock(ctx, node, stateAt(ctx, height(k - 1)), h);
    node = ranNode(node, false, h);
    if (out.kind === "halt") {
      const record: HaltRecord = { node: node.name, height: h, kind: out.halt.kind, message: out.halt.message };
      node = { ...haltNode(node, record), upgradeInfo: out.upgradeInfo ?? node.upgradeInfo };
      return { node, halts: [record] };
    }
    if (blockKey(out.post, out.effects) !== ctx.blockKeys.at(k)) {
      const record: HaltRecord = {
        node: node.name,
        height: h,
        kind: "app-hash-mismatch",
        message: appHashMismatchMessage(h),
      };
      return { node: haltNode(node, record), halts: [record] };
    }
    node = ranNode(node, true, h);
  }
  return { node, halts: [] };
}

/** Applies catch-up to one node of the context. */
export function catchUp(
  ctx: OracleContext,
  name: string,
): { readonly context: OracleContext; readonly halts: readonly HaltRecord[] } {
  const node = ctx.nodes.find((n) => n.name === name);
  if (node === undefined) return { context: ctx, halts: [] };
  const r = catchUpNode(ctx, node);
  return {
    context: contextWith(ctx, { nodes: replaceNode(ctx.nodes, r.node), halts: [...ctx.halts, ...r.halts] }),
    halts: r.halts,
  };
}

export interface BlockResolution {
  /** False when the event's height is not chain height + 1 (nothing happens). */
  readonly valid: boolean;
  readonly committed: boolean;
  readonly action: PlanAction | null;
  readonly context: OracleContext;
}

/** The outcome a node's PreBlock gave, shared by the nodes with the same PreBlock input. */
interface Shared {
  readonly node: NodeState;
  readonly out: PreBlockOutcome;
  key: string | undefined;
}

/** Equal PreBlock inputs (preBlockInput's fields), compared without building the string. */
const sameInput = (a: NodeState, b: NodeState): boolean =>
  a.binary === b.binary &&
  a.downgradeCheckPending === b.downgradeCheckPending &&
  a.pendingStoreUpgrade === b.pendingStoreUpgrade &&
  a.skipHeights.length === b.skipHeights.length &&
  a.skipHeights.every((x, i) => x === b.skipHeights[i]);

/** Node i's PreBlock outcome: the one of an earlier node with the same input, else its own. */
function sharedOutcome(ctx: OracleContext, pre: ChainState, h: Height, node: NodeState, seen: Shared[]): Shared {
  for (const s of seen) if (sameInput(s.node, node)) return s;
  const s: Shared = { node, out: runPreBlock(ctx, node, pre, h), key: undefined };
  seen.push(s);
  return s;
}

/**
 * A node after it ran a PreBlock (its downgrade check done), committing h or not. Written as object literals of
 * NodeState's fields in their order (context.ts initialContext): a spread of a spread-made object costs this V8
 * 10–25 times as much.
 */
function ranNode(n: NodeState, committed: boolean, h: Height): NodeState {
  if (!committed && !n.downgradeCheckPending) return n;
  return {
    name: n.name,
    power: n.power,
    binary: n.binary,
    skipHeights: n.skipHeights,
    status: n.status,
    lastHeight: committed ? h : n.lastHeight,
    downgradeCheckPending: false,
    upgradeInfo: n.upgradeInfo,
    pendingStoreUpgrade: committed ? null : n.pendingStoreUpgrade,
  };
}

/** What each running node's PreBlock gave: its key (undefined: halted or not running) and the power per key. */
interface Executed {
  readonly nodes: NodeState[];
  readonly keys: (string | undefined)[];
  readonly power: Map<string, number>;
  readonly outcomes: Map<string, Extract<PreBlockOutcome, { kind: "ok" }>>;
  readonly handlerRanOn: string[];
}

function execute(ctx: OracleContext, h: Height, halts: HaltRecord[]): Executed {
  const pre = currentState(ctx);
  const seen: Shared[] = [];
  const ex: Executed = { nodes: [], keys: [], power: new Map(), outcomes: new Map(), handlerRanOn: [] };
  for (const node of ctx.nodes) {
    ex.keys.push(undefined);
    ex.nodes.push(node);
    if (!isRunning(node)) continue;
    const shared = sharedOutcome(ctx, pre, h, node, seen);
    const out = shared.out;
    if (out.handlerRan) ex.handlerRanOn.push(node.name);
    if (out.kind === "halt") {
      const record: HaltRecord = { node: node.name, height: h, kind: out.halt.kind, message: out.halt.message };
      halts.push(record);
      const ran = ranNode(node, false, h);
      ex.nodes[ex.nodes.length - 1] = { ...haltNode(ran, record), upgradeInfo: out.upgradeInfo ?? node.upgradeInfo };
      continue;
    }
    shared.key ??= blockKey(out.post, out.effects);
    ex.keys[ex.keys.length - 1] = shared.key;
    ex.power.set(shared.key, (ex.power.get(shared.key) ?? 0) + node.power);
    if (!ex.outcomes.has(shared.key)) ex.outcomes.set(shared.key, out);
  }
  return ex;
}

/** The key holding more than 2/3 of the total power, if any. */
function winnerOf(ctx: OracleContext, power: ReadonlyMap<string, number>): string | undefined {
  let total = 0;
  for (const n of ctx.nodes) total += n.power;
  for (const [key, p] of power) if (p * 3 > total * 2) return key;
  return undefined;
}

/**
 * BLOCK{h} by the rule of the file header. Lean: a node is copied once (only a node whose downgrade check was
 * pending when nothing commits keeps its object otherwise), equal PreBlock inputs are found without building
 * strings, and the halts list is kept when nothing halted. `consensus-plain.ts` holds the plain form it must equal.
 */
function computeBlock(ctx0: OracleContext, h: Height): BlockResolution {
  // 1. Lagging running nodes catch up first.
  let ctx = ctx0;
  for (const n of ctx0.nodes) if (isRunning(n) && n.lastHeight < ctx0.height) ctx = catchUp(ctx, n.name).context;
  const halts: HaltRecord[] = ctx.halts.slice(ctx0.halts.length);
  // 2. Every running node runs the PreBlocker of h on the committed state.
  const ex = execute(ctx, h, halts);
  // 3. Consensus: a group with more than 2/3 of the total power commits.
  const winner = winnerOf(ctx, ex.power);
  const members: string[] = [];
  const nodes = ex.nodes.map((node, i): NodeState => {
    const key = ex.keys[i];
    if (key === undefined) return node;
    if (winner === undefined) return ranNode(node, false, h);
    if (key === winner) {
      members.push(node.name);
      return ranNode(node, true, h);
    }
    const record: HaltRecord = {
      node: node.name,
      height: h,
      kind: "app-hash-mismatch",
      message: appHashMismatchMessage(h),
    };
    halts.push(record);
    return haltNode(ranNode(node, false, h), record);
  });
  const allHalts = halts.length === 0 ? ctx0.halts : [...ctx0.halts, ...halts];
  const outcome = winner === undefined ? undefined : ex.outcomes.get(winner);
  if (winner === undefined || outcome === undefined) {
    const lastBlock = {
      height: h,
      committed: false,
      action: null,
      planName: null,
      handlerCommitted: false,
      handlerRanOn: ex.handlerRanOn,
      committedBy: [],
      halts,
    };
    return {
      valid: true,
      committed: false,
      action: null,
      context: contextWith(ctx, { nodes, halts: allHalts, lastBlock }),
    };
  }
  const { action, planName, post } = outcome;
  const applied = action === "applied" && planName !== null;
  return {
    valid: true,
    committed: true,
    action,
    context: contextWith(ctx, {
      nodes,
      height: h,
      states: ctx.states.append(post),
      blockKeys: ctx.blockKeys.append(winner),
      handlerRuns: applied ? incrementCount(ctx.handlerRuns, planName) : ctx.handlerRuns,
      halts: allHalts,
      lastBlock: {
        height: h,
        committed: true,
        action,
        planName,
        handlerCommitted: applied,
        handlerRanOn: ex.handlerRanOn,
        committedBy: members,
        halts,
      },
    }),
  };
}

/** The last resolution asked for: the machine's guards and its assign all ask for the same one in a transition. */
let last: { readonly ctx: OracleContext; readonly h: number; readonly resolution: BlockResolution } | undefined;

/**
 * The outcome of BLOCK{h} on `ctx`. Pure; the last one is kept (by the context's identity) because the machine's
 * guards and its assign all ask for it during one transition.
 */
export function resolveBlock(ctx: OracleContext, h: number): BlockResolution {
  if (!Number.isSafeInteger(h) || h !== ctx.height + 1) {
    return { valid: false, committed: false, action: null, context: ctx };
  }
  if (last !== undefined && last.ctx === ctx && last.h === h) return last.resolution;
  const resolution = computeBlock(ctx, height(h));
  last = { ctx, h, resolution };
  return resolution;
}
