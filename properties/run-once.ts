import { HOLDS, type Property, violated } from "../src/harness/property.js";

/** ApplyUpgrade runs a plan's handler once: the done marker it writes makes the name complete for good. */
export const runOnce: Property = {
  name: "run-once",
  statement: "always: a handler's effects are committed at most once per plan name",
  kind: "always",
  catches: ["skip-done-marker"],
  check(s) {
    for (const [name, n] of s.sim.handlerRuns) if (n > 1) return violated(`handler of "${name}" committed ${n} times`);
    return HOLDS;
  },
};
