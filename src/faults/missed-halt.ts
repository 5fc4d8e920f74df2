import type { FaultDefinition } from "./hooks.js";

/** A binary without the handler of a due plan carries on (upgrade-info.json written, the plan left stored). */
export const missedHalt = {
  name: "missed-halt",
  breaks: "a binary without the handler does not halt at a due plan; it continues with the plan stored",
  hooks: {
    preBlock: (r) => (!r.ok && r.halt.kind === "upgrade-needed" ? { ok: true, consensusParamsChanged: false } : r),
  },
  caughtBy: { properties: ["graceful-halt"], scenarios: [] },
  replayFails: true,
} as const satisfies FaultDefinition;
