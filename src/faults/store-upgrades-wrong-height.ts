import type { FaultDefinition } from "./hooks.js";

/** The store loader compares the upgrade height with last+2 instead of last+1, so due store upgrades never load. */
export const storeUpgradesWrongHeight = {
  name: "store-upgrades-wrong-height",
  breaks: "the store loader applies store upgrades only when the upgrade height is last+2",
  hooks: {
    storeLoader: (inner) => (height, upgrades) => (last) => inner(height, upgrades)(BigInt(last) + 1n),
  },
  caughtBy: { scenarios: ["store-upgrades-added-renamed-deleted"] },
  replayFails: true,
} as const satisfies FaultDefinition;
