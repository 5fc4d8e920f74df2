import type { FaultDefinition } from "./hooks.js";

/** A binary that has the handler of a plan not yet due runs on instead of halting. */
export const noEarlyHalt = {
  name: "no-early-halt",
  breaks: "a binary with the handler does not halt before the plan height",
  hooks: {
    preBlock: (r) => (!r.ok && r.halt.kind === "binary-too-early" ? { ok: true, consensusParamsChanged: false } : r),
  },
  caughtBy: { scenarios: ["binary-too-early-despite-skip-height"] },
  replayFails: true,
} as const satisfies FaultDefinition;
