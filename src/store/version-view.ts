import type { KVStore } from "../core/kv.js";
import type { StoreBackend } from "./backend.js";
import type { MultiStore } from "./types.js";
import { HistoricalKVStore, LatestKVStore } from "./versioned-kv.js";

/**
 * A read-only multistore at one committed version, over a backend snapshot: later commits and pruning do not
 * change what it reads. Stores that did not exist at that version are not mounted here; writes throw
 * (wrap it in `new CacheMulti(view)` for a throw-away writable branch, as the reference's
 * CacheMultiStoreWithVersion gives).
 */
export class VersionView implements MultiStore {
  readonly version: number;
  readonly #names: readonly string[];
  readonly #stores = new Map<string, KVStore>();

  /** `names` in byte order; `isLatest` reads the latest index instead of the history. */
  constructor(snapshot: StoreBackend, version: number, names: readonly string[], isLatest: boolean) {
    this.version = version;
    this.#names = names;
    for (const n of names)
      this.#stores.set(n, isLatest ? new LatestKVStore(snapshot, n) : new HistoricalKVStore(snapshot, n, version));
  }
  getKVStore(name: string): KVStore {
    const s = this.#stores.get(name);
    if (s === undefined) throw new Error(`store does not exist for key: ${name}`);
    return s;
  }
  hasStore(name: string): boolean {
    return this.#stores.has(name);
  }
  storeNames(): readonly string[] {
    return this.#names;
  }
}
