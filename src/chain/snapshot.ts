import type { AppHost } from "../app/host.js";
import type { NodeConfig, SimTx, TxResult } from "../app/types.js";
import type { Event, LogLine } from "../core/context.js";
import { BlockStore, type BlockStoreSnapshot } from "./block-store.js";
import type { BlockTimeSnapshot } from "./block-time.js";
import { chainBlockTimes } from "./block-time-shift.js";
import type { ChainConfig, NodeStatus } from "./config.js";
import {
  type Book,
  type EngineCtx,
  type EngineState,
  encodeSimTx,
  type MempoolEntry,
  type OperatorAwaits,
  type OperatorEarly,
  type Schedule,
} from "./engine-state.js";
import type { HaltRecord } from "./records.js";
import { type TraceSnapshot, TraceWriter } from "./trace.js";

/**
 * The engine's state as plain data: no closures, no class instances, nothing `structuredClone` cannot copy. A node
 * is captured through the app host (its image `I`: the node's state and running process). Restoring gives an engine
 * that continues exactly as the original would: the same trace hash and the same observable state at every point
 * after (engine.snapshot.test.ts, over every library scenario and planted fault). Independent of the engine it came
 * from: later changes to either side do not show in the other, and one snapshot restores any number of times.
 * Cheap: committed store content is shared (persistent trees), not copied.
 *
 * Not in a snapshot: the app host and the engine options (callbacks); `fromSnapshot` takes them again. The trace
 * keeps its events only if the original kept them.
 */
export interface EngineSnapshot<I = unknown> {
  readonly cfg: ChainConfig;
  readonly totalPower: number;
  readonly nodes: readonly NodeSnapshot<I>[];
  readonly height: number;
  readonly lastTimeMs: number;
  readonly nowMs: number;
  readonly stalled: boolean;
  readonly blocksCommitted: number;
  readonly blocks: BlockStoreSnapshot<SimTx>;
  readonly blockTimes: BlockTimeSnapshot;
  readonly trace: TraceSnapshot;
  /** Records of plain data, copied on the way in and out (structuredClone). */
  readonly records: EngineRecords;
}

export interface NodeSnapshot<I> {
  readonly cfg: NodeConfig;
  /** The node's state and running process, as the app host captured them. */
  readonly image: I;
  readonly status: NodeStatus;
  readonly binary: string;
  readonly skip: readonly number[];
  readonly haltSeq: number;
  readonly sidecarHandledHeight: number;
  readonly operatorThroughSeq: number;
  readonly operatorAwaits: OperatorAwaits | undefined;
  readonly operatorEarly: OperatorEarly | undefined;
}

interface EngineRecords {
  readonly blockResults: Map<number, readonly TxResult[]>;
  readonly blockEvents: Map<number, readonly Event[]>;
  readonly blockLogs: Map<number, readonly LogLine[]>;
  readonly mempool: MempoolEntry[];
  readonly halts: HaltRecord[];
  readonly schedule: Schedule;
  readonly book: Book;
}

/** The state as plain data. Between blocks only (which every engine call is). */
export function snapshotState<S, I>(ctx: EngineCtx<S, I>): EngineSnapshot<I> {
  const { s, host } = ctx;
  return {
    cfg: s.cfg,
    totalPower: s.totalPower,
    nodes: s.nodes.map((n) => ({
      cfg: n.cfg,
      image: host.snapshotNode(n.state, n.process),
      status: n.status,
      binary: n.binary,
      skip: n.skip,
      haltSeq: n.haltSeq,
      sidecarHandledHeight: n.sidecarHandledHeight,
      operatorThroughSeq: n.operatorThroughSeq,
      operatorAwaits: n.operatorAwaits,
      operatorEarly: n.operatorEarly,
    })),
    height: s.height,
    lastTimeMs: s.lastTimeMs,
    nowMs: s.nowMs,
    stalled: s.stalled,
    blocksCommitted: s.blocksCommitted,
    blocks: s.blocks.snapshot(),
    blockTimes: s.blockTimes.snapshot(),
    trace: s.trace.snapshot(),
    records: structuredClone({
      blockResults: s.blockResults,
      blockEvents: s.blockEvents,
      blockLogs: s.blockLogs,
      mempool: s.mempool,
      halts: s.halts,
      schedule: s.schedule,
      book: s.book,
    }),
  };
}

/** The state of a snapshot, its nodes restored by `host` (the host the snapshot was taken with, or an equal one). */
export function restoreState<S, I>(host: AppHost<S, I>, snap: EngineSnapshot<I>): EngineState<S> {
  const r = structuredClone(snap.records);
  return {
    cfg: snap.cfg,
    totalPower: snap.totalPower,
    nodes: snap.nodes.map((n) => {
      const { state, process } = host.restoreNode(n.image);
      return {
        cfg: n.cfg,
        state,
        process,
        status: n.status,
        binary: n.binary,
        skip: n.skip,
        haltSeq: n.haltSeq,
        sidecarHandledHeight: n.sidecarHandledHeight,
        operatorThroughSeq: n.operatorThroughSeq,
        operatorAwaits: n.operatorAwaits,
        operatorEarly: n.operatorEarly,
      };
    }),
    height: snap.height,
    lastTimeMs: snap.lastTimeMs,
    nowMs: snap.nowMs,
    stalled: snap.stalled,
    blocksCommitted: snap.blocksCommitted,
    blocks: BlockStore.fromSnapshot(snap.blocks, encodeSimTx),
    blockTimes: chainBlockTimes(snap.blockTimes, (snap.cfg.initialHeight ?? 1) - 1),
    blockResults: r.blockResults,
    blockEvents: r.blockEvents,
    blockLogs: r.blockLogs,
    mempool: r.mempool,
    halts: r.halts,
    schedule: r.schedule,
    book: r.book,
    trace: new TraceWriter(snap.trace.keep, snap.trace),
  };
}
