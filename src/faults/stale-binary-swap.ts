import type { FaultDefinition } from "./hooks.js";

/**
 * An operator's swap restarts the node on the binary it already ran: the launcher's symlink never moved (cosmovisor's
 * `current` link left pointing at the old binary). The node restarts cleanly, so the chain's own account of it (the
 * trace's start event, the node's status) is self-consistent; only the operator's intent says it is wrong.
 */
export const staleBinarySwap = {
  name: "stale-binary-swap",
  breaks: "a swap restarts the node on the binary it already ran instead of the one the operator installed",
  hooks: { launch: (_node, _requested, running) => running },
  caughtBy: {
    scenarios: ["handler-registered-applies-upgrade", "partial-upgrade-stalls-then-resumes"],
  },
  replayFails: true,
} as const satisfies FaultDefinition;
