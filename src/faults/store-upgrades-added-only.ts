import type { FaultDefinition } from "./hooks.js";

/**
 * The store loader passes on only the added stores of a plan's store upgrades: renames and deletes are dropped, so
 * an upgrade that only renames or deletes a store loads no upgrades at all. A counterexample in which the dropped
 * upgrade renames a store replays to a failure: the renamed-to store is missing, so the load fails and the node
 * halts, which the oracle's expectations do not foresee. One in which it only deletes a store replays without
 * failing: the oracle does not model stores, and the deleted store staying committed changes nothing else it
 * predicts. The planted-bug run (seed 1) finds a delete-only world first since the compound command
 * `coordinated-upgrade` leans towards plan v2 (its upgrade of the store worlds), so `replayFails` is false: the
 * counterexample replays without failing, and the property itself (store-upgrades-once) is what catches it.
 */
export const storeUpgradesAddedOnly = {
  name: "store-upgrades-added-only",
  breaks: "the store loader applies only the added stores of store upgrades, never renames or deletes",
  hooks: {
    storeLoader: (inner) => (height, upgrades) =>
      inner(height, upgrades === undefined ? undefined : { added: upgrades.added, renamed: [], deleted: [] }),
  },
  caughtBy: {
    scenarios: ["store-upgrade-rename-only", "store-upgrade-delete-only", "store-upgrades-added-renamed-deleted"],
  },
  replayFails: false,
} as const satisfies FaultDefinition;
