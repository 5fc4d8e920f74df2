/**
 * The block rule of consensus.ts written plainly, as it was before `resolveBlock` was made lean (session 13): every
 * node's outcome gathered in maps, every node copied, the halts copied per block. It is the reference the lean
 * `computeBlock` must equal (`oracle.property.test.ts` compares them after every event of random histories), and
 * `resolveBlockUnshared` also runs every node's PreBlock on its own, the reference for sharing them.
 */
import { type Height, height } from "../src/core/brand.js";
import {
  appHashMismatchMessage,
  type BlockResolution,
  blockKey,
  catchUp,
  haltNode,
  isRunning,
  preBlockInput,
  runPreBlock,
} from "./consensus.js";
import { currentState, incrementCount } from "./context.js";
import type { PreBlockOutcome } from "./preblock.js";
import type { HaltRecord, NodeState, OracleContext } from "./types.js";

interface Group {
  readonly key: string;
  power: number;
  readonly members: string[];
  readonly outcome: Extract<PreBlockOutcome, { kind: "ok" }>;
}

function computeBlockPlain(ctx0: OracleContext, h: Height, share: boolean): BlockResolution {
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

/** `resolveBlock` by the plain rule with every node's PreBlock and key computed on its own. */
export function resolveBlockUnshared(ctx: OracleContext, h: number): BlockResolution {
  if (!Number.isSafeInteger(h) || h !== ctx.height + 1) {
    return { valid: false, committed: false, action: null, context: ctx };
  }
  return computeBlockPlain(ctx, height(h), false);
}
