import type { AppHost, CommittedView } from "../app/host.js";
import type { NodeConfig, SimTx, TxResult } from "../app/types.js";
import { assert } from "../core/assert.js";
import type { UnixMs } from "../core/brand.js";
import type { Event, LogLine } from "../core/context.js";
import type { Action, Step, StepResult } from "./actions.js";
import type { BlockStore } from "./block-store.js";
import { recordStep, stepResults } from "./book.js";
import type { ChainConfig, NodeStatus } from "./config.js";
import {
  type EngineCtx,
  genesisState,
  lastHeightOf,
  type NodeRecord,
  nodeNamed,
  pending,
  recordedNode,
  referenceNode,
} from "./engine-state.js";
import type { QueuedEvent } from "./event-queue.js";
import { type HaltedInfo, haltedInfo, sidecarBinary, startProcess, stopNode } from "./lifecycle.js";
import { operatorStep } from "./operator.js";
import { attemptBlock, catchUp, fastForward, retryIfStalled } from "./produce.js";
import {
  type EngineOptions,
  type HaltRecord,
  type ProposalRecord,
  RUN_BLOCKS_MAX,
  type StopCondition,
} from "./records.js";
import { addStep, nextMove, type WaitingStep, waitingSteps } from "./schedule.js";
import { settled } from "./settle.js";
import { type EngineSnapshot, restoreState, snapshotState } from "./snapshot.js";
import { runStep } from "./steps.js";
import type { TraceEvent } from "./trace.js";

export type { EngineOptions, EngineSnapshot, HaltRecord, ProposalRecord, StopCondition };

/** Moves one `run` call makes at most (each handles an event or commits at least one block): a runaway guard. */
const RUN_MOVES_MAX = 2 ** 40;

/**
 * The chain engine: one simulated clock, validators and full nodes each running a binary over their own state,
 * the consensus rule, halts, restarts, swaps, catch-up and sidecars, exactly as docs/scenario-format.md §1 defines
 * them. Deterministic: everything derives from the config, the seed and the steps. Expected failures are data
 * (halts, step results); nothing throws out of the engine for bad scenario input that passed validation.
 *
 * A thin coordinator over plain records (engine-state.ts): scheduling (schedule.ts), block production
 * (produce.ts), node lifecycle (lifecycle.ts), steps and bookkeeping (steps.ts, book.ts) and the settle rule
 * (settle.ts) are functions over them. It holds no state of its own besides them.
 */
export class ChainEngine<S, I = unknown> {
  readonly #ctx: EngineCtx<S, I>;

  private constructor(ctx: EngineCtx<S, I>) {
    this.#ctx = ctx;
  }

