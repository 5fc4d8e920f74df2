import { concat } from "../core/bytes.js";
import type { KVStore } from "../core/kv.js";
import type { StoreBackend } from "./backend.js";
import type { Latin1Reader } from "./cache-kv.js";
import {
  after,
  encodeVersion,
  escapeBytes,
  historyKeyPrefix,
  historyStorePrefix,
  historyUserKey,
  isPresent,
  latestStoreRange,
  untagCopy,
} from "./layout.js";
import { bytesToLatin1, latin1ToBytes, MemBackend } from "./mem-backend.js";

type Entry = readonly [Uint8Array, Uint8Array];

/** Writing to a committed view is a programming error (like writing to an immutable IAVL tree). */
const readOnly = (store: string): Error => new Error(`store ${store} is a read-only committed view`);

/**
 * One store's content as of the last commit, read from the latest index (one backend read per get).
 * Values handed out are copies.
 */
export class LatestKVStore implements KVStore, Latin1Reader {
  readonly #backend: StoreBackend;
  /** The backend when it reads latin1 keys (the in-memory one): a get then builds no key bytes. */
  readonly #mem: MemBackend | undefined;
  readonly #store: string;
  readonly #prefix: Uint8Array;
  readonly #prefixLatin1: string;
  readonly #end: Uint8Array | undefined;
  readonly #endLatin1: string | undefined;

  constructor(backend: StoreBackend, store: string) {
    this.#backend = backend;
    this.#mem = backend instanceof MemBackend ? backend : undefined;
    this.#store = store;
    const range = latestStoreRange(store);
    this.#prefix = range.prefix;
    this.#prefixLatin1 = range.prefixLatin1;
    this.#end = range.end;
    this.#endLatin1 = range.endLatin1;
  }
  #tagged(key: Uint8Array, latin1: string | undefined): Uint8Array | undefined {
    const mem = this.#mem;
    if (mem === undefined) return this.#backend.get(concat(this.#prefix, key));
    return mem.getLatin1(this.#prefixLatin1 + (latin1 ?? bytesToLatin1(key)));
  }
  get(key: Uint8Array): Uint8Array | undefined {
    return this.getLatin1(key, undefined);
  }
  getLatin1(key: Uint8Array, latin1: string | undefined): Uint8Array | undefined {
    const t = this.#tagged(key, latin1);
    return t !== undefined && isPresent(t) ? untagCopy(t) : undefined;
  }
  has(key: Uint8Array): boolean {
    const t = this.#tagged(key, undefined);
    return t !== undefined && isPresent(t);
  }
  set(): void {
    throw readOnly(this.#store);
  }
  delete(): void {
    throw readOnly(this.#store);
  }
  #bounds(start: Uint8Array | undefined, end: Uint8Array | undefined): [Uint8Array, Uint8Array | undefined] {
    return [
      start === undefined ? this.#prefix : concat(this.#prefix, start),
      end === undefined ? this.#end : concat(this.#prefix, end),
    ];
  }
  /** #bounds as latin1 strings, for the in-memory backend. */
  #boundsLatin1(start: Uint8Array | undefined, end: Uint8Array | undefined): [string, string | undefined] {
    return [
      start === undefined ? this.#prefixLatin1 : this.#prefixLatin1 + bytesToLatin1(start),
      end === undefined ? this.#endLatin1 : this.#prefixLatin1 + bytesToLatin1(end),
    ];
  }
  iterator(start: Uint8Array | undefined, end: Uint8Array | undefined): IterableIterator<Entry> {
    const mem = this.#mem;
    if (mem !== undefined) return this.#stripLatin1(mem.entriesLatin1(...this.#boundsLatin1(start, end)));
    const [lo, hi] = this.#bounds(start, end);
    return this.#strip(this.#backend.iterator(lo, hi));
  }
  reverseIterator(start: Uint8Array | undefined, end: Uint8Array | undefined): IterableIterator<Entry> {
    const mem = this.#mem;
    if (mem !== undefined) return this.#stripLatin1(mem.entriesReverseLatin1(...this.#boundsLatin1(start, end)));
    const [lo, hi] = this.#bounds(start, end);
    return this.#strip(this.#backend.reverseIterator(lo, hi));
  }
  /** #strip over latin1 keys: each key's bytes built once, without the store prefix. */
  *#stripLatin1(raw: Iterable<readonly [string, Uint8Array]>): Generator<Entry> {
    const n = this.#prefixLatin1.length;
    for (const [k, t] of raw) if (isPresent(t)) yield [latin1ToBytes(k, n), untagCopy(t)];
  }
  *#strip(raw: Iterable<Entry>): Generator<Entry> {
    const n = this.#prefix.length;
    for (const [k, t] of raw) if (isPresent(t)) yield [k.slice(n), untagCopy(t)];
  }
}

