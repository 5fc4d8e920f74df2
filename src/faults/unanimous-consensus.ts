import type { FaultDefinition } from "./hooks.js";

/**
 * A block commits only with all of the voting power behind one app hash. Exact over the two-thirds decision: when
 * more than 2/3 agree on a hash, no other hash can hold all of the power.
 */
export const unanimousConsensus = {
  name: "unanimous-consensus",
  breaks: "a block commits only with all of the voting power, not more than 2/3",
  hooks: {
    consensus: (decision, executions, totalPower) => {
      if (!decision.commit) return decision;
      const power = executions.reduce((n, e) => (e.ok && e.appHash === decision.appHash ? n + e.power : n), 0);
      return power >= totalPower ? decision : { commit: false };
    },
  },
  caughtBy: { scenarios: ["binary-too-early-despite-skip-height"] },
  replayFails: true,
} as const satisfies FaultDefinition;
