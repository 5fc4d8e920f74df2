import type { KVStore } from "../core/kv.js";
import { escStore, isPresent, untag, untagCopy } from "./layout.js";
import { bytesToLatin1, latin1ToBytes, type MemBackend } from "./mem-backend.js";

/**
 * `HistoricalKVStore` (versioned-kv.ts) over the in-memory backend, with keys in latin1 form (one code unit per
 * byte, mem-backend.ts): the same history layout (layout.ts: 0x01 esc(store) esc(key) be64(version)) and the same
 * answers, read by point seeks on the tree (`firstLatin1`, `lastLatin1`) instead of a generator per seek and
 * byte arrays per key. A REST query at a past height reads the state this way (docs/performance.md, "The REST
 * gateway"); `src/store/historical-mem-kv.test.ts` holds it to the byte-array path.
 *
 * 1. get/has: the newest history entry of the key at or below the version (one reverse seek).
 * 2. iterator: one scan of the tree over the history keys in the range: a group born after the version is
 *    skipped at its first key; otherwise its entries are stepped through up to the version (step 1 after a
 *    few), then the scan skips past the group. viewEntries is the same scan run to the end of the range, its values
 *    views of the stored bytes instead of copies.
 * 3. reverseIterator: seek the last history key below the bound, step 1 on its group, continue below the group.
 */

type Entry = readonly [Uint8Array, Uint8Array];

const readOnly = (store: string): Error => new Error(`store ${store} is a read-only committed view`);

/** esc(bytes) (layout.ts escapeBytes) as a latin1 string: 0x00 → 0x00 0xff, terminated by 0x00 0x01. */
function escapeLatin1(b: Uint8Array): string {
  let out = "";
  for (let i = 0; i < b.length; i++) {
    const x = b[i]!;
    out += x === 0 ? "\u0000\u00ff" : String.fromCharCode(x);
  }
  return `${out}\u0000\u0001`;
}

/**
 * layout.ts unescapeBytes over a latin1 key: the first escaped component from `offset`; undefined when malformed.
 * A component without an escaped 0x00 (the common case) is copied in one pass.
 */
function unescapeLatin1(s: string, offset: number): Uint8Array | undefined {
  const zero = s.indexOf("\u0000", offset);
  if (zero < 0) return undefined;
  if (s.charCodeAt(zero + 1) === 0x01) return latin1ToBytes(s, offset, zero);
  const out: number[] = [];
  for (let i = offset; i < s.length; i++) {
    const x = s.charCodeAt(i);
    if (x !== 0) {
      out.push(x);
      continue;
    }
    const y = s.charCodeAt(i + 1);
    if (y === 0x01) return Uint8Array.from(out);
    if (y !== 0xff) return undefined;
    out.push(0);
    i++;
  }
  return undefined;
}

/** core/bytes.ts prefixEnd over a latin1 key: the least key above every key with this prefix (undefined: none). */
function prefixEndLatin1(prefix: string): string | undefined {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c < 0xff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
  }
  return undefined;
}

/** The version in the last 8 code units of a history key (big-endian), as `Number(readBe64(...))` reads it. */
function versionOfLatin1(k: string): number {
  const n = k.length - 8;
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < 4; i++) {
    hi = hi * 256 + k.charCodeAt(n + i);
    lo = lo * 256 + k.charCodeAt(n + 4 + i);
  }
  return hi * 0x1_0000_0000 + lo;
}

/** Entries a forward iterator gathers per scan of the tree. */
const ITERATOR_CHUNK = 32;
/** Versions of one key a forward scan steps through before it seeks the one at its version. */
const GROUP_WALK_MAX = 4;

/** A store's history key range in latin1 form: 0x01 esc(store), and the end of that prefix. */
interface StoreRange {
  readonly prefix: string;
  readonly end: string | undefined;
}
const storeRanges = new Map<string, StoreRange>();
/** A bound on the memoised store ranges (store names are few). */
const STORE_RANGES_MAX = 1024;
/** The history key range of `store`, memoised. */
function historyStoreRange(store: string): StoreRange {
  let r = storeRanges.get(store);
  if (r === undefined) {
    const prefix = `\u0001${bytesToLatin1(escStore(store))}`;
    r = { prefix, end: prefixEndLatin1(prefix) };
    if (storeRanges.size < STORE_RANGES_MAX) storeRanges.set(store, r);
  }
  return r;
}

/** layout.ts encodeVersion(version) in latin1 form (8 code units, big-endian), without the byte array. */
export function versionLatin1(version: number): string {
  const hi = Math.floor(version / 0x1_0000_0000);
  const lo = version >>> 0;
  return String.fromCharCode(
    (hi >>> 24) & 0xff,
    (hi >>> 16) & 0xff,
    (hi >>> 8) & 0xff,
    hi & 0xff,
    lo >>> 24,
    (lo >>> 16) & 0xff,
    (lo >>> 8) & 0xff,
    lo & 0xff,
  );
}

export class HistoricalMemKVStore implements KVStore {
  readonly #mem: MemBackend;
  readonly #store: string;
  readonly #version: number;
  readonly #prefix: string;
  readonly #end: string | undefined;
  readonly #versionEnd: string;

