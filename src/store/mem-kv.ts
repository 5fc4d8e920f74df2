import { toHex } from "../core/bytes.js";
import type { KVStore } from "../core/kv.js";

/**
 * A plain in-memory KVStore (no versions). Keys are indexed by lowercase hex, whose string order equals the byte
 * order of the keys, so iteration sorts the hex keys. Used directly in unit tests and as the building block of
 * the versioned store.
 */
export class MemKVStore implements KVStore {
  readonly #entries = new Map<string, readonly [Uint8Array, Uint8Array]>();
  #sorted: string[] | undefined = [];

  get(key: Uint8Array): Uint8Array | undefined {
    return this.#entries.get(toHex(key))?.[1];
  }
  has(key: Uint8Array): boolean {
    return this.#entries.has(toHex(key));
  }
  set(key: Uint8Array, value: Uint8Array): void {
    const h = toHex(key);
    if (!this.#entries.has(h)) this.#sorted = undefined;
    this.#entries.set(h, [key.slice(), value.slice()]);
  }
  delete(key: Uint8Array): void {
    if (this.#entries.delete(toHex(key))) this.#sorted = undefined;
  }
  #keys(): string[] {
    if (this.#sorted === undefined) this.#sorted = [...this.#entries.keys()].sort();
    return this.#sorted;
  }
  *iterator(
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
  ): IterableIterator<readonly [Uint8Array, Uint8Array]> {
    const s = start === undefined ? undefined : toHex(start);
    const e = end === undefined ? undefined : toHex(end);
    for (const k of [...this.#keys()]) {
      if (s !== undefined && k < s) continue;
      if (e !== undefined && k >= e) break;
      const entry = this.#entries.get(k);
      if (entry !== undefined) yield entry;
    }
  }
  *reverseIterator(
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
  ): IterableIterator<readonly [Uint8Array, Uint8Array]> {
    const s = start === undefined ? undefined : toHex(start);
    const e = end === undefined ? undefined : toHex(end);
    const keys = [...this.#keys()];
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!;
      if (e !== undefined && k >= e) continue;
      if (s !== undefined && k < s) break;
      const entry = this.#entries.get(k);
      if (entry !== undefined) yield entry;
    }
  }
}
