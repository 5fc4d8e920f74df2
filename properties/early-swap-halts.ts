import { HOLDS, type Property, violated } from "../src/harness/property.js";
import { handlerBinaries } from "../src/harness/view.js";

/** The PreBlocker's halt text for a binary that has the handler of a plan not yet due (reference x/upgrade/abci.go). */
const earlyMessage = (name: string) =>
  `BINARY UPDATED BEFORE TRIGGER! UPGRADE "${name}" - in binary but not executed on chain. Downgrade your binary`;

/**
 * A binary that already has the handler of a scheduled plan refuses to run before the plan's height: it halts
 * with the reference message, so no block before the due height is committed by such a binary.
 */
export const earlySwapHalts: Property = {
  name: "early-swap-halts",
  statement: "always: a binary with the handler halts before the height with the exact message",
  kind: "always",
  catches: ["no-early-halt"],
  check(s) {
    for (const h of s.sim.halts) {
      if (h.kind !== "binary-too-early") continue;
      const name = /UPGRADE "(.*)" - in binary/s.exec(h.message)?.[1] ?? "";
      if (h.message !== earlyMessage(name))
        return violated(`halt message ${JSON.stringify(h.message)} is not the reference text`);
    }
    // A node that committed a block while a plan was pending and not yet due must not run a binary with its handler.
    for (const { block: b, plan: p, dueAt } of s.blocksWithPlan()) {
      if (p === null || dueAt === null || b.height >= dueAt) continue;
      const handlers = handlerBinaries(s, p.name);
      for (const [node, bin] of b.committerBinaries)
        if (handlers.has(bin))
          return violated(
            `${node} ran ${bin} (handler for "${p.name}") and committed block ${b.height} before the plan height ${p.height}`,
          );
    }
    return HOLDS;
  },
};
