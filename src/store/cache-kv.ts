import { compareBytes, toHex } from "../core/bytes.js";
import type { KVStore } from "./types.js";

/**
 * A write-back cache over a parent KVStore: reads fall through, writes and deletes are buffered until `write()`.
 * Iteration merges the buffered writes with the parent's entries in byte order.
 */
export class CacheKVStore implements KVStore {
  readonly #parent: KVStore;
  /** hex key → [key, value | undefined (deleted)] */
  readonly #dirty = new Map<string, readonly [Uint8Array, Uint8Array | undefined]>();

  constructor(parent: KVStore) {
    this.#parent = parent;
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const d = this.#dirty.get(toHex(key));
    return d !== undefined ? d[1] : this.#parent.get(key);
  }
  has(key: Uint8Array): boolean {
    return this.get(key) !== undefined;
  }
  set(key: Uint8Array, value: Uint8Array): void {
    this.#dirty.set(toHex(key), [key.slice(), value.slice()]);
  }
  delete(key: Uint8Array): void {
    this.#dirty.set(toHex(key), [key.slice(), undefined]);
  }
  /** True when nothing is buffered. */
  isClean(): boolean {
    return this.#dirty.size === 0;
  }
  write(): void {
    for (const [, [k, v]] of [...this.#dirty].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (v === undefined) this.#parent.delete(k);
      else this.#parent.set(k, v);
    }
    this.#dirty.clear();
  }
  #merged(start: Uint8Array | undefined, end: Uint8Array | undefined): (readonly [Uint8Array, Uint8Array])[] {
    const inRange = (k: Uint8Array) =>
      (start === undefined || compareBytes(k, start) >= 0) && (end === undefined || compareBytes(k, end) < 0);
    const out = new Map<string, readonly [Uint8Array, Uint8Array]>();
    for (const [k, v] of this.#parent.iterator(start, end)) out.set(toHex(k), [k, v]);
    for (const [h, [k, v]] of this.#dirty) {
      if (!inRange(k)) continue;
      if (v === undefined) out.delete(h);
      else out.set(h, [k, v]);
    }
    return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
  }
  *iterator(
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
  ): IterableIterator<readonly [Uint8Array, Uint8Array]> {
    yield* this.#merged(start, end);
  }
  *reverseIterator(
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
  ): IterableIterator<readonly [Uint8Array, Uint8Array]> {
    yield* this.#merged(start, end).reverse();
  }
}
