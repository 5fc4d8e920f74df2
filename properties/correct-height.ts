import { HOLDS, type Property, violated } from "../src/harness/property.js";

/**
 * The PreBlocker applies a plan in exactly one block: the first whose height reaches the plan's height, checked
 * from the block after the one that scheduled it. The done marker records the block that ran the handler.
 */
export const correctHeight: Property = {
  name: "correct-height",
  statement: "always: a handler runs only in the block at the plan's due height, and the done marker holds that height",
  kind: "always",
  catches: ["off-by-one-due-height"],
  check(s) {
    const sim = s.sim;
    for (const { block: b, plan: p, dueAt } of s.blocksWithPlan()) {
      if (b.applied === null) continue;
      if (p === null || p.name !== b.applied)
        return violated(`block ${b.height} ran the handler of "${b.applied}" but the plan was ${JSON.stringify(p)}`);
      if (b.height !== dueAt) return violated(`handler of "${p.name}" ran at ${b.height}, due at ${dueAt}`);
      const done = sim.committed()?.applied.get(b.applied);
      if (done !== undefined && done !== b.height && (sim.handlerRuns.get(b.applied) ?? 0) === 1)
        return violated(`done marker of "${b.applied}" holds ${done}, handler ran at ${b.height}`);
    }
    return HOLDS;
  },
};
