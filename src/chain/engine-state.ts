import { sha256 } from "@noble/hashes/sha2.js";
import type { AppHost } from "../app/host.js";
import { type NodeConfig, type NodeProcess, type SimTx, simTxWire, type TxResult } from "../app/types.js";
import { nameToAddressBytes } from "../core/address.js";
import { AssertionError } from "../core/assert.js";
import { toHex } from "../core/bytes.js";
import type { Event, LogLine } from "../core/context.js";
import type { ActionKind, Step, StepResult } from "./actions.js";
import { BlockStore } from "./block-store.js";
import { type ChainBlockTimes, chainBlockTimes } from "./block-time-shift.js";
import { canonicalJson } from "./canonical-json.js";
import type { ChainConfig, NodeStatus } from "./config.js";
import { type CommitDecision, decideCommit, type NodeExecution } from "./consensus.js";
import type { QueuedEvent } from "./event-queue.js";
import type { EngineOptions, HaltRecord, ProposalRecord } from "./records.js";
import { TraceWriter } from "./trace.js";

/**
 * The chain engine's state as records: what the coordinator (engine.ts) holds and every engine file (schedule.ts,
 * produce.ts, lifecycle.ts, steps.ts, book.ts, settle.ts) reads and updates. Plain fields, except two kinds of
 * handle: a node's persistent state and running process (owned by the app host, captured through it), and the
 * chain's data structures (block store, block times, trace), each with a plain-data snapshot of its own. A snapshot
 * of the whole (snapshot.ts) is plain data.
 */

/** A node as the engine tracks it. */
export interface NodeRecord<S> {
  readonly cfg: NodeConfig;
  /** The node's persistent state (the app host's handle). */
  readonly state: S;
  /** The running binary's process (the app host's handle); undefined unless `status` is running. */
  process: NodeProcess | undefined;
  status: NodeStatus;
  /** The binary last started (or configured). */
  binary: string;
  skip: readonly number[];
  /** Sequence number of the node's latest halt (a sidecar event of an older halt is stale). */
  haltSeq: number;
  /** Highest upgrade-info height the node's sidecar has acted on (0: none). */
  sidecarHandledHeight: number;
  /** The highest halt sequence number the operator's latest recovery planned steps for (operator.ts). */
  operatorThroughSeq: number;
  /**
   * Set when the operator's recovery has just started a wrong binary (operator.ts): the halt it expects next, as the
   * halt sequence number before it and the binary started. It holds for the next halt only.
   */
  operatorAwaits: OperatorAwaits | undefined;
  /** Set while the node runs a binary its operator started ahead of the upgrade (operator.ts), until it goes back. */
  operatorEarly: OperatorEarly | undefined;
  /**
   * The process and height of this node's last execution that did not halt, in an attempt that stalled (produce.ts:
   * a retry of that height by the same process cannot halt either). Not part of a snapshot.
   */
  stalledOk?: { readonly process: NodeProcess; readonly height: number } | undefined;
}

/** An operator's early start: the binary to go back to, and cosmovisor's handled height before a staged upgrade. */
export interface OperatorEarly {
  /** The plan acted on: the fix's draws are at its height. */
  readonly planHeight: number;
  readonly oldBinary: string;
  readonly handledHeight: number;
  readonly staged: boolean;
}

/** The halt a recovery's wrong binary is about to cause: the halt it follows (`haltSeq`) and the binary started. */
export interface OperatorAwaits {
  readonly haltSeq: number;
  readonly binary: string;
}

/** A transaction waiting for the next block, and the step that sent it. */
export interface MempoolEntry {
  readonly tx: SimTx;
  readonly stepIndex: number | undefined;
}

/** A step waiting for a halt that matches its trigger; it fires once. */
export interface HaltWatcher {
  readonly step: Step;
  /** The trigger as a key: a halt is claimed at most once per key. */
  readonly key: string;
  claimed: boolean;
}

