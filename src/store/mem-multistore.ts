import type { KVStore } from "../core/kv.js";
import { CacheKVStore } from "./cache-kv.js";
import { MemKVStore } from "./mem-kv.js";
import type { CacheMultiStore, MultiStore } from "./types.js";

/** A branch over any MultiStore: one CacheKVStore per module store, created on first use. */
export class CacheMulti implements CacheMultiStore {
  readonly #parent: MultiStore;
  readonly #caches = new Map<string, CacheKVStore>();
  constructor(parent: MultiStore) {
    this.#parent = parent;
  }
  getKVStore(name: string): KVStore {
    let c = this.#caches.get(name);
    if (c === undefined) {
      c = new CacheKVStore(this.#parent.getKVStore(name));
      this.#caches.set(name, c);
    }
    return c;
  }
  hasStore(name: string): boolean {
    return this.#parent.hasStore(name);
  }
  storeNames(): readonly string[] {
    return this.#parent.storeNames();
  }
  write(): void {
    for (const name of [...this.#caches.keys()].sort()) this.#caches.get(name)!.write();
  }
}

/** A non-versioned multistore of MemKVStores, for unit tests of keepers. */
export class MemMultiStore implements MultiStore {
  readonly #stores = new Map<string, MemKVStore>();
  constructor(names: readonly string[]) {
    for (const n of names) this.#stores.set(n, new MemKVStore());
  }
  getKVStore(name: string): KVStore {
    const s = this.#stores.get(name);
    if (s === undefined) throw new Error(`store ${name} is not mounted`);
    return s;
  }
  hasStore(name: string): boolean {
    return this.#stores.has(name);
  }
  storeNames(): readonly string[] {
    return [...this.#stores.keys()].sort();
  }
  branch(): CacheMultiStore {
    return new CacheMulti(this);
  }
}
