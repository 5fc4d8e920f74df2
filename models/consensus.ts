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
import { currentState, incrementCount, replaceNode, stateAt } from "./context.js";
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
const preBlockInput = (n: NodeState): string =>
  `${n.binary}\u0000${n.skipHeights.join(",")}\u0000${n.downgradeCheckPending}\u0000${n.pendingStoreUpgrade ?? "\u0001"}`;

const binaryOf = (ctx: OracleContext, node: NodeState): BinaryInput => ctx.binaries[node.binary] ?? { handlers: {} };

const isRunning = (n: NodeState): boolean => n.status.state === "running";

function haltNode(node: NodeState, record: HaltRecord): NodeState {
  return {
    ...node,
    status: { state: "halted", kind: record.kind, message: record.message, height: record.height },
  };
}

function runPreBlock(ctx: OracleContext, node: NodeState, pre: ChainState, h: Height): PreBlockOutcome {
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
    node = { ...node, downgradeCheckPending: false };
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
    node = { ...node, lastHeight: h, pendingStoreUpgrade: null };
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
    context: { ...ctx, nodes: replaceNode(ctx.nodes, r.node), halts: [...ctx.halts, ...r.halts] },
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

interface Group {
  readonly key: string;
  power: number;
  readonly members: string[];
  readonly outcome: Extract<PreBlockOutcome, { kind: "ok" }>;
}

function computeBlock(ctx0: OracleContext, h: Height, share: boolean): BlockResolution {
  // 1. Lagging running nodes catch up first.
  let ctx = ctx0;
  for (const n of ctx0.nodes) if (isRunning(n) && n.lastHeight < ctx0.height) ctx = catchUp(ctx, n.name).context;
  const halts: HaltRecord[] = [...ctx.halts.slice(ctx0.halts.length)];

  // 2. Every running node runs the PreBlocker of h on the committed state.
  const pre = currentState(ctx);
  const groups = new Map<string, Group>();
  const okNodes = new Map<string, string>();
  const handlerRanOn: string[] = [];
  const outcomes = new Map<string, { readonly out: PreBlockOutcome; key: string | undefined }>();
  let nodes = ctx.nodes.map((node): NodeState => {
    if (!isRunning(node)) return node;
    const input = share ? preBlockInput(node) : undefined;
    let shared = input === undefined ? undefined : outcomes.get(input);
    if (shared === undefined) {
      shared = { out: runPreBlock(ctx, node, pre, h), key: undefined };
      if (input !== undefined) outcomes.set(input, shared);
    }
    const out = shared.out;
    const ran = { ...node, downgradeCheckPending: false };
    if (out.handlerRan) handlerRanOn.push(node.name);
    if (out.kind === "halt") {
      const record: HaltRecord = { node: node.name, height: h, kind: out.halt.kind, message: out.halt.message };
      halts.push(record);
      return { ...haltNode(ran, record), upgradeInfo: out.upgradeInfo ?? node.upgradeInfo };
    }
    shared.key ??= blockKey(out.post, out.effects);
    const key = shared.key;
    const group = groups.get(key) ?? { key, power: 0, members: [], outcome: out };
    group.power += node.power;
    group.members.push(node.name);
    groups.set(key, group);
    okNodes.set(node.name, key);
    return ran;
  });

  // 3. Consensus: a group with more than 2/3 of the total power commits.
  const total = ctx.nodes.reduce((sum, n) => sum + n.power, 0);
  const winner = [...groups.values()].find((g) => g.power * 3 > total * 2);
  if (winner === undefined) {
    const lastBlock = {
      height: h,
      committed: false,
      action: null,
      planName: null,
      handlerCommitted: false,
      handlerRanOn,
      committedBy: [],
      halts,
    };
    return {
      valid: true,
      committed: false,
      action: null,
      context: { ...ctx, nodes, halts: [...ctx0.halts, ...halts], lastBlock },
    };
  }
  nodes = nodes.map((node): NodeState => {
    const key = okNodes.get(node.name);
    if (key === undefined) return node;
    if (key === winner.key) return { ...node, lastHeight: h, pendingStoreUpgrade: null };
    const record: HaltRecord = {
      node: node.name,
      height: h,
      kind: "app-hash-mismatch",
      message: appHashMismatchMessage(h),
    };
    halts.push(record);
    return haltNode(node, record);
  });
  const { action, planName, post } = winner.outcome;
  const applied = action === "applied" && planName !== null;
  return {
    valid: true,
    committed: true,
    action,
    context: {
      ...ctx,
      nodes,
      height: h,
      states: ctx.states.append(post),
      blockKeys: ctx.blockKeys.append(winner.key),
      handlerRuns: applied ? incrementCount(ctx.handlerRuns, planName) : ctx.handlerRuns,
      halts: [...ctx0.halts, ...halts],
      lastBlock: {
        height: h,
        committed: true,
        action,
        planName,
        handlerCommitted: applied,
        handlerRanOn,
        committedBy: winner.members,
        halts,
      },
    },
  };
}

const memo = new WeakMap<OracleContext, Map<number, BlockResolution>>();

/**
 * The outcome of BLOCK{h} on `ctx`. Pure; memoised per context object because the machine's guards and its assign
 * all ask for it during one transition.
 */
export function resolveBlock(ctx: OracleContext, h: number): BlockResolution {
  if (!Number.isSafeInteger(h) || h !== ctx.height + 1) {
    return { valid: false, committed: false, action: null, context: ctx };
  }
  let perContext = memo.get(ctx);
  if (perContext === undefined) {
    perContext = new Map();
    memo.set(ctx, perContext);
  }
  const cached = perContext.get(h);
  if (cached !== undefined) return cached;
  const resolution = computeBlock(ctx, height(h), true);
  perContext.set(h, resolution);
  return resolution;
}

/** `resolveBlock` with every node's PreBlock and key computed on its own: the reference the sharing must equal. */
export function resolveBlockUnshared(ctx: OracleContext, h: number): BlockResolution {
  if (!Number.isSafeInteger(h) || h !== ctx.height + 1) {
    return { valid: false, committed: false, action: null, context: ctx };
  }
  return computeBlock(ctx, height(h), false);
}