/** Scheduling: steps waiting for a height, the canonical event queue, watchers waiting for a halt. */
export interface Schedule {
  readonly heightSteps: Map<number, Step[]>;
  /** In canonical order (event-queue.ts). */
  readonly queue: QueuedEvent[];
  /** Sequence number of the next queued event. */
  seq: number;
  readonly haltWatchers: HaltWatcher[];
  /** `${halt index} ${watcher key}` of every claim made: a halt is claimed at most once per key. */
  readonly haltClaims: Set<string>;
  /** Index of the next step added by `apply` (past any scenario file's steps). */
  nextStepIndex: number;
}

/** A step whose transactions are in flight: its result once every part has landed. */
export interface PendingTxStep {
  readonly label: string | null;
  readonly action: ActionKind;
  readonly parts: number;
  readonly errors: string[];
  result: Record<string, unknown> | null;
  landed: number;
}

/** Step and transaction bookkeeping: step results, proposals and their labels, handler runs, settle marks. */
export interface Book {
  readonly stepResults: Map<number, StepResult>;
  readonly pendingTxSteps: Map<number, PendingTxStep>;
  readonly proposals: Map<bigint, ProposalRecord>;
  /** Proposal label → proposal id, once its submission landed. */
  readonly labels: Map<string, bigint>;
  /** Step index → the label its submitProposal action gave. */
  readonly submitLabels: Map<number, string>;
  readonly handlerRuns: Map<string, number>;
  /** Highest chain height at which a step ran or its transactions were due. */
  lastStepHeight: number;
  /** Highest height at which a plan was applied, skipped, changed, passed or failed. */
  lastPlanEventHeight: number;
  /** Canonical JSON of the committed plan last traced. */
  lastPlanKey: string;
}

export interface EngineState<S> {
  readonly cfg: ChainConfig;
  readonly totalPower: number;
  readonly nodes: readonly NodeRecord<S>[];
  height: number;
  lastTimeMs: number;
  nowMs: number;
  stalled: boolean;
  blocksCommitted: number;
  readonly blocks: BlockStore<SimTx>;
  readonly blockTimes: ChainBlockTimes;
  /** The chain's results of each block that carried transactions, by height (what an RPC's block_results serves). */
  readonly blockResults: Map<number, readonly TxResult[]>;
  /** The ABCI events of each committed block that had any, by height (ascending: blocks are appended in order). */
  readonly blockEvents: Map<number, readonly Event[]>;
  /** The log lines of each committed block that wrote any, by height (ascending), as the committers wrote them. */
  readonly blockLogs: Map<number, readonly LogLine[]>;
  mempool: MempoolEntry[];
  readonly halts: HaltRecord[];
  readonly schedule: Schedule;
  readonly book: Book;
  readonly trace: TraceWriter;
}

/** What every engine function works on: the state, the app host (`I`: its node images) and the engine's options. */
export interface EngineCtx<S, I = unknown> {
  readonly s: EngineState<S>;
  readonly host: AppHost<S, I>;
  readonly opts: EngineOptions;
}

export const nodeNamed = <S>(s: EngineState<S>, name: string): NodeRecord<S> | undefined =>
  s.nodes.find((n) => n.cfg.name === name);

/**
 * A node the engine itself recorded by name (a committer, an adopter, a sidecar's node): asserted present. (Here and
 * in `processOf` the message is built only on failure: both run for every node of every block.)
 */
export function recordedNode<S>(s: EngineState<S>, name: string): NodeRecord<S> {
  const n = nodeNamed(s, name);
  if (n === undefined) throw new AssertionError(`node "${name}" is one of the engine's nodes`);
  return n;
}

/** A running node's process: asserted present (a node that executed or runs has one). */
export function processOf<S>(n: NodeRecord<S>): NodeProcess {
  if (n.process === undefined) throw new AssertionError(`node "${n.cfg.name}" (${n.status}) has a process`);
  return n.process;
}

export const lastHeightOf = <S>(ctx: EngineCtx<S>, n: NodeRecord<S>): number =>
  n.process?.lastHeight() ?? ctx.host.lastHeight(n.state);

/** The node whose committed state is the chain's: the first node at the chain height with the chain's hash. */
export function referenceNode<S>(ctx: EngineCtx<S>): NodeRecord<S> | undefined {
  const { s, host } = ctx;
  const hash = s.blocks.appHash(s.height);
  return s.nodes.find(
    (n) => lastHeightOf(ctx, n) === s.height && (n.process?.lastAppHash() ?? host.lastAppHash(n.state)) === hash,
  );
}

