import { sha256 } from "@noble/hashes/sha2.js";
import type { AppHost, CommittedView, ProposalView } from "../app/host.js";
import { nameToAddressBytes } from "../core/address.js";
import { present } from "../core/assert.js";
import type { UnixMs } from "../core/brand.js";
import { toHex } from "../core/bytes.js";
import { actionTxs } from "./action-txs.js";
import type { Action, ActionKind, Step, StepResult, Trigger } from "./actions.js";
import { BlockStore } from "./block-store.js";
import { BlockTimeSource } from "./block-time.js";
import { canonicalJson } from "./canonical-json.js";
import { type CommitDecision, decideCommit, type NodeExecution } from "./consensus.js";
import { enqueue, type QueuedEvent, type QueuedPayload } from "./event-queue.js";
import {
  type EngineOptions,
  type HaltRecord,
  type ProposalRecord,
  SETTLE_BLOCKS_MAX,
  SETTLE_MARGIN_BLOCKS,
  type StopCondition,
} from "./records.js";
import { type TraceEvent, TraceWriter } from "./trace.js";

export type { EngineOptions, HaltRecord, ProposalRecord, StopCondition };
export { SETTLE_BLOCKS_MAX };

import {
  type ExecOutcome,
  type GovBlockEvent,
  type Halt,
  type NodeConfig,
  type NodeProcess,
  type SimTx,
  simTxWire,
  type TxResult,
} from "../app/types.js";
import type { ChainConfig, NodeStatus } from "./config.js";

interface NodeRuntime<S> {
  readonly cfg: NodeConfig;
  state: S;
  process: NodeProcess | undefined;
  status: NodeStatus;
  binary: string;
  skip: readonly number[];
  /** Sequence number of the node's latest halt (for sidecar staleness checks). */
  haltSeq: number;
  /** Highest upgrade-info height the node's sidecar has acted on (0: none). */
  sidecarHandledHeight: number;
}

interface MempoolEntry {
  readonly tx: SimTx;
  /** The step that sent it, and for multi-tx steps (votes) the part index. */
  readonly stepIndex: number | undefined;
}

/**
 * The chain engine: one simulated clock, validators and full nodes each running a binary over their own state,
 * the consensus rule, halts, restarts, swaps, catch-up and sidecars, exactly as docs/scenario-format.md §1 defines them.
 * Deterministic: everything derives from the config, the seed and the steps. Expected failures are data (halts,
 * step results); nothing throws out of the engine for bad scenario input that passed validation.
 */
export class ChainEngine<S> {
  readonly cfg: ChainConfig;
  readonly #host: AppHost<S>;
  readonly #opts: EngineOptions;
  #nodes: NodeRuntime<S>[];
  #totalPower: number;
  #blockTimes: BlockTimeSource;
  #blocks: BlockStore<SimTx>;
  /** The chain's results of each block that carried transactions, by height (what an RPC's block_results serves). */
  #blockResults = new Map<number, readonly TxResult[]>();
  #trace: TraceWriter;

  #height = 0;
  #lastTimeMs: number;
  #nowMs: number;
  #stalled = false;
  #mempool: MempoolEntry[] = [];
  #queue: QueuedEvent[] = [];
  #seq = 0;
  #heightSteps = new Map<number, Step[]>();
  #haltWatchers: { step: Step; key: string; claimed: boolean }[] = [];
  #halts: HaltRecord[] = [];
  #proposals = new Map<bigint, ProposalRecord>();
  #labels = new Map<string, bigint>();
  #handlerRuns = new Map<string, number>();
  #stepResults = new Map<number, StepResult>();
  #pendingTxSteps = new Map<
    number,
    {
      label: string | null;
      action: ActionKind;
      parts: number;
      errors: string[];
      result: Record<string, unknown> | null;
      landed: number;
    }
  >();
  #lastStepHeight = 0;
  #lastPlanEventHeight = 0;
  #lastPlanKey = "null";
  #blocksCommitted = 0;
  #nextStepIndex = 1_000_000;

