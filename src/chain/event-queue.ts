import type { Step } from "./actions.js";
import type { OperatorPhase } from "./operator-plan.js";

/** Something scheduled on the simulated clock: a step, or a sidecar reacting to a halt. */
export type QueuedPayload =
  | { readonly timeMs: number; readonly kind: "step"; readonly step: Step }
  | { readonly timeMs: number; readonly kind: "sidecar"; readonly node: string; readonly haltSeq: number }
  /** A step of a node's operator (operator.ts); `binary` on the restart step. */
  | {
      readonly timeMs: number;
      readonly kind: "operator";
      readonly node: string;
      readonly haltSeq: number;
      readonly phase: OperatorPhase;
      readonly detail: string;
      readonly binary?: string | undefined;
      /** A step taken ahead of the upgrade (operator.ts scheduleEarly): it applies while the node is not halted. */
      readonly early?: { readonly planName: string; readonly planHeight: number } | undefined;
      /** On the restart step: cosmovisor's download failed earlier in this recovery. */
      readonly afterDownloadFailure?: boolean | undefined;
    };
export type QueuedEvent = QueuedPayload & { readonly seq: number };

/**
 * True when `a` is ordered after `b`. The order is canonical, not insertion order: (time, steps before sidecars,
 * step index or sidecar sequence). So a step scheduled while the simulation runs (the property harness) lands
 * exactly where the same step lands when a scenario file schedules all its steps up front, which is what makes
 * counterexamples replay.
 */
export function queueAfter(a: QueuedEvent, b: QueuedEvent): boolean {
  if (a.timeMs !== b.timeMs) return a.timeMs > b.timeMs;
  const rank = (e: QueuedEvent) => (e.kind === "step" ? 0 : 1);
  if (rank(a) !== rank(b)) return rank(a) > rank(b);
  const ord = (e: QueuedEvent) => (e.kind === "step" ? e.step.index : e.seq);
  return ord(a) > ord(b);
}

/** Inserts in canonical order (the queue is short; insertion from the end). */
export function enqueue(queue: QueuedEvent[], ev: QueuedEvent): void {
  let i = queue.length;
  for (let prev = queue[i - 1]; prev !== undefined && queueAfter(prev, ev); prev = queue[i - 1]) i--;
  queue.splice(i, 0, ev);
}