  /** `mem` should be a snapshot (fork), as for HistoricalKVStore. */
  constructor(mem: MemBackend, store: string, version: number) {
    this.#mem = mem;
    this.#store = store;
    this.#version = version;
    const range = historyStoreRange(store);
    this.#prefix = range.prefix;
    this.#end = range.end;
    this.#versionEnd = versionLatin1(version + 1);
  }

  /** Step 1: the tagged value of the key group `group` at this view's version. */
  #at(group: string): Uint8Array | undefined {
    return this.#mem.lastLatin1(group, group + this.#versionEnd)?.[1];
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const t = this.#at(this.#prefix + escapeLatin1(key));
    return t !== undefined && isPresent(t) ? untagCopy(t) : undefined;
  }
  /** `get` without the copy: a past version's values are never written again. */
  view(key: Uint8Array): Uint8Array | undefined {
    const t = this.#at(this.#prefix + escapeLatin1(key));
    return t !== undefined && isPresent(t) ? untag(t) : undefined;
  }
  has(key: Uint8Array): boolean {
    const t = this.#at(this.#prefix + escapeLatin1(key));
    return t !== undefined && isPresent(t);
  }
  set(): void {
    throw readOnly(this.#store);
  }
  delete(): void {
    throw readOnly(this.#store);
  }

  #bounds(start: Uint8Array | undefined, end: Uint8Array | undefined): [string, string | undefined] {
    return [
      start === undefined ? this.#prefix : this.#prefix + escapeLatin1(start),
      end === undefined ? this.#end : this.#prefix + escapeLatin1(end),
    ];
  }

  /** The entry of the key group `group` when present at this version. */
  #entry(group: string): Entry | undefined {
    const t = this.#at(group);
    if (t === undefined || !isPresent(t)) return undefined;
    const key = unescapeLatin1(group, this.#prefix.length);
    return key === undefined ? undefined : [key, untagCopy(t)];
  }

  /** Step 2, in chunks of at most ITERATOR_CHUNK entries (the walk stays lazy for a caller that stops early). */
  *iterator(start: Uint8Array | undefined, end: Uint8Array | undefined): IterableIterator<Entry> {
    let [lo, hi] = this.#bounds(start, end);
    for (;;) {
      const chunk: Entry[] = [];
      const resume = this.#groups(lo, hi, chunk, true);
      yield* chunk;
      if (resume === undefined) return;
      lo = resume;
    }
  }

  /**
   * KVStore.viewEntries: step 2 gathered whole, each value a view of the stored bytes (a past version's values are
   * never written again; the caller must not write to them).
   */
  viewEntries(start: Uint8Array | undefined, end: Uint8Array | undefined): Entry[] {
    const [lo, hi] = this.#bounds(start, end);
    const out: Entry[] = [];
    for (let resume: string | undefined = lo; resume !== undefined; ) resume = this.#groups(resume, hi, out, false);
    return out;
  }

  /**
   * Step 2 by one scan of the tree: the present entries of the key groups from `lo` go to `out` (values copied, or
   * views of the stored bytes) until ITERATOR_CHUNK more are there; the key to resume at, or undefined when the
   * range is done. Within a group the walk goes entry by entry (versions ascend) and moves on at the first version
   * above this view's; a group with more than GROUP_WALK_MAX versions at or below it is read by one seek instead
   * (step 1).
   */
  #groups(lo: string, hi: string | undefined, out: Entry[], copy: boolean): string | undefined {
    const version = this.#version;
    const full = out.length + ITERATOR_CHUNK;
    let group = "";
    let best: Uint8Array | undefined;
    let walked = 0;
    let resume: string | undefined;
    const finish = (): boolean => {
      if (best !== undefined && isPresent(best)) {
        const key = unescapeLatin1(group, this.#prefix.length);
        if (key !== undefined) out.push([key, copy ? untagCopy(best) : untag(best)]);
      }
      best = undefined;
      group = "";
      return out.length >= full;
    };
    /** Done with the current group: emit it, then skip past it (or stop with the resume key when out is full). */
    const leave = (): string | null => {
      const next = prefixEndLatin1(group);
      if (finish()) resume = next;
      return next === undefined || resume !== undefined ? null : next;
    };
    this.#mem.scanLatin1(lo, hi, (k, v) => {
      if (group !== "" && !(k.length === group.length + 8 && k.startsWith(group))) {
        if (finish()) {
          resume = k;
          return null;
        }
      }
      if (group === "") {
        group = k.slice(0, k.length - 8);
        walked = 0;
        // The first entry of a group is its oldest retained version; a later-born key cannot exist at `version`.
        if (versionOfLatin1(k) > version) return leave();
      } else if (versionOfLatin1(k) > version) {
        return leave();
      }
      best = v;
      if (++walked < GROUP_WALK_MAX) return undefined;
      best = this.#at(group);
      return leave();
    });
    if (resume === undefined && group !== "") finish();
    return resume;
  }

  /** Step 3. */
  *reverseIterator(start: Uint8Array | undefined, end: Uint8Array | undefined): IterableIterator<Entry> {
    let [lo, hi] = this.#bounds(start, end);
    for (;;) {
      const last = this.#mem.lastLatin1(lo, hi);
      if (last === undefined) return;
      const group = last[0].slice(0, last[0].length - 8);
      const entry = this.#entry(group);
      if (entry !== undefined) yield entry;
      hi = group;
    }
  }
}
