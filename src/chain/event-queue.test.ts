import { describe, expect, it } from "vitest";
import type { Step } from "./actions.js";
import { enqueue, type QueuedEvent } from "./event-queue.js";

const step = (timeMs: number, index: number, seq: number): QueuedEvent => ({
  timeMs,
  kind: "step",
  step: { index, trigger: { kind: "time", timeMs }, action: { kind: "stop", node: "val1" } } as Step,
  seq,
});
const sidecar = (timeMs: number, seq: number): QueuedEvent => ({
  timeMs,
  kind: "sidecar",
  node: "val1",
  haltSeq: 1,
  seq,
});

describe("the event queue's canonical order", () => {
  it("orders by time, then steps before sidecars, then step index — whatever the insertion order", () => {
    const events = [sidecar(10, 0), step(10, 5, 1), step(5, 9, 2), step(10, 2, 3), sidecar(10, 4), sidecar(1, 5)];
    const orders = [
      events,
      [...events].reverse(),
      [events[3]!, events[0]!, events[5]!, events[1]!, events[4]!, events[2]!],
    ];
    const results = orders.map((list) => {
      const q: QueuedEvent[] = [];
      for (const e of list) enqueue(q, e);
      return q.map((e) => (e.kind === "step" ? `s${e.step.index}@${e.timeMs}` : `c${e.seq}@${e.timeMs}`));
    });
    expect(results[0]).toEqual(["c5@1", "s9@5", "s2@10", "s5@10", "c0@10", "c4@10"]);
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });
});
