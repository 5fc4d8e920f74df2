import type { KVStore } from "../core/kv.js";
import type { StoreBackend } from "./backend.js";
import { HistoricalMemKVStore } from "./historical-mem-kv.js";
import { MemBackend } from "./mem-backend.js";
import type { MultiStore } from "./types.js";
import { HistoricalKVStore, LatestKVStore } from "./versioned-kv.js";

/**
 * A read-only multistore at one committed version, over a backend snapshot: later commits and pruning do not
 * change what it reads. Stores that did not exist at that version are not mounted here; writes throw
 * (wrap it in `new CacheMulti(view)` for a throw-away writable branch, as the reference's
 * CacheMultiStoreWithVersion gives). A store's reader is built when first asked for (a query reads one or two
 * stores of the view); over the in-memory backend a past version reads through HistoricalMemKVStore, and which
 * stores it has is read per store asked for (MountedStores).
 */
/**
 * The stores of a view's version: all of them in byte order, and whether one is there. A past version's answers
 * `has` by one seek per name asked (versioned-committed.ts), without listing every store of the version.
 */
export interface MountedStores {
  names(): readonly string[];
  has(name: string): boolean;
}

/** MountedStores over a list known in advance (`names` in byte order). */
export function listedStores(names: readonly string[]): MountedStores {
  const set = new Set(names);
  return { names: () => names, has: (name) => set.has(name) };
}

export class VersionView implements MultiStore {
  readonly version: number;
  readonly #snapshot: StoreBackend;
  readonly #isLatest: boolean;
  readonly #mounted: MountedStores;
  readonly #stores = new Map<string, KVStore>();

  /** `isLatest` reads the latest index instead of the history. */
  constructor(snapshot: StoreBackend, version: number, mounted: MountedStores, isLatest: boolean) {
    this.version = version;
    this.#snapshot = snapshot;
    this.#isLatest = isLatest;
    this.#mounted = mounted;
  }
  getKVStore(name: string): KVStore {
    let s = this.#stores.get(name);
    if (s !== undefined) return s;
    if (!this.#mounted.has(name)) throw new Error(`store does not exist for key: ${name}`);
    s = this.#reader(name);
    this.#stores.set(name, s);
    return s;
  }
  #reader(name: string): KVStore {
    const snapshot = this.#snapshot;
    if (this.#isLatest) return new LatestKVStore(snapshot, name);
    return snapshot instanceof MemBackend
      ? new HistoricalMemKVStore(snapshot, name, this.version)
      : new HistoricalKVStore(snapshot, name, this.version);
  }
  hasStore(name: string): boolean {
    return this.#mounted.has(name);
  }
  storeNames(): readonly string[] {
    return this.#mounted.names();
  }
}