/** The commit decision over a block's executions (the consensus rule, then the consensus hook if any). */
export function decide<S>(ctx: EngineCtx<S>, execs: readonly NodeExecution[]): CommitDecision {
  const d = decideCommit(execs, ctx.s.totalPower);
  return ctx.opts.consensus === undefined ? d : ctx.opts.consensus(d, execs, ctx.s.totalPower);
}

/** True when an unfired step or queued event remains. */
export const pending = <S>(s: EngineState<S>): boolean =>
  s.schedule.heightSteps.size > 0 || s.schedule.queue.length > 0 || s.book.pendingTxSteps.size > 0;

/**
 * The state at genesis, its trace holding the genesis event: nodes created (not started), no block, nothing scheduled.
 * The chain stands at `initialHeight − 1` (0 by default) at the genesis time; the genesis proposals are recorded.
 */
export function genesisState<S, I>(
  cfg: ChainConfig,
  host: AppHost<S, I>,
  nodes: readonly NodeConfig[],
  opts: EngineOptions,
): EngineState<S> {
  const validators = nodes.filter((n) => n.power > 0);
  const trace = new TraceWriter(opts.keepTrace ?? false);
  const base = (cfg.initialHeight ?? 1) - 1;
  trace.emit({
    kind: "genesis",
    chainId: cfg.chainId,
    seed: cfg.seed,
    timeMs: cfg.genesisTimeMs,
    appHash: host.genesisAppHash(),
    blockTime: cfg.blockTime,
    nodes: nodes.map((n) => ({ name: n.name, power: n.power, binary: n.binary, skip: n.skipUpgradeHeights })),
    ...(base === 0 ? {} : { initialHeight: base + 1 }),
  });
  return {
    cfg,
    totalPower: nodes.reduce((p, c) => p + c.power, 0),
    nodes: nodes.map((c) => ({
      cfg: c,
      state: host.createNodeState(c),
      process: undefined,
      status: "stopped",
      binary: c.binary,
      skip: c.skipUpgradeHeights,
      haltSeq: 0,
      sidecarHandledHeight: 0,
      operatorThroughSeq: 0,
      operatorAwaits: undefined,
      operatorEarly: undefined,
    })),
    height: base,
    lastTimeMs: cfg.genesisTimeMs,
    nowMs: cfg.genesisTimeMs,
    stalled: false,
    blocksCommitted: 0,
    blocks: new BlockStore<SimTx>(
      cfg.chainId,
      host.genesisAppHash(),
      // validators_hash: SHA-256 of the canonical validator set (upper-case hex, as CometBFT prints hashes).
      toHex(sha256(new TextEncoder().encode(canonicalJson(validators.map((v) => [v.name, v.power]))))).toUpperCase(),
      validators.map((v) => nameToAddressBytes(v.name)),
      encodeSimTx,
      base,
    ),
    blockTimes: chainBlockTimes({ seed: cfg.seed, model: cfg.blockTime }, base),
    blockResults: new Map(),
    blockEvents: new Map(),
    blockLogs: new Map(),
    mempool: [],
    halts: [],
    schedule: {
      heightSteps: new Map(),
      queue: [],
      seq: 0,
      haltWatchers: [],
      haltClaims: new Set(),
      nextStepIndex: 1_000_000,
    },
    book: {
      stepResults: new Map(),
      pendingTxSteps: new Map(),
      proposals: new Map(
        (cfg.genesisProposals ?? []).map((p) => [
          p.id,
          { ...p, submitHeight: base, failedReason: "" } satisfies ProposalRecord,
        ]),
      ),
      labels: new Map((cfg.genesisProposals ?? []).map((p) => [p.label, p.id])),
      submitLabels: new Map(),
      handlerRuns: new Map(),
      lastStepHeight: base,
      lastPlanEventHeight: 0,
      lastPlanKey: canonicalJson(cfg.genesisPlan ?? null),
    },
    trace,
  };
}

/** A transaction's bytes in the block store (data hash, block size): its canonical wire JSON. */
export const encodeSimTx = (tx: SimTx): Uint8Array => new TextEncoder().encode(canonicalJson(simTxWire(tx)));
