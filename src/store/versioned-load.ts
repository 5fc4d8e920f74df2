import { err, ok, plain, type Result } from "../core/errors.js";
import { sortNames } from "./app-hash.js";
import type { StoreError, StoreUpgrades } from "./types.js";
import type { CommittedStores } from "./versioned-committed.js";

/**
 * The checks of a multistore load with store upgrades (Cosmos SDK v0.50 store/rootmulti `loadVersion`), and what
 * the load makes live and moves; `VersionedMultiStore.loadLatestVersionAndUpgrade` applies the plan. Over the
 * mounted stores in name byte order:
 *
 * 1. an added or rename-target store must not exist in the last commit (`failed to load store: initial version set
 *    to V+1, but found earlier version F`, F the store's first version as the IAVL tree reports it);
 * 2. any other mounted store must exist in it, unless nothing is committed yet (`version of store S mismatch root
 *    store's version; ...`);
 * 3. a deleted store does not become live; a renamed store is live and receives the old store's data (a move).
 *
 * Names that are not mounted are ignored, as in the reference.
 */
export interface Move {
  readonly from: string;
  readonly to: string;
}

export interface LoadPlan {
  /** The stores live after the load. */
  readonly live: readonly string[];
  /** Renames: the old store's data goes to the new one, and the old name leaves. */
  readonly moves: readonly Move[];
}

export function planLoad(
  mounted: Iterable<string>,
  c: Pick<CommittedStores, "latest" | "committed" | "firstVersion">,
  upgrades: StoreUpgrades,
): Result<LoadPlan, StoreError> {
  const ver = c.latest;
  const renamedFrom = (name: string): string | undefined => upgrades.renamed.find((r) => r.newKey === name)?.oldKey;
  const live: string[] = [];
  const moves: Move[] = [];
  for (const name of sortNames(mounted)) {
    const from = renamedFrom(name);
    if (upgrades.added.includes(name) || from !== undefined) {
      if (c.committed.has(name))
        return err(
          plain(
            `failed to load store: initial version set to ${ver + 1}, but found earlier version ${c.firstVersion(name)}`,
          ),
        );
    } else if (ver !== 0 && !c.committed.has(name)) {
      return err(
        plain(
          `version of store ${name} mismatch root store's version; expected ${ver} got 0; new stores should be added using StoreUpgrades`,
        ),
      );
    }
    if (upgrades.deleted.includes(name)) continue;
    live.push(name);
    if (from !== undefined) moves.push({ from, to: name });
  }
  return ok({ live, moves });
}
