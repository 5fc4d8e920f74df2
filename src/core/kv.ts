/**
 * A KVStore is one module's byte-keyed map with keys in lexicographic byte order. Iterators
 * yield [key, value] pairs over [start, end) (end exclusive; undefined means unbounded), forward or reverse.
 * Writes during iteration are not allowed (as in the reference, where they are undefined behaviour).
 */
export interface KVStore {
  get(key: Uint8Array): Uint8Array | undefined;
  /**
   * The value as `get` returns it, without a copy where the store holds it immutably (a past version): the caller
   * must not write to it. Optional; a store without it is read by `get`.
   */
  view?(key: Uint8Array): Uint8Array | undefined;
  /**
   * Every entry of [start, end) in byte order, as `iterator` yields them, gathered at once and without copying the
   * values where the store holds them immutably (a past version): the caller must not write to them. Optional; a
   * store without it is read by `iterator`.
   */
  viewEntries?(
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
  ): readonly (readonly [Uint8Array, Uint8Array])[];
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
