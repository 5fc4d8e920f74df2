/**
 * Store interfaces. A KVStore is one module's byte-keyed map with keys in lexicographic byte order. Iterators
 * yield [key, value] pairs over [start, end) (end exclusive; undefined means unbounded), forward or reverse.
 * Writes during iteration are not allowed (as in the reference, where they are undefined behaviour).
 */
export interface KVStore {
  get(key: Uint8Array): Uint8Array | undefined;
  has(key: Uint8Array): boolean;
  set(key: Uint8Array, value: Uint8Array): void;
  delete(key: Uint8Array): void;
  iterator(
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
  ): IterableIterator<readonly [Uint8Array, Uint8Array]>;
  reverseIterator(
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
  ): IterableIterator<readonly [Uint8Array, Uint8Array]>;
}

/** Named module stores. */
export interface MultiStore {
  /** The module store with this name; throws a programming error when the store is not mounted. */
  getKVStore(name: string): KVStore;
  hasStore(name: string): boolean;
  /** Mounted store names in byte order. */
  storeNames(): readonly string[];
}

/** A branch of a multistore: reads fall through to the parent, writes stay here until `write()`. */
export interface CacheMultiStore extends MultiStore {
  /** Flushes this branch's writes into its parent. Discarding a branch is simply dropping it. */
  write(): void;
}

/** StoreUpgrades as in the reference (`added`, `renamed` {old_key,new_key}, `deleted`). */
export interface StoreUpgrades {
  readonly added: readonly string[];
  readonly renamed: readonly { readonly oldKey: string; readonly newKey: string }[];
  readonly deleted: readonly string[];
}
