import type { StoreUpgrades } from "../store/types.js";

/** What an upgrade handler of a binary does for one plan name (docs/scenario-format.md §2). */
export interface UpgradeDef {
  /** `migrate` runs the module manager; `noop` returns the version map unchanged; `fail` returns an error. */
  readonly handler: "migrate" | "noop" | "fail";
  /** Error text of a `fail` handler; default `upgrade handler failed`. */
  readonly failMessage?: string;
  readonly storeUpgrades?: StoreUpgrades;
}

/**
 * A binary: the modules it runs with their consensus versions (each module has a store of the same name), the
 * migrations it registers (module → from-versions v with a migration v → v+1), and its upgrade handlers.
 */
export interface BinaryDef {
  readonly name: string;
  readonly modules: ReadonlyMap<string, number>;
  readonly migrations: ReadonlyMap<string, readonly number[]>;
  readonly upgrades: ReadonlyMap<string, UpgradeDef>;
}

export const DEFAULT_FAIL_MESSAGE = "upgrade handler failed";