  /** Creates the chain at genesis and starts every node with its configured binary. */
  static create<S, I>(
    cfg: ChainConfig,
    host: AppHost<S, I>,
    nodes: readonly NodeConfig[],
    steps: readonly Step[],
    opts: EngineOptions = {},
  ): ChainEngine<S, I> {
    const e = new ChainEngine({ s: genesisState(cfg, host, nodes, opts), host, opts });
    for (const n of e.#ctx.s.nodes) e.#start(n, n.cfg.binary, n.cfg.skipUpgradeHeights);
    for (const s of steps) e.schedule(s);
    return e;
  }

  /**
   * The engine's state as plain data (snapshot.ts): `fromSnapshot` continues from it exactly as this engine does from
   * here, any number of times, also after `structuredClone`. This is how a ready chain is built once and forked.
   */
  snapshot(): EngineSnapshot<I> {
    return snapshotState(this.#ctx);
  }

  /**
   * The engine of a snapshot. `host` is the app host the snapshot was taken with (or one built from the same
   * scenario); `opts` are the options to run with (callbacks are not part of a snapshot; `keepTrace` is: the trace
   * keeps its events only if the original kept them).
   */
  static fromSnapshot<S, I>(
    host: AppHost<S, I>,
    snapshot: EngineSnapshot<I>,
    opts: EngineOptions = {},
  ): ChainEngine<S, I> {
    return new ChainEngine({ s: restoreState(host, snapshot), host, opts });
  }

  /** Adds a step. Height and time triggers in the past run at the next opportunity; `now` runs at once. */
  schedule(step: Step): void {
    if (step.trigger.kind !== "now") {
      addStep(this.#ctx.s, step);
      return;
    }
    this.#runStep(step);
    retryIfStalled(this.#ctx);
  }

  /**
   * Runs `action` at once as a step of its own (the next free step index, after the scenario's), then retries a
   * stalled block, which may commit. Returns the step's result when the action finished at once; undefined when it
   * sent transactions whose block has not committed yet (`stepResults()` has it once the block commits). For code
   * that drives an engine without a scenario (the engine's and the app host's tests); the property harness schedules
   * steps instead (scenario/simulate.ts `scheduleStep`).
   */
  apply(action: Action, label?: string): StepResult | undefined {
    const index = this.#ctx.s.schedule.nextStepIndex++;
    this.schedule({ index, trigger: { kind: "now" }, action, ...(label === undefined ? {} : { label }) });
    return this.#ctx.s.book.stepResults.get(index);
  }

  /** Runs until the condition holds, the chain stalls with nothing pending, or nothing can happen any more. */
  run(stop: StopCondition): void {
    const ctx = this.#ctx;
    const s = ctx.s;
    const startBlocks = s.blocksCommitted;
    const maxBlocks = stop.maxBlocks ?? (stop.settle ? RUN_BLOCKS_MAX : Number.POSITIVE_INFINITY);
    for (let moves = 0; ; moves++) {
      assert(moves < RUN_MOVES_MAX, "a run makes progress");
      const blocksLeft = maxBlocks - (s.blocksCommitted - startBlocks);
      const move = nextMove(s, stop, blocksLeft, stop.settle === true && settled(ctx));
      switch (move.kind) {
        case "stop":
          if (move.clockMs !== undefined) s.nowMs = Math.max(s.nowMs, move.clockMs);
          return;
        case "event":
          s.schedule.queue.shift();
          s.nowMs = Math.max(s.nowMs, move.event.timeMs);
          // An operator step other than the restart changes nothing the chain can commit with: no retry (and no
          // stall traced for it).
          if (this.#handle(move.event)) retryIfStalled(ctx);
          break;
        case "block": {
          if (!ctx.opts.noFastPath && fastForward(ctx, stop, blocksLeft)) break;
          s.nowMs = move.timeMs;
          const steps = s.schedule.heightSteps.get(move.height);
          s.schedule.heightSteps.delete(move.height);
          for (const st of steps ?? []) this.#runStep(st);
          attemptBlock(ctx, move.height, move.timeMs);
          break;
        }
      }
    }
  }

  /** Handles a queued event; false when it cannot have changed whether the chain commits. */
  #handle(e: QueuedEvent): boolean {
    if (e.kind === "step") {
      this.#runStep(e.step);
      return true;
    }
    const n = recordedNode(this.#ctx.s, e.node);
    if (e.kind === "sidecar") {
      const binary = sidecarBinary(this.#ctx, n, e.haltSeq);
      if (binary !== undefined) this.#start(n, binary, n.skip);
      return true;
    }
    const move = operatorStep(this.#ctx, n, e);
    if (move?.kind === "stop") stopNode(this.#ctx, n);
    if (move?.kind === "start") this.#start(n, move.binary, n.skip);
    return move !== undefined;
  }

  #runStep(step: Step): void {
    const op = runStep(this.#ctx, step);
    if (op === undefined) return;
    if (op.kind === "stop") {
      stopNode(this.#ctx, op.node);
      recordStep(this.#ctx.s, step, true, null);
      return;
    }
    const launch = this.#ctx.opts.launch;
    const binary = launch === undefined ? op.binary : launch(op.node.cfg.name, op.binary, op.node.binary);
    this.#start(op.node, binary, op.skip);
    recordStep(this.#ctx.s, step, true, null, { status: op.node.status });
  }

  #start(n: NodeRecord<S>, binary: string, skip: readonly number[]): void {
    if (startProcess(this.#ctx, n, binary, skip)) catchUp(this.#ctx, n);
  }

  // ---------------------------------------------------------------- reading state

  get cfg(): ChainConfig {
    return this.#ctx.s.cfg;
  }
  get height(): number {
    return this.#ctx.s.height;
  }
  get nowMs(): UnixMs {
    return this.#ctx.s.nowMs as UnixMs;
  }
  get lastBlockTimeMs(): number {
    return this.#ctx.s.lastTimeMs;
  }
  get stalled(): boolean {
    return this.#ctx.s.stalled;
  }
  get blocksCommitted(): number {
    return this.#ctx.s.blocksCommitted;
  }
  get blocks(): BlockStore<SimTx> {
    return this.#ctx.s.blocks;
  }
  /** The tx results of committed block `height` (empty for a block without transactions). */
  blockResults(height: number): readonly TxResult[] {
    return this.#ctx.s.blockResults.get(height) ?? [];
  }
  /** The ABCI events of every committed block that had any, by ascending height. */
  get blockEvents(): ReadonlyMap<number, readonly Event[]> {
    return this.#ctx.s.blockEvents;
  }
  /**
   * The log lines of every committed block that wrote any, by ascending height, in emission order (PreBlocker,
   * successful transactions, EndBlocker). A halted node's final lines are in its HaltRecord (`halts`).
   */
  get blockLogs(): ReadonlyMap<number, readonly LogLine[]> {
    return this.#ctx.s.blockLogs;
  }
  get halts(): readonly HaltRecord[] {
    return this.#ctx.s.halts;
  }
  get handlerRuns(): ReadonlyMap<string, number> {
    return this.#ctx.s.book.handlerRuns;
  }
  get proposals(): readonly ProposalRecord[] {
    return [...this.#ctx.s.book.proposals.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }
  proposalByLabel(label: string): ProposalRecord | undefined {
    const id = this.#ctx.s.book.labels.get(label);
    return id === undefined ? undefined : this.#ctx.s.book.proposals.get(id);
  }
  /** Step results by step index, including steps whose transactions never landed (reported as failed). */
  stepResults(): readonly StepResult[] {
    return stepResults(this.#ctx.s);
  }
  /** The steps that have not run yet, and what each waits for (its trigger, or a halt step's delay). */
  waitingSteps(): readonly WaitingStep[] {
    return waitingSteps(this.#ctx.s.schedule);
  }
  /** True when an unfired step or queued event remains. */
  get pending(): boolean {
    return pending(this.#ctx.s);
  }
  nodeNames(): readonly string[] {
    return this.#ctx.s.nodes.map((n) => n.cfg.name);
  }
  nodeStatus(
    name: string,
  ): { status: NodeStatus; binary: string; height: number; skip: readonly number[] } | undefined {
    const n = nodeNamed(this.#ctx.s, name);
    if (n === undefined) return undefined;
    return { status: n.status, binary: n.binary, height: lastHeightOf(this.#ctx, n), skip: n.skip };
  }
  nodeState(name: string): S | undefined {
    return nodeNamed(this.#ctx.s, name)?.state;
  }
  /** The chain's committed state, read from a node that holds it. */
  committed(): CommittedView | undefined {
    const ref = referenceNode(this.#ctx);
    return ref === undefined ? undefined : this.#ctx.host.readCommitted(ref.state);
  }
  /** The halted state of the chain: stalled with block `height` uncommitted, and which nodes are halted. */
  haltedInfo(): HaltedInfo | null {
    return haltedInfo(this.#ctx.s);
  }
  traceHash(): string {
    return this.#ctx.s.trace.hash();
  }
  /** The canonical trace lines (kept only with `keepTrace`), rendered on each call: for `--trace` and files. */
  traceLines(): readonly string[] {
    return this.#ctx.s.trace.lines();
  }
  /** The trace events (kept only with `keepTrace`). */
  traceEvents(): readonly TraceEvent[] {
    return this.#ctx.s.trace.events();
  }
  /** The kept trace events from index `from` on, for readers that follow the trace as it grows. */
  traceEventsFrom(from: number): readonly TraceEvent[] {
    return this.#ctx.s.trace.eventsFrom(from);
  }
  get host(): AppHost<S, I> {
    return this.#ctx.host;
  }
}
