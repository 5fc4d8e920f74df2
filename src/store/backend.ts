/**
 * The raw storage under the versioned multistore: one sorted map of byte keys to byte values, compared
 * lexicographically (LevelDB's default comparator). The multistore lays out versions, history and metadata
 * over it (see layout.ts), so a persistent backend (LevelDB) only has to provide these operations.
 */

/** One write of a batch: a value to store, or undefined to delete the key. */
export interface BackendWrite {
  readonly key: Uint8Array;
  readonly value: Uint8Array | undefined;
}

export interface StoreBackend {
  get(key: Uint8Array): Uint8Array | undefined;
  /**
   * Entries with start <= key < end (either bound may be undefined), ascending. An iterator reads the state of
   * the moment it was created (an implicit snapshot, as LevelDB iterators do); later writes are not seen.
   */
  iterator(
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
  ): IterableIterator<readonly [Uint8Array, Uint8Array]>;
  /** As `iterator`, descending. */
  reverseIterator(
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
  ): IterableIterator<readonly [Uint8Array, Uint8Array]>;
  /** Applies the writes in order, atomically. Callers hand over ownership of the arrays (never mutate them). */
  write(batch: readonly BackendWrite[]): void;
  /** An independent copy: later writes to either are invisible to the other. Used for snapshots and clones. */
  fork(): StoreBackend;
}
