import { assert } from "../core/assert.js";
import type { Step, Trigger } from "./actions.js";
import { canonicalJson } from "./canonical-json.js";
import type { EngineState, HaltWatcher, Schedule } from "./engine-state.js";
import { enqueue, type QueuedEvent, type QueuedPayload } from "./event-queue.js";
import type { StopCondition } from "./records.js";

/**
 * Scheduling: when each step runs, and what the run loop does next.
 *
 * 1. A height step waits in `heightSteps` and runs just before block `height` is attempted.
 * 2. A time step, and every sidecar, waits in the event queue, in canonical order (event-queue.ts): a step added
 *    while the simulation runs lands exactly where it lands when a scenario file schedules it up front. A time in
 *    the past means "now".
 * 3. A halt step watches for a matching halt, past (recorded, unclaimed for its key) or future; when one matches it
 *    is queued at the halt's time plus its delay. A halt is claimed at most once per trigger key.
 * 4. `nextMove` is the run loop's one decision: stop, handle the next queued event, or attempt the next block.
 *    Queued events at or before the next block's time come first.
 * A `now` step is not scheduled: the coordinator runs it at once.
 */

/** Adds a height, time or halt step (a `now` step is the coordinator's). */
export function addStep<S>(s: EngineState<S>, step: Step): void {
  const t = step.trigger;
  assert(t.kind !== "now", `step ${step.index}: a "now" step runs at once, it is not scheduled`);
  switch (t.kind) {
    case "height": {
      const list = s.schedule.heightSteps.get(t.height) ?? [];
      list.push(step);
      s.schedule.heightSteps.set(t.height, list);
      return;
    }
    case "time":
      pushEvent(s.schedule, { timeMs: Math.max(t.timeMs, s.nowMs), kind: "step", step });
      return;
    case "halt": {
      const w: HaltWatcher = { step, key: haltKey(t), claimed: false };
      s.schedule.haltWatchers.push(w);
      // A halt that already happened and is unclaimed for this key counts: the first one.
      for (let i = 0; i < s.halts.length; i++) if (tryClaim(s, w, i)) return;
      return;
    }
  }
}

/**
 * A step that has not run yet, and what it waits for: its trigger (a height, a time, or a matching halt), or, for a
 * halt step whose halt came, the end of its delay.
 */
export interface WaitingStep {
  readonly step: Step;
  readonly waitsFor: "trigger" | "delay";
  /** For a step waiting out its delay: when it is due. */
  readonly dueMs?: number;
}

/** Every step that has not run yet, by step index. Reads only. */
export function waitingSteps(schedule: Schedule): WaitingStep[] {
  const out: WaitingStep[] = [];
  for (const list of schedule.heightSteps.values()) for (const step of list) out.push({ step, waitsFor: "trigger" });
  for (const e of schedule.queue)
    if (e.kind === "step")
      out.push(
        e.step.trigger.kind === "halt"
          ? { step: e.step, waitsFor: "delay", dueMs: e.timeMs }
          : { step: e.step, waitsFor: "trigger" },
      );
  for (const w of schedule.haltWatchers) if (!w.claimed) out.push({ step: w.step, waitsFor: "trigger" });
  return out.sort((a, b) => a.step.index - b.step.index);
}

/** Queues an event in canonical order. */
export function pushEvent(schedule: Schedule, e: QueuedPayload): void {
  enqueue(schedule.queue, { ...e, seq: schedule.seq++ });
}

/** Offers the recorded halt `haltIndex` to every watcher; each matching one that has not fired is queued. */
export function offerHalt<S>(s: EngineState<S>, haltIndex: number): void {
  for (const w of s.schedule.haltWatchers) tryClaim(s, w, haltIndex);
}

function tryClaim<S>(s: EngineState<S>, w: HaltWatcher, haltIndex: number): boolean {
  const t = w.step.trigger;
  const h = s.halts[haltIndex];
  assert(h !== undefined, `halt ${haltIndex} is recorded`);
  if (w.claimed || t.kind !== "halt") return false;
  if (t.node !== null && t.node !== h.node) return false;
  if (t.haltKind !== undefined && t.haltKind !== h.kind) return false;
  if (t.height !== undefined && t.height !== h.height) return false;
  const claim = `${haltIndex} ${w.key}`;
  if (s.schedule.haltClaims.has(claim)) return false;
  s.schedule.haltClaims.add(claim);
  w.claimed = true;
  pushEvent(s.schedule, { timeMs: h.timeMs + t.delayMs, kind: "step", step: w.step });
  return true;
}

function haltKey(t: Trigger & { kind: "halt" }): string {
  return canonicalJson({ node: t.node, kind: t.haltKind, height: t.height });
}

/** What `nextMove` reads of the state. */
export type RunPosition = Pick<EngineState<unknown>, "height" | "stalled" | "lastTimeMs" | "blockTimes"> & {
  readonly schedule: Pick<Schedule, "queue">;
};

/** What the run loop does next. `clockMs`: advance the clock to it (never back) before stopping. */
export type Move =
  | { readonly kind: "stop"; readonly clockMs: number | undefined }
  | { readonly kind: "event"; readonly event: QueuedEvent }
  | { readonly kind: "block"; readonly height: number; readonly timeMs: number };

/**
 * The next move of a run under `stop`, with `blocksLeft` blocks still allowed in this call and `settled` the settle
 * rule's verdict (settle.ts; false unless the run stops by settling). Pure but for drawing block intervals, which
 * depend only on the height.
 */
export function nextMove(s: RunPosition, stop: StopCondition, blocksLeft: number, settled: boolean): Move {
  if (stop.untilHeight !== undefined && s.height >= stop.untilHeight) return { kind: "stop", clockMs: undefined };
  if (blocksLeft <= 0 || settled) return { kind: "stop", clockMs: undefined };
  const height = s.height + 1;
  const blockAtMs = s.stalled ? Number.POSITIVE_INFINITY : s.lastTimeMs + s.blockTimes.interval(height);
  const next = s.schedule.queue[0];
  if (next !== undefined && next.timeMs <= blockAtMs) {
    if (stop.untilTimeMs !== undefined && next.timeMs > stop.untilTimeMs)
      return { kind: "stop", clockMs: stop.untilTimeMs };
    return { kind: "event", event: next };
  }
  // Stalled with nothing queued, or the next block lies past the time limit.
  if (blockAtMs === Number.POSITIVE_INFINITY) return { kind: "stop", clockMs: stop.untilTimeMs };
  if (stop.untilTimeMs !== undefined && blockAtMs > stop.untilTimeMs)
    return { kind: "stop", clockMs: stop.untilTimeMs };
  return { kind: "block", height, timeMs: blockAtMs };
}
