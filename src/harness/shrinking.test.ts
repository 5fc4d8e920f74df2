import { describe, expect, it } from "vitest";
import { neverStopped } from "../../test/kit/never-stopped.js";
import { describe as describeCommand } from "./commands.js";
import { runProperty } from "./run-property.js";

describe("shrinking a failing run", () => {
  // fast-check keeps, of a failing sequence, the commands it saw run, and reads that from the sequence's earlier
  // execution when it shrinks the sidecars: a run that stopped at its failure would hide the later stop from every
  // shrink of the sequence (sessionTarget).
  it("reaches a command only a simpler world's failure needs: a single command, a stop without sidecars", () => {
    const stops: number[] = [];
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const cx = runProperty({ property: neverStopped, seed, numRuns: 100 }).counterexample;
      expect(cx, `seed ${seed}`).toBeDefined();
      if (cx === undefined) continue;
      // A sequence without a stop fails only through its proposal, and needs one sidecar.
      const commands = cx.commands.map(describeCommand);
      if (cx.violation === "a validator was stopped") {
        stops.push(seed);
        expect(cx.world.sidecars, `seed ${seed}`).toEqual({});
        // A stop alone, or the compound command that stops val3 and val4 over a voting end: it cannot shrink into a
        // lone stop, and runs only once a proposal was submitted (its precondition), so one command comes first.
        expect(commands.length === 1 ? commands : commands.slice(1), `seed ${seed}`).toEqual(
          commands.length === 1 ? ["stop(val1)"] : [describeCommand({ kind: "outage-over-voting-end" })],
        );
        expect(commands.length, `seed ${seed}`).toBeLessThanOrEqual(2);
      } else {
        expect(Object.keys(cx.world.sidecars ?? {}), `seed ${seed}`).toHaveLength(1);
        expect(commands, `seed ${seed}`).toHaveLength(1);
      }
    }
    expect(stops.length).toBeGreaterThan(4);
  });
});
