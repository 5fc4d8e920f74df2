import { err, ok, type PlainError, plain, type Result } from "../core/errors.js";
import type { StoreUpgrades } from "../store/types.js";

/** What the app's store loader should do: load the latest version, applying these store upgrades or none. */
export type StoreLoadDecision = { readonly apply: StoreUpgrades } | { readonly apply: undefined };

/**
 * UpgradeStoreLoader as a pure decision (reference x/upgrade/types/storeloader.go). Store upgrades apply only when
 * `upgradeHeight == lastCommittedVersion + 1` AND at least one of `added`, `renamed`, `deleted` is non-empty;
 * otherwise the default loader runs. `storeUpgrades` is only looked at when the heights match, so a missing value
 * fails only then (the reference dereferences a nil pointer).
 */
export function upgradeStoreLoader(
  upgradeHeight: bigint | number,
  storeUpgrades: StoreUpgrades | undefined,
): (lastCommittedVersion: bigint | number) => Result<StoreLoadDecision, PlainError> {
  const target = BigInt(upgradeHeight);
  return (lastCommittedVersion) => {
    if (target !== BigInt(lastCommittedVersion) + 1n) return ok({ apply: undefined });
    if (storeUpgrades === undefined) {
      return err(plain("runtime error: invalid memory address or nil pointer dereference"));
    }
    const { added, renamed, deleted } = storeUpgrades;
    if (renamed.length > 0 || deleted.length > 0 || added.length > 0) return ok({ apply: storeUpgrades });
    return ok({ apply: undefined });
  };
}
