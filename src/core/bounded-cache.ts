import { assert } from "./assert.js";

/**
 * The one bounded memo table: a Map that never holds more than `max` entries. Every memo of a pure function in
 * chainsim (addresses, decoded files, committed views, parsed worlds, draws per seed) uses it, so each cache states
 * its bound in one place and none grows without one.
 *
 * 1. `get` finds an entry; with `policy: "lru"` a hit also makes it the most recently used.
 * 2. `set` stores an entry; when the table is full and the key is new, the oldest entry (in insertion order, or in
 *    order of use under "lru") is evicted first.
 * 3. `getOrCompute` is the memo: the cached value, or `compute(key)` stored and returned.
 *
 * Callers only memoise pure functions (or, like a view of a store version, values that stay valid while cached), so
 * which entry goes never changes a result, only the work done.
 */
export class BoundedCache<K, V> {
  readonly #max: number;
  readonly #lru: boolean;
  readonly #map = new Map<K, V>();

  constructor(max: number, opts: { readonly policy?: "fifo" | "lru" } = {}) {
    assert(Number.isSafeInteger(max) && max > 0, `a cache bound is a positive integer, not ${max}`);
    this.#max = max;
    this.#lru = opts.policy === "lru";
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined && this.#lru) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }

  /** Stores `value` under `key` (evicting the oldest entry when full) and returns it. */
  set(key: K, value: V): V {
    if (this.#map.has(key)) this.#map.delete(key);
    else if (this.#map.size >= this.#max) {
      const oldest = this.#map.keys().next();
      if (oldest.done !== true) this.#map.delete(oldest.value);
    }
    this.#map.set(key, value);
    return value;
  }

  /** The cached value of `key`, or `compute(key)`, stored. `undefined` is not a cacheable value. */
  getOrCompute(key: K, compute: (key: K) => V): V {
    const hit = this.get(key);
    return hit !== undefined ? hit : this.set(key, compute(key));
  }

  delete(key: K): void {
    this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }
}
