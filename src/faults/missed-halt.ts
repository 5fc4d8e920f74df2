import type { FaultDefinition } from "./hooks.js";

/** A binary without the handler of a due plan carries on (upgrade-info.json written, the plan left stored). */
export const missedHalt = {
  name: "missed-halt",
  breaks: "a binary without the handler does not halt at a due plan; it continues with the plan stored",
  hooks: {
    preBlock: (r) => (!r.ok && r.halt.kind === "upgrade-needed" ? { ok: true, consensusParamsChanged: false } : r),
  },
  // The scenario library's halting scenarios settle only once the chain halts; under this fault they run to the hard
  // cap of blocks (minutes), so none is declared: graceful-halt catches it within a few runs.
  caughtBy: { scenarios: [] },
  replayFails: true,
} as const satisfies FaultDefinition;
