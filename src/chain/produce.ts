import type { ExecOutcome } from "../app/types.js";
import { assert, present } from "../core/assert.js";
import { recordGov, recordPlanOutcome, recordTxResults, tracePlanChange } from "./book.js";
import type { NodeExecution } from "./consensus.js";
import { decide, type EngineCtx, type NodeRecord, processOf, recordedNode } from "./engine-state.js";
import { appHashMismatch, haltNode } from "./lifecycle.js";
import { scheduleEarly } from "./operator.js";
import type { StopCondition } from "./records.js";
import { settleHeight } from "./settle.js";

/**
 * Block production: attempting a block, fast-forwarding idle stretches, and catching a node up.
 *
 * 1. Attempt block h: every running node at h-1 executes it (or shares an identical node's execution); a node that
 *    fails halts. The consensus rule (consensus.ts, then the consensus hook) decides: commit (committers commit,
 *    nodes with another app hash halt with a mismatch) or stall (every execution aborted).
 * 2. A committed block updates the chain (block store, clock, results), then the bookkeeping (book.ts), then the
 *    trace: a plain block (nothing happened) joins a `blocks` range, any other block is a `block` event.
 * 3. Fast-forward: a run of idle blocks is committed without executing it, exactly as executing it would (tested
 *    with the fast path off), bounded by every node's idle horizon, the stop condition, the settle rule, the next
 *    height step and the next queued event.
 * 4. Catch-up: a started node re-executes the committed blocks it missed, with their transactions and times,
 *    idle stretches in one commit; a different result halts it with a mismatch.
 */

/** Blocks one fast-forward commits at most; the run loop calls it again for more (same trace, same states). */
const FAST_FORWARD_BLOCKS_MAX = 1_000_000;

type Applied = ExecOutcome & { readonly ok: true };

/**
 * A retry of a stalled block that cannot commit and cannot change anything: the nodes able to execute it hold at most
 * 2/3 of the power, so no app hash can carry the block, and each of them already executed this height without
 * halting in the same process (its PreBlocker's halts depend on the height, the committed state and the binary, none
 * of which a failed attempt changes; its uncommitted work is dropped, so the attempt leaves nothing behind). Executing
 * it again would only cost time. Never with a consensus hook (a planted fault may commit on other terms), nor with
 * `noStallShortcut` (the equivalence test's reference).
 */
function hopelessRetry<S>(ctx: EngineCtx<S>, h: number): boolean {
  const { s } = ctx;
  if (!s.stalled || ctx.opts.noStallShortcut === true || ctx.opts.consensus !== undefined) return false;
  let power = 0;
  for (const n of s.nodes) {
    const p = n.process;
    if (n.status !== "running" || p === undefined || p.lastHeight() !== h - 1) continue;
    if (n.stalledOk?.process !== p || n.stalledOk.height !== h) return false;
    power += n.cfg.power;
  }
  return power * 3 <= s.totalPower * 2;
}

/**
 * No 2/3 agreed on block `h`: the nodes that executed it keep their work for the retry (an adopter's is its
 * executor's), the rest is aborted, and the chain stalls at `h`.
 */
function stallAttempt<S>(
  ctx: EngineCtx<S>,
  executed: readonly string[],
  adopters: ReadonlyMap<string, NodeRecord<S>>,
  h: number,
  timeMs: number,
): void {
  const { s } = ctx;
  for (const name of executed) {
    const n = recordedNode(s, name);
    n.stalledOk = { process: processOf(n), height: h };
    if (!adopters.has(name)) processOf(n).abort();
  }
  s.trace.emit({ kind: "stall", height: h, timeMs });
  s.stalled = true;
}

/**
 * Executes block h on every running node at h-1 and commits it by the consensus rule. Execution sharing: a node
 * whose process has the same execution key as a node that already executed this block shareably (same state,
 * binary, skip heights, flags and faults; see NodeProcess.executionKey) does not execute; it takes the same
 * outcome and, if it commits, adopts the executor's committed result, which is exactly what its own execute +
 * commit would have produced. Halts and blocks that wrote to a node's files are never shared: the next node
 * with the key executes itself. Everything observable (outcomes, halt order, trace) is unchanged.
 */