/**
 * One store's content at a retained version, read from the history section: a get is one reverse seek (the
 * newest entry <= version), an iteration step is one seek to the next key plus that lookup. The backend should
 * be a snapshot (fork) so that later commits and pruning do not affect the view.
 */
export class HistoricalKVStore implements KVStore {
  readonly #backend: StoreBackend;
  readonly #store: string;
  readonly #version: number;
  readonly #prefix: Uint8Array;
  readonly #end: Uint8Array | undefined;
  readonly #versionEnd: Uint8Array;

  constructor(backend: StoreBackend, store: string, version: number) {
    this.#backend = backend;
    this.#store = store;
    this.#version = version;
    this.#prefix = historyStorePrefix(store);
    this.#end = after(this.#prefix);
    this.#versionEnd = encodeVersion(version + 1);
  }

  /** The tagged value of the key whose history entries start with `keyPrefix`, at this view's version. */
  #at(keyPrefix: Uint8Array): Uint8Array | undefined {
    const first = this.#backend.reverseIterator(keyPrefix, concat(keyPrefix, this.#versionEnd)).next();
    return first.done === true ? undefined : first.value[1];
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const t = this.#at(historyKeyPrefix(this.#store, key));
    return t !== undefined && isPresent(t) ? untagCopy(t) : undefined;
  }
  has(key: Uint8Array): boolean {
    const t = this.#at(historyKeyPrefix(this.#store, key));
    return t !== undefined && isPresent(t);
  }
  set(): void {
    throw readOnly(this.#store);
  }
  delete(): void {
    throw readOnly(this.#store);
  }
  #bounds(start: Uint8Array | undefined, end: Uint8Array | undefined): [Uint8Array, Uint8Array | undefined] {
    return [
      start === undefined ? this.#prefix : concat(this.#prefix, escapeBytes(start)),
      end === undefined ? this.#end : concat(this.#prefix, escapeBytes(end)),
    ];
  }
  /** The entry for the key group whose first history key is `entryKey`, when present at this version. */
  #entry(entryKey: Uint8Array): { readonly group: Uint8Array; readonly entry: Entry | undefined } {
    const group = entryKey.subarray(0, entryKey.length - 8);
    const t = this.#at(group);
    if (t === undefined || !isPresent(t)) return { group, entry: undefined };
    const key = historyUserKey(group, this.#prefix.length);
    return { group, entry: key === undefined ? undefined : [key, untagCopy(t)] };
  }
  *iterator(start: Uint8Array | undefined, end: Uint8Array | undefined): IterableIterator<Entry> {
    let [lo, hi] = this.#bounds(start, end);
    const version = this.#version;
    for (;;) {
      const first = this.#backend.iterator(lo, hi).next();
      if (first.done === true) return;
      const k = first.value[0];
      // The first entry of a group is its oldest retained version; a later-born key cannot exist at `version`.
      const born = Number(new DataView(k.buffer, k.byteOffset + k.length - 8, 8).getBigUint64(0));
      const { group, entry } =
        born <= version ? this.#entry(k) : { group: k.subarray(0, k.length - 8), entry: undefined };
      if (entry !== undefined) yield entry;
      const next = after(group);
      if (next === undefined) return;
      lo = next;
    }
  }
  *reverseIterator(start: Uint8Array | undefined, end: Uint8Array | undefined): IterableIterator<Entry> {
    let [lo, hi] = this.#bounds(start, end);
    for (;;) {
      const first = this.#backend.reverseIterator(lo, hi).next();
      if (first.done === true) return;
      const { group, entry } = this.#entry(first.value[0]);
      if (entry !== undefined) yield entry;
      hi = group;
    }
  }
}
