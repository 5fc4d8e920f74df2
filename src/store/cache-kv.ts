import { compareBytes, copyBytes } from "../core/bytes.js";
import type { KVStore } from "../core/kv.js";
import { bytesToLatin1 } from "./mem-backend.js";

type Entry = readonly [Uint8Array, Uint8Array];
/** A buffered write: the value, or undefined for a delete. */
export type DirtyEntry = readonly [Uint8Array, Uint8Array | undefined];

/** Keys as latin1 strings (one code unit per byte): string order is byte order, a proper prefix first. */
const keyOf = bytesToLatin1;
const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** First index i with keys[i] >= key. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A store that can be read with the key's latin1 form (bytesToLatin1) already computed, so that a read falling
 * through a chain of caches converts the key once. `getLatin1(key, latin1)` equals `get(key)`.
 */
export interface Latin1Reader {
  getLatin1(key: Uint8Array, latin1: string | undefined): Uint8Array | undefined;
}

const latin1ReaderOf = (s: KVStore): Latin1Reader | undefined =>
  typeof (s as Partial<Latin1Reader>).getLatin1 === "function" ? (s as KVStore & Latin1Reader) : undefined;

/**
 * A write-back cache over a parent KVStore: reads fall through, writes and deletes are buffered until `write()`.
 * Iteration merges the buffered writes with the parent's entries in byte order; an iterator works on the
 * entries as they were when it was created, so writing while iterating is safe (though not allowed by contract).
 */
export class CacheKVStore implements KVStore, Latin1Reader {
  readonly #parent: KVStore;
  readonly #parentLatin1: Latin1Reader | undefined;
  /** key string → [key, value | undefined (deleted)] */
  readonly #dirty = new Map<string, DirtyEntry>();
  /** The dirty key strings in order; undefined when a key was added since the last sort. */
  #sorted: string[] | undefined = [];
  /** Bumped by every change of the buffer: an unchanged generation means unchanged buffered writes. */
  #generation = 0;

  constructor(parent: KVStore) {
    this.#parent = parent;
    this.#parentLatin1 = latin1ReaderOf(parent);
  }

  get(key: Uint8Array): Uint8Array | undefined {
    return this.getLatin1(key, undefined);
  }
  getLatin1(key: Uint8Array, latin1: string | undefined): Uint8Array | undefined {
    const h = latin1 ?? keyOf(key);
    const d = this.#dirty.get(h);
    if (d !== undefined) return d[1];
    const p = this.#parentLatin1;
    return p === undefined ? this.#parent.get(key) : p.getLatin1(key, h);
  }
  has(key: Uint8Array): boolean {
    return this.get(key) !== undefined;
  }
  #put(key: Uint8Array, value: Uint8Array | undefined): void {
    const h = keyOf(key);
    if (!this.#dirty.has(h)) this.#sorted = undefined;
    this.#dirty.set(h, [key.slice(), value]);
    this.#generation++;
  }
  set(key: Uint8Array, value: Uint8Array): void {
    this.#put(key, copyBytes(value));
  }
  delete(key: Uint8Array): void {
    this.#put(key, undefined);
  }
  /** Changes whenever the buffered writes change (set, delete, discard, write); for caches of derived values. */
  get generation(): number {
    return this.#generation;
  }
  /** True when nothing is buffered. */
  isClean(): boolean {
    return this.#dirty.size === 0;
  }
  #keys(): string[] {
    if (this.#sorted === undefined) this.#sorted = [...this.#dirty.keys()].sort(byKey);
    return this.#sorted;
  }
  /** The buffered writes in key byte order (deletes have value undefined). */
  dirtyEntries(): readonly DirtyEntry[] {
    return this.#keys().map((h) => this.#dirty.get(h)!);
  }
  /** The buffered keys in latin1 form (bytesToLatin1), in byte order; shared: never to be written to. */
  dirtyKeysLatin1(): readonly string[] {
    return this.#keys();
  }
  /** The buffered write of a key given in latin1 form (one of dirtyKeysLatin1). */
  dirtyEntry(latin1: string): DirtyEntry | undefined {
    return this.#dirty.get(latin1);
  }
  /** Drops every buffered write. */
  discard(): void {
    this.#dirty.clear();
    this.#sorted = [];
    this.#generation++;
  }
  /** Flushes the buffered writes into the parent in key byte order and empties the buffer. */
  write(): void {
    for (const [k, v] of this.dirtyEntries()) {
      if (v === undefined) this.#parent.delete(k);
      else this.#parent.set(k, v);
    }
    this.discard();
  }
  /** The buffered writes of [start, end), in byte order. */
  #dirtyRange(start: Uint8Array | undefined, end: Uint8Array | undefined): DirtyEntry[] {
    const keys = this.#keys();
    const from = start === undefined ? 0 : lowerBound(keys, keyOf(start));
    const to = end === undefined ? keys.length : lowerBound(keys, keyOf(end));
    const out: DirtyEntry[] = [];
    for (let i = from; i < to; i++) out.push(this.#dirty.get(keys[i]!)!);
    return out;
  }
  /**
   * Forward iteration is lazy (a scan that stops at its first entry, such as a queue's head, merges no more), and a
   * snapshot all the same: the buffered writes of the range and the parent's iterator are both taken here.
   */
  iterator(start: Uint8Array | undefined, end: Uint8Array | undefined): IterableIterator<Entry> {
    return mergeDirty(this.#parent.iterator(start, end), this.#dirtyRange(start, end));
  }
  reverseIterator(start: Uint8Array | undefined, end: Uint8Array | undefined): IterableIterator<Entry> {
    return [...this.iterator(start, end)].reverse().values();
  }
}

/**
 * Entries (ascending) merged with buffered writes (ascending, within the entries' range): a buffered value replaces
 * or adds its key, a buffered delete drops it. One entry at a time.
 */
export function* mergeDirty(entries: Iterable<Entry>, dirty: readonly DirtyEntry[]): Generator<Entry> {
  let i = 0;
  for (const [k, v] of entries) {
    let match: DirtyEntry | undefined;
    for (; i < dirty.length; i++) {
      const d = dirty[i]!;
      const c = compareBytes(d[0], k);
      if (c > 0) break;
      if (c === 0) {
        match = d;
        i++;
        break;
      }
      if (d[1] !== undefined) yield [d[0], d[1]];
    }
    if (match === undefined) yield [k, v];
    else if (match[1] !== undefined) yield [match[0], match[1]];
  }
  for (; i < dirty.length; i++) {
    const d = dirty[i]!;
    if (d[1] !== undefined) yield [d[0], d[1]];
  }
}
