import type { FaultDefinition } from "./hooks.js";

/** ApplyUpgrade forgets the done marker, so the name is never complete and a reschedule runs it again. */
export const skipDoneMarker = {
  name: "skip-done-marker",
  breaks: "ApplyUpgrade does not write the done marker",
  hooks: {
    keeper: (Base) =>
      class extends Base {
        override setDone(): void {}
      },
  },
  caughtBy: { scenarios: ["binary-too-early-halts-until-downgraded"] },
  replayFails: true,
} as const satisfies FaultDefinition;
