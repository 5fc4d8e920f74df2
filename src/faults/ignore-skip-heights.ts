import type { FaultDefinition } from "./hooks.js";

/**
 * The keeper forgets the node's `--unsafe-skip-upgrades`: no height is a skip height, so at a skip height the
 * PreBlocker takes the due plan as if none were configured (a node with the plan's handler applies it, one without
 * halts with UPGRADE NEEDED) instead of logging `UPGRADE "<name>" SKIPPED` and clearing the plan.
 */
export const ignoreSkipHeights = {
  name: "ignore-skip-heights",
  breaks: "the keeper reports no skip height, so a due plan is applied (or halts the node) at a skip height",
  hooks: {
    keeper: (Base) =>
      class extends Base {
        override isSkipHeight(): boolean {
          return false;
        }
      },
  },
  caughtBy: { scenarios: ["skip-upgrade-all-validators"] },
  replayFails: true,
} as const satisfies FaultDefinition;