  private constructor(cfg: ChainConfig, host: AppHost<S>, nodes: readonly NodeConfig[], opts: EngineOptions) {
    this.cfg = cfg;
    this.#host = host;
    this.#opts = opts;
    this.#lastTimeMs = cfg.genesisTimeMs;
    this.#nowMs = cfg.genesisTimeMs;
    this.#totalPower = nodes.reduce((n, c) => n + c.power, 0);
    this.#nodes = nodes.map((c) => ({
      cfg: c,
      state: host.createNodeState(c),
      process: undefined,
      status: "stopped",
      binary: c.binary,
      skip: c.skipUpgradeHeights,
      haltSeq: 0,
      sidecarHandledHeight: 0,
    }));
    this.#blockTimes = new BlockTimeSource(cfg.seed, cfg.blockTime);
    const validators = nodes.filter((n) => n.power > 0);
    this.#blocks = new BlockStore<SimTx>(
      cfg.chainId,
      host.genesisAppHash(),
      // validators_hash: SHA-256 of the canonical validator set (upper-case hex, as CometBFT prints hashes).
      toHex(sha256(new TextEncoder().encode(canonicalJson(validators.map((v) => [v.name, v.power]))))).toUpperCase(),
      validators.map((v) => nameToAddressBytes(v.name)),
      (tx) => new TextEncoder().encode(canonicalJson(simTxWire(tx))),
    );
    this.#trace = new TraceWriter(opts.keepTrace ?? false);
  }

  /** Creates the chain at genesis and starts every node with its configured binary. */
  static create<S>(
    cfg: ChainConfig,
    host: AppHost<S>,
    nodes: readonly NodeConfig[],
    steps: readonly Step[],
    opts: EngineOptions = {},
  ): ChainEngine<S> {
    const e = new ChainEngine(cfg, host, nodes, opts);
    e.#trace.emit({
      kind: "genesis",
      chainId: cfg.chainId,
      seed: cfg.seed,
      timeMs: cfg.genesisTimeMs,
      appHash: host.genesisAppHash(),
      blockTime: cfg.blockTime,
      nodes: nodes.map((n) => ({ name: n.name, power: n.power, binary: n.binary, skip: n.skipUpgradeHeights })),
    });
    for (const n of e.#nodes) e.#startNode(n, n.cfg.binary, n.cfg.skipUpgradeHeights);
    for (const s of steps) e.schedule(s);
    return e;
  }

  // ---------------------------------------------------------------- scheduling

  /** Adds a step. Height and time triggers in the past run at the next opportunity. */
  schedule(step: Step): void {
    const t = step.trigger;
    switch (t.kind) {
      case "height": {
        const list = this.#heightSteps.get(t.height) ?? [];
        list.push(step);
        this.#heightSteps.set(t.height, list);
        break;
      }
      case "time":
        this.#push({ timeMs: Math.max(t.timeMs, this.#nowMs), kind: "step", step });
        break;
      case "halt": {
        const w = { step, key: haltKey(t), claimed: false };
        this.#haltWatchers.push(w);
        // A halt that already happened and is unclaimed for this key counts.
        for (const h of this.#halts) if (this.#tryClaim(w, h)) break;
        break;
      }
      case "now":
        this.#runStep(step);
        this.#retryIfStalled();
        break;
    }
  }

  /** Runs an action at the current point (library use, e.g. the property harness). */
  apply(action: Action, label?: string): StepResult | undefined {
    const index = this.#nextStepIndex++;
    this.schedule({ index, trigger: { kind: "now" }, action, ...(label === undefined ? {} : { label }) });
    return this.#stepResults.get(index);
  }

  /**
   * Queues an event. Order is canonical, not insertion order: (time, steps before sidecars, step index or sidecar
   * sequence). So a step scheduled while the simulation runs (the property harness) lands exactly where the same
   * step lands when a scenario file schedules all its steps up front, which is what makes counterexamples replay.
   */
  #push(e: QueuedPayload): void {
    enqueue(this.#queue, { ...e, seq: this.#seq++ });
  }

  #tryClaim(w: { step: Step; key: string; claimed: boolean }, h: HaltRecord & { claimedKeys?: Set<string> }): boolean {
    if (w.claimed) return false;
    const t = w.step.trigger;
    if (t.kind !== "halt") return false;
    if (t.node !== null && t.node !== h.node) return false;
    if (t.haltKind !== undefined && t.haltKind !== h.kind) return false;
    if (t.height !== undefined && t.height !== h.height) return false;
    h.claimedKeys ??= new Set();
    if (h.claimedKeys.has(w.key)) return false;
    h.claimedKeys.add(w.key);
    w.claimed = true;
    this.#push({ timeMs: h.timeMs + t.delayMs, kind: "step", step: w.step });
    return true;
  }

  // ---------------------------------------------------------------- running

  /** Runs until the condition holds, the chain stalls with nothing pending, or nothing can happen any more. */
  run(stop: StopCondition): void {
    const startBlocks = this.#blocksCommitted;
    const maxBlocks = stop.maxBlocks ?? (stop.settle ? SETTLE_BLOCKS_MAX : Number.POSITIVE_INFINITY);
    for (;;) {
      if (stop.untilHeight !== undefined && this.#height >= stop.untilHeight) return;
      if (this.#blocksCommitted - startBlocks >= maxBlocks) return;
      if (stop.settle && this.#settled()) return;
      const h = this.#height + 1;
      const blockAt = this.#stalled ? Number.POSITIVE_INFINITY : this.#lastTimeMs + this.#blockTimes.interval(h);
      const next = this.#queue[0];
      if (next !== undefined && next.timeMs <= blockAt) {
        if (stop.untilTimeMs !== undefined && next.timeMs > stop.untilTimeMs) {
          this.#nowMs = Math.max(this.#nowMs, stop.untilTimeMs);
          return;
        }
        this.#queue.shift();
        this.#nowMs = Math.max(this.#nowMs, next.timeMs);
        this.#handleQueued(next);
        this.#retryIfStalled();
        continue;
      }
      if (blockAt === Number.POSITIVE_INFINITY) {
        if (stop.untilTimeMs !== undefined) this.#nowMs = Math.max(this.#nowMs, stop.untilTimeMs);
        return; // stalled with nothing pending
      }
      if (stop.untilTimeMs !== undefined && blockAt > stop.untilTimeMs) {
        this.#nowMs = Math.max(this.#nowMs, stop.untilTimeMs);
        return;
      }
      if (!this.#opts.noFastPath && this.#fastForward(stop, startBlocks, maxBlocks)) continue;
      this.#nowMs = blockAt;
      const steps = this.#heightSteps.get(h);
      if (steps !== undefined) {
        this.#heightSteps.delete(h);
        for (const s of steps) this.#runStep(s);
      }
      this.#attemptBlock(h, blockAt);
    }
  }

  /** Advances until the chain has committed `height` (or cannot). */
  advanceToHeight(height: number): void {
    this.run({ untilHeight: height });
  }

  /** Advances the simulated clock to `timeMs`, committing every block due before it. */
  advanceToTime(timeMs: number): void {
    this.run({ untilTimeMs: timeMs });
  }

  #settled(): boolean {
    if (this.pending) return false;
    for (const p of this.#proposals.values())
      if (p.status === "deposit_period" || p.status === "voting_period") return false;
    if (this.#height < this.#lastStepHeight + SETTLE_MARGIN_BLOCKS) return false;
    const ref = this.#referenceNode();
    if (ref !== undefined && this.#host.readCommitted(ref.state).plan !== null) return false;
    return this.#height >= this.#lastPlanEventHeight + SETTLE_MARGIN_BLOCKS;
  }

  #retryIfStalled(): void {
    if (!this.#stalled) return;
    this.#attemptBlock(this.#height + 1, this.#nowMs);
  }

  /**
   * Commits a run of idle blocks without executing them: no transactions, no steps, no queued events at or
   * before the block time, every running node inside its idle horizon, and the running nodes agreeing with more
   * than 2/3 of the power. Exactly equivalent to executing those blocks (tested with the fast path off), and a
   * few hundred nanoseconds per block whatever the number of nodes.
   */
  #fastForward(stop: StopCondition, startBlocks: number, maxBlocks: number): boolean {
    if (this.#mempool.length > 0 || this.#stalled) return false;
    const running = this.#nodes.filter((n) => n.status === "running" && n.process !== undefined);
    if (running.length === 0) return false;
    let heightEnd = Number.POSITIVE_INFINITY;
    let timeEndMs = Number.POSITIVE_INFINITY;
    const execs: NodeExecution[] = [];
    for (const n of running) {
      const p = n.process!;
      if (p.lastHeight() !== this.#height) return false;
      const hz = p.idleHorizon();
      if (hz === undefined) return false;
      heightEnd = Math.min(heightEnd, hz.heightEnd);
      timeEndMs = Math.min(timeEndMs, hz.timeEndMs);
      execs.push({ node: n.cfg.name, power: n.cfg.power, ok: true, appHash: p.lastAppHash() });
    }
    const decision = this.#decide(execs);
    if (!decision.commit || decision.mismatched.length > 0) return false;
    if (stop.untilHeight !== undefined) heightEnd = Math.min(heightEnd, stop.untilHeight + 1);
    heightEnd = Math.min(heightEnd, this.#height + 1 + (maxBlocks - (this.#blocksCommitted - startBlocks)));
    if (
      stop.settle &&
      !this.pending &&
      ![...this.#proposals.values()].some((p) => p.status === "deposit_period" || p.status === "voting_period")
    ) {
      const ref = this.#referenceNode();
      if (ref !== undefined && this.#host.readCommitted(ref.state).plan === null) {
        heightEnd = Math.min(
          heightEnd,
          Math.max(this.#lastStepHeight, this.#lastPlanEventHeight) + SETTLE_MARGIN_BLOCKS + 1,
        );
      }
    }
    const queueAt = this.#queue[0]?.timeMs ?? Number.POSITIVE_INFINITY;
    if (stop.untilTimeMs !== undefined) timeEndMs = Math.min(timeEndMs, stop.untilTimeMs + 1);
    const appHash = decision.appHash;
    const from = this.#height;
    let h = from + 1;
    for (; h < heightEnd; h++) {
      if (this.#heightSteps.has(h)) break;
      const t = this.#lastTimeMs + this.#blockTimes.interval(h);
      if (t >= timeEndMs || t >= queueAt) break;
      this.#blocks.append(h, t, [], appHash);
      this.#trace.plainBlock(h, t, appHash);
      this.#lastTimeMs = t;
      this.#nowMs = t;
    }
    const count = h - 1 - from;
    if (count === 0) return false;
    for (const n of running) n.process!.commitIdle(count);
    this.#height = from + count;
    this.#blocksCommitted += count;
    return true;
  }

  /**
   * Executes block h on every running node at h-1 and commits it by the consensus rule. Execution sharing: a node
   * whose process has the same execution key as a node that already executed this block shareably (same state,
   * binary, skip heights, flags and faults; see NodeProcess.executionKey) does not execute; it takes the same
   * outcome and, if it commits, adopts the executor's committed result, which is exactly what its own execute +
   * commit would have produced. Halts and blocks that wrote to a node's files are never shared: the next node
   * with the key executes itself. Everything observable (outcomes, halt order, trace) is unchanged.
   */
  #attemptBlock(h: number, timeMs: number): void {
    const txs = this.#mempool.map((e) => e.tx);
    const execs: NodeExecution[] = [];
    const outcomes = new Map<string, ExecOutcome & { ok: true }>();
    const executors = new Map<string, NodeRuntime<S>>();
    const adopters = new Map<string, NodeRuntime<S>>();
    for (const n of this.#nodes) {
      if (n.status !== "running" || n.process === undefined || n.process.lastHeight() !== h - 1) continue;
      const key = this.#opts.noSharedExecution ? undefined : n.process.executionKey();
      const executor = key === undefined ? undefined : executors.get(key);
      const out = executor === undefined ? n.process.execute(h, timeMs, txs) : outcomes.get(executor.cfg.name)!;
      if (!out.ok) {
        this.#haltNode(n, h, out.halt, timeMs);
        execs.push({ node: n.cfg.name, power: n.cfg.power, ok: false });
        continue;
      }
      if (executor !== undefined) adopters.set(n.cfg.name, executor);
      else if (key !== undefined && n.process.lastExecutionShareable()) executors.set(key, n);
      outcomes.set(n.cfg.name, out);
      execs.push({ node: n.cfg.name, power: n.cfg.power, ok: true, appHash: out.appHash });
    }
    const decision = this.#decide(execs);
    if (!decision.commit) {
      for (const name of outcomes.keys()) if (!adopters.has(name)) this.#node(name)!.process!.abort();
      this.#trace.emit({ kind: "stall", height: h, timeMs });
      this.#stalled = true;
      return;
    }
    // Executors commit first; an adopter shares its executor's app hash, so it commits exactly when its executor does.
    for (const name of decision.committers) if (!adopters.has(name)) this.#node(name)!.process!.commit();
    for (const name of decision.committers) {
      const executor = adopters.get(name);
      if (executor !== undefined) this.#node(name)!.process!.adoptCommitted(executor.process!);
    }
    for (const name of decision.mismatched) {
      const n = this.#node(name)!;
      if (!adopters.has(name)) n.process!.abort();
      this.#haltNode(n, h, mismatch(h), timeMs);
    }
    const rep = outcomes.get(decision.committers[0]!)!;
    const prevHash = this.#blocks.appHash(this.#height)!;
    const wasStalled = this.#stalled;
    this.#blocks.append(h, timeMs, txs, decision.appHash);
    this.#height = h;
    this.#lastTimeMs = timeMs;
    this.#nowMs = Math.max(this.#nowMs, timeMs);
    this.#stalled = false;
    this.#blocksCommitted++;
    if (txs.length > 0) this.#blockResults.set(h, rep.txResults);
    this.#recordTxResults(h, rep);
    this.#recordGov(h, rep.gov);
    if (rep.applied !== undefined) {
      this.#handlerRuns.set(rep.applied, (this.#handlerRuns.get(rep.applied) ?? 0) + 1);
      this.#lastPlanEventHeight = h;
    }
    if (rep.skipped !== undefined) this.#lastPlanEventHeight = h;
    const plain =
      txs.length === 0 &&
      rep.gov.length === 0 &&
      rep.applied === undefined &&
      rep.skipped === undefined &&
      decision.appHash === prevHash &&
      !wasStalled;
    if (plain) this.#trace.plainBlock(h, timeMs, decision.appHash);
    else
      this.#trace.emit({
        kind: "block",
        height: h,
        timeMs,
        appHash: decision.appHash,
        txs: txs.map((tx, i) => ({ tx, result: present(rep.txResults[i], `block ${h}: a result for tx ${i}`) })),
        gov: rep.gov,
        applied: rep.applied,
        skipped: rep.skipped,
        committers: decision.committers,
      });
    if (!plain) this.#tracePlanChange(h);
  }

  /** Emits a `plan` trace event when the committed plan differs from the last one traced. */
  #tracePlanChange(h: number): void {
    const ref = this.#referenceNode();
    if (ref === undefined) return;
    const plan = this.#host.readCommitted(ref.state).plan;
    const key = canonicalJson(plan);
    if (key === this.#lastPlanKey) return;
    this.#lastPlanKey = key;
    this.#lastPlanEventHeight = Math.max(this.#lastPlanEventHeight, h);
    this.#trace.emit({ kind: "plan", height: h, plan });
  }

  #recordTxResults(h: number, rep: ExecOutcome & { ok: true }): void {
    const entries = this.#mempool;
    this.#mempool = [];
    entries.forEach((e, i) => {
      if (e.stepIndex === undefined) return;
      const p = this.#pendingTxSteps.get(e.stepIndex);
      if (p === undefined) return;
      const r = rep.txResults[i] ?? { ok: false, error: "no result" };
      if (!r.ok) p.errors.push(r.error ?? "failed");
      if (r.proposalId !== undefined && r.ok) {
        p.result = { proposalId: Number(r.proposalId) };
        const label = p.label;
        if (e.tx.kind === "submitProposal") {
          const lbl = this.#submitLabels.get(e.stepIndex) ?? null;
          if (lbl !== null) this.#labels.set(lbl, r.proposalId);
          this.#proposals.set(r.proposalId, {
            id: r.proposalId,
            label: lbl ?? label,
            status: "deposit_period",
            submitHeight: h,
            depositEndTimeMs: null,
            votingStartTimeMs: null,
            votingEndTimeMs: null,
            failedReason: "",
          });
        }
      }
      p.landed++;
      if (p.landed === p.parts) {
        this.#pendingTxSteps.delete(e.stepIndex);
        this.#stepResults.set(e.stepIndex, {
          index: e.stepIndex,
          label: p.label,
          action: p.action,
          height: h,
          ok: p.errors.length === 0,
          error: p.errors.length === 0 ? null : p.errors.join("; "),
          result: p.result,
        });
      }
    });
  }

  #submitLabels = new Map<number, string>();

  #recordGov(h: number, events: readonly GovBlockEvent[]): void {
    if (events.length === 0) return;
    const ref = this.#referenceNode();
    const touched = new Set<bigint>();
    for (const ev of events) {
      const p = this.#proposals.get(ev.id);
      if (p === undefined) continue;
      touched.add(ev.id);
      switch (ev.kind) {
        case "dropped":
        case "cancelled":
          p.status = ev.kind;
          break;
        case "failed":
          p.status = "failed";
          p.failedReason = ev.reason;
          break;
        case "passed":
        case "rejected":
          p.status = ev.kind;
          break;
        case "voting-started":
          p.status = "voting_period";
          break;
        default:
          break;
      }
      if (ev.kind === "passed" || ev.kind === "failed")
        this.#lastPlanEventHeight = Math.max(this.#lastPlanEventHeight, h);
    }
    if (ref === undefined) return;
    for (const id of touched) {
      const v: ProposalView | undefined = this.#host.readProposal(ref.state, id);
      const p = this.#proposals.get(id)!;
      if (v === undefined) continue;
      p.status = v.status;
      p.depositEndTimeMs = v.depositEndTimeMs;
      p.votingStartTimeMs = v.votingStartTimeMs ?? null;
      p.votingEndTimeMs = v.votingEndTimeMs ?? null;
      p.failedReason = v.failedReason;
    }
  }

  // ---------------------------------------------------------------- nodes

  #node(name: string): NodeRuntime<S> | undefined {
    return this.#nodes.find((n) => n.cfg.name === name);
  }

  #lastHeightOf(n: NodeRuntime<S>): number {
    return n.process?.lastHeight() ?? this.#host.lastHeight(n.state);
  }

  #stopNode(n: NodeRuntime<S>): void {
    n.process?.abort();
    n.process = undefined;
    if (n.status !== "stopped") {
      n.status = "stopped";
      this.#trace.emit({ kind: "stop", node: n.cfg.name, timeMs: this.#nowMs });
    }
  }

  #startNode(n: NodeRuntime<S>, binary: string, skip: readonly number[]): void {
    this.#stopNode(n);
    n.binary = binary;
    n.skip = skip;
    this.#trace.emit({ kind: "start", node: n.cfg.name, binary, skip, timeMs: this.#nowMs });
    const res = this.#host.start(n.state, n.cfg, binary, skip);
    if (!res.ok) {
      this.#haltNode(n, this.#host.lastHeight(n.state) + 1, res.halt, this.#nowMs);
      return;
    }
    n.process = res.process;
    n.status = "running";
    this.#catchUp(n);
  }

  /** Re-executes committed blocks the node missed, with their transactions and times. */
  #catchUp(n: NodeRuntime<S>): void {
    const p = n.process!;
    while (n.status === "running" && p.lastHeight() < this.#height) {
      const h = p.lastHeight() + 1;
      const hz = this.#opts.noFastPath ? undefined : p.idleHorizon();
      if (hz !== undefined) {
        let end = h;
        while (
          end <= this.#height &&
          end < hz.heightEnd &&
          this.#blocks.txs(end).length === 0 &&
          this.#blocks.timeMs(end)! < hz.timeEndMs
        )
          end++;
        if (end > h) {
          p.commitIdle(end - h);
          if (p.lastAppHash() !== this.#blocks.appHash(end - 1)) {
            this.#haltNode(n, end - 1, mismatch(end - 1), this.#nowMs);
            return;
          }
          continue;
        }
      }
      const b = this.#blocks.get(h)!;
      const out = p.execute(h, b.timeMs, b.txs);
      if (!out.ok) {
        this.#haltNode(n, h, out.halt, this.#nowMs);
        return;
      }
      if (out.appHash !== b.appHash) {
        p.abort();
        this.#haltNode(n, h, mismatch(h), this.#nowMs);
        return;
      }
      p.commit();
    }
  }

  #haltNode(n: NodeRuntime<S>, height: number, halt: Halt, timeMs: number): void {
    n.process?.abort();
    n.process = undefined;
    n.status = "halted";
    n.haltSeq++;
    const rec: HaltRecord = { node: n.cfg.name, height, kind: halt.kind, message: halt.message, timeMs };
    this.#halts.push(rec);
    this.#trace.emit({
      kind: "halt",
      node: n.cfg.name,
      height,
      haltKind: halt.kind,
      message: halt.message,
      timeMs,
    });
    if (n.cfg.sidecar.enabled && halt.kind === "upgrade-needed") {
      this.#push({ timeMs: timeMs + n.cfg.sidecar.delayMs, kind: "sidecar", node: n.cfg.name, haltSeq: n.haltSeq });
    }
    for (const w of this.#haltWatchers) this.#tryClaim(w, rec);
  }

  #runSidecar(name: string, haltSeq: number): void {
    const n = this.#node(name)!;
    if (n.status !== "halted" || n.haltSeq !== haltSeq) {
      this.#trace.emit({ kind: "sidecar", node: name, action: "none", reason: "node no longer halted" });
      return;
    }
    const info = this.#host.readUpgradeInfo(n.state);
    if (info.kind !== "ok") {
      this.#trace.emit({
        kind: "sidecar",
        node: name,
        action: "none",
        reason: info.kind === "absent" ? "no upgrade-info.json" : info.error,
      });
      return;
    }
    // cosmovisor (docs/fidelity.md §4.2 rule 3): after its first upgrade, a later upgrade-info.json triggers an upgrade
    // only if its height is greater than the last height it handled; otherwise it keeps waiting.
    if (info.height <= n.sidecarHandledHeight) {
      this.#trace.emit({
        kind: "sidecar",
        node: name,
        action: "none",
        reason: `already switched binaries for height ${info.height}`,
      });
      return;
    }
    n.sidecarHandledHeight = info.height;
    const mapped = n.cfg.sidecar.binaries.get(info.name);
    const candidates = this.#host.binariesWithHandler(info.name);
    const binary = mapped ?? (candidates.length === 1 ? candidates[0] : undefined);
    if (binary === undefined) {
      this.#trace.emit({
        kind: "sidecar",
        node: name,
        action: "none",
        reason:
          candidates.length === 0
            ? `no binary has a handler for "${info.name}"`
            : `several binaries have a handler for "${info.name}"`,
      });
      return;
    }
    this.#trace.emit({
      kind: "sidecar",
      node: name,
      action: "swap",
      plan: info.name,
      binary,
      timeMs: this.#nowMs,
    });
    this.#startNode(n, binary, n.skip);
  }

  #handleQueued(e: QueuedEvent): void {
    if (e.kind === "sidecar") this.#runSidecar(e.node, e.haltSeq);
    else this.#runStep(e.step);
  }

  // ---------------------------------------------------------------- steps

  #runStep(step: Step): void {
    const a = step.action;
    const label = step.label ?? null;
    this.#lastStepHeight = Math.max(this.#lastStepHeight, this.#height);
    this.#trace.emit({
      kind: "step",
      index: step.index,
      label,
      action: a.kind,
      timeMs: this.#nowMs,
      height: this.#height,
    });
    const done = (ok: boolean, error: string | null, result: Record<string, unknown> | null = null): void => {
      this.#stepResults.set(step.index, {
        index: step.index,
        label,
        action: a.kind,
        height: this.#height,
        ok,
        error,
        result,
      });
    };
    const sendTxs = (txs: readonly SimTx[]) => {
      this.#pendingTxSteps.set(step.index, {
        label,
        action: a.kind,
        parts: txs.length,
        errors: [],
        result: null,
        landed: 0,
      });
      for (const tx of txs) this.#mempool.push({ tx, stepIndex: step.index });
      this.#lastStepHeight = Math.max(this.#lastStepHeight, this.#height + 1);
      if (txs.length === 0) done(true, null);
    };
    if (a.kind === "submitProposal") this.#submitLabels.set(step.index, a.id);
    const sent = actionTxs(a, (lbl) => this.#labels.get(lbl));
    if (sent !== undefined) {
      if (sent.ok) sendTxs(sent.txs);
      else done(false, sent.error);
      return;
    }
    switch (a.kind) {
      case "swapBinary":
      case "restart": {
        const n = this.#node(a.node);
        if (n === undefined) {
          done(false, `unknown node "${a.node}"`);
          return;
        }
        const binary = a.kind === "swapBinary" ? a.binary : n.binary;
        if (!this.#host.hasBinary(binary)) {
          done(false, `unknown binary "${binary}"`);
          return;
        }
        this.#startNode(n, binary, a.skipUpgradeHeights ?? n.skip);
        done(true, null, { status: n.status });
        return;
      }
      case "stop": {
        const n = this.#node(a.node);
        if (n === undefined) {
          done(false, `unknown node "${a.node}"`);
          return;
        }
        this.#stopNode(n);
        done(true, null);
        return;
      }
      case "check": {
        const r = this.#opts.check?.(a.id) ?? { ok: false, error: `no check runner for check ${a.id}` };
        done(r.ok, r.error ?? null);
        return;
      }
    }
  }

  // ---------------------------------------------------------------- reading state

  get height(): number {
    return this.#height;
  }
  get nowMs(): UnixMs {
    return this.#nowMs as UnixMs;
  }
  get lastBlockTimeMs(): number {
    return this.#lastTimeMs;
  }
  get stalled(): boolean {
    return this.#stalled;
  }
  get blocksCommitted(): number {
    return this.#blocksCommitted;
  }
  get blocks(): BlockStore<SimTx> {
    return this.#blocks;
  }
  /** The tx results of committed block `height` (empty for a block without transactions). */
  blockResults(height: number): readonly TxResult[] {
    return this.#blockResults.get(height) ?? [];
  }
  get halts(): readonly HaltRecord[] {
    return this.#halts;
  }
  get handlerRuns(): ReadonlyMap<string, number> {
    return this.#handlerRuns;
  }
  get proposals(): readonly ProposalRecord[] {
    return [...this.#proposals.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }
  proposalByLabel(label: string): ProposalRecord | undefined {
    const id = this.#labels.get(label);
    return id === undefined ? undefined : this.#proposals.get(id);
  }
  /** Step results by step index, including steps whose transactions never landed (reported as failed). */
  stepResults(): readonly StepResult[] {
    const out = [...this.#stepResults.values()];
    for (const [index, p] of this.#pendingTxSteps)
      out.push({
        index,
        label: p.label,
        action: p.action,
        height: null,
        ok: false,
        error: `not included in a committed block (the chain is at height ${this.#height})`,
        result: null,
      });
    return out.sort((a, b) => a.index - b.index);
  }
  /** True when an unfired step or queued event remains. */
  get pending(): boolean {
    return this.#heightSteps.size > 0 || this.#queue.length > 0 || this.#pendingTxSteps.size > 0;
  }

  nodeNames(): readonly string[] {
    return this.#nodes.map((n) => n.cfg.name);
  }
  nodeStatus(
    name: string,
  ): { status: NodeStatus; binary: string; height: number; skip: readonly number[] } | undefined {
    const n = this.#node(name);
    if (n === undefined) return undefined;
    return { status: n.status, binary: n.binary, height: this.#lastHeightOf(n), skip: n.skip };
  }
  nodeState(name: string): S | undefined {
    return this.#node(name)?.state;
  }

  /** The node whose committed state is the chain's: the first node at the chain height with the chain's hash. */
  #referenceNode(): NodeRuntime<S> | undefined {
    const hash = this.#blocks.appHash(this.#height);
    return this.#nodes.find(
      (n) =>
        this.#lastHeightOf(n) === this.#height &&
        (n.process?.lastAppHash() ?? this.#host.lastAppHash(n.state)) === hash,
    );
  }

  /** The chain's committed state, read from a node that holds it. */
  committed(): CommittedView | undefined {
    const ref = this.#referenceNode();
    return ref === undefined ? undefined : this.#host.readCommitted(ref.state);
  }

  /** The halted state of the chain: stalled with block `height` uncommitted, and which nodes are halted. */
  haltedInfo(): { height: number; nodes: string[]; reason: string } | null {
    if (!this.#stalled) return null;
    const nodes = this.#nodes.filter((n) => n.status === "halted").map((n) => n.cfg.name);
    const running = this.#nodes.filter((n) => n.status === "running").reduce((p, n) => p + n.cfg.power, 0);
    return {
      height: this.#height + 1,
      nodes,
      reason: `no app hash reached more than 2/3 of the voting power (running power ${running} of ${this.#totalPower})`,
    };
  }

  traceHash(): string {
    return this.#trace.hash();
  }
  /** The canonical trace lines (kept only with `keepTrace`), rendered on each call: for `--trace` and files. */
  traceLines(): readonly string[] {
    return this.#trace.lines();
  }
  /** The trace events (kept only with `keepTrace`). */
  traceEvents(): readonly TraceEvent[] {
    return this.#trace.events();
  }
  /** The kept trace events from index `from` on, for readers that follow the trace as it grows. */
  traceEventsFrom(from: number): readonly TraceEvent[] {
    return this.#trace.eventsFrom(from);
  }
  get host(): AppHost<S> {
    return this.#host;
  }

  /** The commit decision over a block's executions (the consensus rule, then the consensus hook if any). */
  #decide(execs: readonly NodeExecution[]): CommitDecision {
    const d = decideCommit(execs, this.#totalPower);
    return this.#opts.consensus === undefined ? d : this.#opts.consensus(d, execs, this.#totalPower);
  }

  /** An independent copy of the whole simulation (for the property harness). */
  clone(): ChainEngine<S> {
    const c = new ChainEngine<S>(this.cfg, this.#host, [], this.#opts);
    c.#nodes = this.#nodes.map((n) => {
      const state = this.#host.cloneNodeState(n.state);
      return {
        ...n,
        state,
        process: n.process === undefined ? undefined : this.#host.cloneProcess(n.process, state),
      };
    });
    c.#totalPower = this.#totalPower;
    c.#blockTimes = this.#blockTimes.clone();
    c.#blocks = this.#blocks.clone();
    c.#blockResults = new Map(this.#blockResults);
    c.#trace = this.#trace.clone();
    c.#height = this.#height;
    c.#lastTimeMs = this.#lastTimeMs;
    c.#nowMs = this.#nowMs;
    c.#stalled = this.#stalled;
    c.#mempool = [...this.#mempool];
    c.#queue = [...this.#queue];
    c.#seq = this.#seq;
    c.#heightSteps = new Map([...this.#heightSteps].map(([k, v]) => [k, [...v]]));
    c.#haltWatchers = this.#haltWatchers.map((w) => ({ ...w }));
    c.#halts = this.#halts.map((h) => ({
      ...h,
      ...("claimedKeys" in h ? { claimedKeys: new Set((h as { claimedKeys: Set<string> }).claimedKeys) } : {}),
    }));
    c.#proposals = new Map([...this.#proposals].map(([k, v]) => [k, { ...v }]));
    c.#labels = new Map(this.#labels);
    c.#handlerRuns = new Map(this.#handlerRuns);
    c.#stepResults = new Map(this.#stepResults);
    c.#pendingTxSteps = new Map([...this.#pendingTxSteps].map(([k, v]) => [k, { ...v, errors: [...v.errors] }]));
    c.#submitLabels = new Map(this.#submitLabels);
    c.#lastStepHeight = this.#lastStepHeight;
    c.#lastPlanEventHeight = this.#lastPlanEventHeight;
    c.#lastPlanKey = this.#lastPlanKey;
    c.#blocksCommitted = this.#blocksCommitted;
    c.#nextStepIndex = this.#nextStepIndex;
    return c;
  }
}

const mismatch = (h: number): Halt => ({
  kind: "app-hash-mismatch",
  message: `wrong Block.Header.AppHash at height ${h}`,
});

function haltKey(t: Trigger & { kind: "halt" }): string {
  return canonicalJson({ node: t.node, kind: t.haltKind, height: t.height });
}
