import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { advanceTrace, TRACE_START, type TraceEvent, type TracePosition, traceEventTimeMs } from "./trace-events.js";

/**
 * advanceTrace builds each position as an object literal; the reference below is the spread form it replaced. The
 * two give the same positions (values and key order) over random event sequences of every kind that moves one.
 */
function advanceTraceSpread(p: TracePosition, e: TraceEvent): TracePosition {
  const t = traceEventTimeMs(e);
  const timeMs = t === undefined ? p.timeMs : Math.max(p.timeMs, t);
  switch (e.kind) {
    case "genesis":
      return {
        ...p,
        timeMs,
        genesisTimeMs: e.timeMs,
        ...(e.initialHeight === undefined ? {} : { height: e.initialHeight - 1 }),
      };
    case "start":
    case "stop":
    case "halt":
    case "plan":
      return timeMs === p.timeMs ? p : { ...p, timeMs };
    case "sidecar":
    case "operator":
    case "step":
      return { ...p, timeMs, live: true };
    case "block":
      return { ...p, height: e.height, timeMs, live: true };
    case "blocks":
      return { ...p, height: Math.max(p.height, e.to), timeMs, live: true };
    case "stall":
      return { ...p, timeMs, live: true, stalls: p.stalls + 1 };
    default:
      throw new Error("not in this test");
  }
}

const ms = fc.integer({ min: 0, max: 10_000_000 });
const h = fc.integer({ min: 1, max: 10_000 });
/** Only the fields advanceTrace and traceEventTimeMs read; the rest of each event does not move a position. */
const event = fc.oneof(
  fc.record({ kind: fc.constant("genesis"), timeMs: ms, initialHeight: fc.option(h, { nil: undefined }) }),
  fc.record({ kind: fc.constantFrom("start", "stop", "halt", "step", "operator"), timeMs: ms }),
  fc.record({ kind: fc.constant("plan") }),
  fc.record({ kind: fc.constant("sidecar"), action: fc.constantFrom("swap", "watch"), timeMs: ms }),
  fc.record({ kind: fc.constantFrom("block", "stall"), height: h, timeMs: ms }),
  fc.record({ kind: fc.constant("blocks"), to: h, timeToMs: ms }),
) as unknown as fc.Arbitrary<TraceEvent>;

describe("advanceTrace against its spread form", () => {
  it("gives the same position, with the same keys in the same order, after every event", () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        let a = TRACE_START;
        let b = TRACE_START;
        for (const e of events) {
          a = advanceTrace(a, e);
          b = advanceTraceSpread(b, e);
          expect(a).toStrictEqual(b);
          expect(Object.keys(a)).toEqual(Object.keys(b));
        }
      }),
      { numRuns: 500 },
    );
  });
});
