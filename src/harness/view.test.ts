import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BlockWithPlan, dueHeight } from "./plan-index.js";
import { runArbitrary, runSession } from "./run-property.js";
import type { SessionView } from "./session-view.js";

/** The annotation as first written: a walk over every block, plans compared by their JSON. */
function reference(s: SessionView): BlockWithPlan[] {
  const out: BlockWithPlan[] = [];
  let scheduledAt = 0;
  let prevKey = "null";
  for (const b of s.blocks) {
    const key = JSON.stringify(b.planBefore);
    if (key !== prevKey) {
      prevKey = key;
      scheduledAt = b.height - 1;
    }
    const p = b.planBefore;
    out.push({ block: b, plan: p, dueAt: p === null ? null : dueHeight(p, scheduledAt) });
  }
  return out;
}

describe("blocksWithPlan", () => {
  it("extended after every command equals the whole run annotated at once", () => {
    fc.assert(
      fc.property(runArbitrary(20), ([, cmds]) => {
        const seen: number[] = [];
        const probe = {
          name: "probe",
          statement: "always: probe",
          kind: "always" as const,
          catches: [],
          check(s: SessionView) {
            expect(s.blocksWithPlan()).toEqual(reference(s));
            seen.push(s.blocksWithPlan().length);
            return { holds: true as const };
          },
        };
        const { session } = runSession({ seed: 5 }, cmds, [probe]);
        expect(session.blocksWithPlan()).toEqual(reference(session));
        expect(seen.every((n, i) => i === 0 || n >= seen[i - 1]!)).toBe(true);
      }),
      { numRuns: 25 },
    );
  });
});
