import { describe, expect, it } from "vitest";
import { durationMs } from "../core/brand.js";
import { BlockTimeSource } from "./block-time.js";
import type { QueuedEvent } from "./event-queue.js";
import { nextMove, type RunPosition } from "./schedule.js";

const INTERVAL_MS = 6000;
const sidecar = (timeMs: number): QueuedEvent => ({ timeMs, kind: "sidecar", node: "val1", haltSeq: 1, seq: 0 });
const at = (o: { queue?: QueuedEvent[]; stalled?: boolean; height?: number }): RunPosition => ({
  height: o.height ?? 10,
  stalled: o.stalled ?? false,
  lastTimeMs: 60_000,
  blockTimes: new BlockTimeSource(1, { kind: "fixed", intervalMs: durationMs(INTERVAL_MS) }),
  schedule: { queue: o.queue ?? [] },
});
const NEXT_BLOCK_MS = 60_000 + INTERVAL_MS;

describe("the run loop's next move", () => {
  it("attempts the next block at its time when nothing is queued before it", () => {
    expect(nextMove(at({}), {}, 5, false)).toEqual({ kind: "block", height: 11, timeMs: NEXT_BLOCK_MS });
    expect(nextMove(at({ queue: [sidecar(NEXT_BLOCK_MS + 1)] }), {}, 5, false).kind).toBe("block");
  });

  it("handles an event due at or before the next block first", () => {
    const e = sidecar(NEXT_BLOCK_MS);
    expect(nextMove(at({ queue: [e] }), {}, 5, false)).toEqual({ kind: "event", event: e });
  });

  it("stops at the height, the block budget, or once settled, without moving the clock", () => {
    const stop = { kind: "stop", clockMs: undefined };
    expect(nextMove(at({ height: 10 }), { untilHeight: 10 }, 5, false)).toEqual(stop);
    expect(nextMove(at({}), {}, 0, false)).toEqual(stop);
    expect(nextMove(at({}), { settle: true }, 5, true)).toEqual(stop);
  });

  it("stops at a time limit before the next block or event, moving the clock to the limit", () => {
    const limit = NEXT_BLOCK_MS - 1;
    expect(nextMove(at({}), { untilTimeMs: limit }, 5, false)).toEqual({ kind: "stop", clockMs: limit });
    expect(nextMove(at({ queue: [sidecar(NEXT_BLOCK_MS)] }), { untilTimeMs: limit }, 5, false)).toEqual({
      kind: "stop",
      clockMs: limit,
    });
  });

  it("stalled: only queued events move the chain; with none it stops", () => {
    const e = sidecar(10 * NEXT_BLOCK_MS);
    expect(nextMove(at({ stalled: true, queue: [e] }), {}, 5, false)).toEqual({ kind: "event", event: e });
    expect(nextMove(at({ stalled: true }), { untilTimeMs: 1e13 }, 5, false)).toEqual({ kind: "stop", clockMs: 1e13 });
  });
});