export function attemptBlock<S>(ctx: EngineCtx<S>, h: number, timeMs: number): void {
  const { s } = ctx;
  if (hopelessRetry(ctx, h)) {
    s.trace.emit({ kind: "stall", height: h, timeMs });
    s.stalled = true;
    return;
  }
  const txs = s.mempool.map((e) => e.tx);
  const execs: NodeExecution[] = [];
  const outcomes = new Map<string, Applied>();
  const executors = new Map<string, NodeRecord<S>>();
  const adopters = new Map<string, NodeRecord<S>>();
  for (const n of s.nodes) {
    const p = n.process;
    if (n.status !== "running" || p === undefined || p.lastHeight() !== h - 1) continue;
    const key = ctx.opts.noSharedExecution ? undefined : p.executionKey();
    const executor = key === undefined ? undefined : executors.get(key);
    const out =
      executor === undefined
        ? p.execute(h, timeMs, txs)
        : present(outcomes.get(executor.cfg.name), "an executor has an outcome");
    if (!out.ok) {
      haltNode(ctx, n, h, out.halt, timeMs, out.logs);
      execs.push({ node: n.cfg.name, power: n.cfg.power, ok: false });
      continue;
    }
    if (executor !== undefined) adopters.set(n.cfg.name, executor);
    else if (key !== undefined && p.lastExecutionShareable()) executors.set(key, n);
    outcomes.set(n.cfg.name, out);
    execs.push({ node: n.cfg.name, power: n.cfg.power, ok: true, appHash: out.appHash });
  }
  const decision = decide(ctx, execs);
  if (!decision.commit) {
    stallAttempt(ctx, [...outcomes.keys()], adopters, h, timeMs);
    return;
  }
  // Executors commit first; an adopter shares its executor's app hash, so it commits exactly when its executor does.
  for (const name of decision.committers) if (!adopters.has(name)) processOf(recordedNode(s, name)).commit();
  for (const name of decision.committers) {
    const executor = adopters.get(name);
    if (executor !== undefined) processOf(recordedNode(s, name)).adoptCommitted(processOf(executor));
  }
  for (const name of decision.mismatched) {
    const n = recordedNode(s, name);
    if (!adopters.has(name)) processOf(n).abort();
    haltNode(
      ctx,
      n,
      h,
      appHashMismatch(h),
      timeMs,
      present(outcomes.get(name), "a mismatched node has an outcome").logs,
    );
  }
  const first = present(decision.committers[0], "a committed block has a committer");
  const rep = present(outcomes.get(first), "a committer has an outcome");
  const prevHash = present(s.blocks.appHash(s.height), "the chain height has an app hash");
  const wasStalled = s.stalled;
  s.blocks.append(h, timeMs, txs, decision.appHash);
  s.height = h;
  s.lastTimeMs = timeMs;
  s.nowMs = Math.max(s.nowMs, timeMs);
  s.stalled = false;
  s.blocksCommitted++;
  if (txs.length > 0) s.blockResults.set(h, rep.txResults);
  if (rep.events.length > 0) s.blockEvents.set(h, rep.events);
  if (rep.logs.length > 0) s.blockLogs.set(h, rep.logs);
  recordTxResults(s, h, rep);
  recordGov(ctx, h, rep.gov);
  recordPlanOutcome(s, h, rep);
  const plain =
    txs.length === 0 &&
    rep.gov.length === 0 &&
    rep.applied === undefined &&
    rep.skipped === undefined &&
    decision.appHash === prevHash &&
    !wasStalled;
  if (plain) {
    s.trace.plainBlock(h, timeMs, decision.appHash);
    return;
  }
  s.trace.emit({
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
  const plan = tracePlanChange(ctx, h);
  if (plan) scheduleEarly(ctx, plan, h, timeMs);
}

/** Retries the stalled block at the current time (after something changed: a step, a sidecar). */
export function retryIfStalled<S>(ctx: EngineCtx<S>): void {
  if (ctx.s.stalled) attemptBlock(ctx, ctx.s.height + 1, ctx.s.nowMs);
}

/**
 * Commits a run of idle blocks without executing them: no transactions, no steps, no queued events at or
 * before the block time, every running node inside its idle horizon, and the running nodes agreeing with more
 * than 2/3 of the power. At most `blocksLeft` blocks. Exactly equivalent to executing those blocks (tested with the
 * fast path off), and a few hundred nanoseconds per block whatever the number of nodes. False when it committed none.
 */
export function fastForward<S>(ctx: EngineCtx<S>, stop: StopCondition, blocksLeft: number): boolean {
  const { s } = ctx;
  if (s.mempool.length > 0 || s.stalled) return false;
  const running = s.nodes.filter((n) => n.status === "running" && n.process !== undefined);
  if (running.length === 0) return false;
  let heightEnd = s.height + 1 + Math.min(blocksLeft, FAST_FORWARD_BLOCKS_MAX);
  let timeEndMs = Number.POSITIVE_INFINITY;
  const execs: NodeExecution[] = [];
  for (const n of running) {
    const p = processOf(n);
    if (p.lastHeight() !== s.height) return false;
    const hz = p.idleHorizon();
    if (hz === undefined) return false;
    heightEnd = Math.min(heightEnd, hz.heightEnd);
    timeEndMs = Math.min(timeEndMs, hz.timeEndMs);
    execs.push({ node: n.cfg.name, power: n.cfg.power, ok: true, appHash: p.lastAppHash() });
  }
  const decision = decide(ctx, execs);
  if (!decision.commit || decision.mismatched.length > 0) return false;
  if (stop.untilHeight !== undefined) heightEnd = Math.min(heightEnd, stop.untilHeight + 1);
  const settleAt = stop.settle ? settleHeight(ctx) : undefined;
  if (settleAt !== undefined) heightEnd = Math.min(heightEnd, settleAt + 1);
  if (stop.untilTimeMs !== undefined) timeEndMs = Math.min(timeEndMs, stop.untilTimeMs + 1);
  const queueAtMs = s.schedule.queue[0]?.timeMs ?? Number.POSITIVE_INFINITY;
  const from = s.height;
  // Up to the first height with a step, and in one call rather than one per block (the block store writes the
  // times the block-time source sums, bounded by the horizon, the stop and the next queued event).
  for (const stepHeight of s.schedule.heightSteps.keys())
    if (stepHeight > from && stepHeight < heightEnd) heightEnd = stepHeight;
  const count = s.blocks.appendIdleRun(
    heightEnd,
    s.lastTimeMs,
    Math.min(timeEndMs, queueAtMs),
    s.blockTimes,
    decision.appHash,
  );
  if (count === 0) return false;
  const last = present(s.blocks.timeMs(from + count), "the run's last block is stored");
  s.trace.plainBlocks(
    from + 1,
    from + count,
    present(s.blocks.timeMs(from + 1), "the run's first block is stored"),
    last,
    decision.appHash,
  );
  s.lastTimeMs = last;
  s.nowMs = last;
  for (const n of running) processOf(n).commitIdle(count);
  s.height = from + count;
  s.blocksCommitted += count;
  return true;
}

/** Re-executes committed blocks the node missed, with their transactions and times. */
export function catchUp<S>(ctx: EngineCtx<S>, n: NodeRecord<S>): void {
  const { s } = ctx;
  const p = processOf(n);
  // Each pass commits at least one block or halts the node: at most one pass per missing block.
  for (let passes = 0; n.status === "running" && p.lastHeight() < s.height; passes++) {
    assert(passes < s.height, `catch-up of ${n.cfg.name} advances`);
    const h = p.lastHeight() + 1;
    const hz = ctx.opts.noFastPath ? undefined : p.idleHorizon();
    if (hz !== undefined) {
      let end = h;
      while (
        end <= s.height &&
        end < hz.heightEnd &&
        s.blocks.txs(end).length === 0 &&
        present(s.blocks.timeMs(end), "a block up to the chain height is stored") < hz.timeEndMs
      )
        end++;
      if (end > h) {
        p.commitIdle(end - h);
        if (p.lastAppHash() !== s.blocks.appHash(end - 1)) {
          haltNode(ctx, n, end - 1, appHashMismatch(end - 1), s.nowMs, []);
          return;
        }
        continue;
      }
    }
    const b = present(s.blocks.get(h), "a block up to the chain height is stored");
    const out = p.execute(h, b.timeMs, b.txs);
    if (!out.ok) {
      haltNode(ctx, n, h, out.halt, s.nowMs, out.logs);
      return;
    }
    if (out.appHash !== b.appHash) {
      p.abort();
      haltNode(ctx, n, h, appHashMismatch(h), s.nowMs, out.logs);
      return;
    }
    p.commit();
  }
}
