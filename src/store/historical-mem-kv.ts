import type { KVStore } from "../core/kv.js";
import { encodeVersion, escStore, isPresent, untag } from "./layout.js";
import { bytesToLatin1, type MemBackend } from "./mem-backend.js";

/**
 * `HistoricalKVStore` (versioned-kv.ts) over the in-memory backend, with keys in latin1 form (one code unit per
 * byte, mem-backend.ts): the same history layout (layout.ts: 0x01 esc(store) esc(key) be64(version)) and the same
 * answers, read by point seeks on the tree (`firstLatin1`, `lastLatin1`) instead of a generator per seek and
 * byte arrays per key. A REST query at a past height reads the state this way (docs/performance.md, "The REST
 * gateway"); `src/store/historical-mem-kv.test.ts` holds it to the byte-array path.
 *
 * 1. get/has: the newest history entry of the key at or below the version (one reverse seek).
 * 2. iterator: seek the first history key of the next key group; a group born after the version is skipped
 *    without a lookup; otherwise step 1 on the group; then jump past the group.
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

/** layout.ts unescapeBytes over a latin1 key: the first escaped component from `offset`; undefined when malformed. */
function unescapeLatin1(s: string, offset: number): Uint8Array | undefined {
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

const storePrefixes = new Map<string, string>();
/** 0x01 esc(store) in latin1 form, memoised (store names are few). */
function historyStorePrefixLatin1(store: string): string {
  let p = storePrefixes.get(store);
  if (p === undefined) {
    p = `\u0001${bytesToLatin1(escStore(store))}`;
    storePrefixes.set(store, p);
  }
  return p;
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
    this.#prefix = historyStorePrefixLatin1(store);
    this.#end = prefixEndLatin1(this.#prefix);
    this.#versionEnd = bytesToLatin1(encodeVersion(version + 1));
  }

  /** Step 1: the tagged value of the key group `group` at this view's version. */
  #at(group: string): Uint8Array | undefined {
    return this.#mem.lastLatin1(group, group + this.#versionEnd)?.[1];
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const t = this.#at(this.#prefix + escapeLatin1(key));
    return t !== undefined && isPresent(t) ? untag(t).slice() : undefined;
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
    return key === undefined ? undefined : [key, untag(t).slice()];
  }

  /** Step 2. */
  *iterator(start: Uint8Array | undefined, end: Uint8Array | undefined): IterableIterator<Entry> {
    let [lo, hi] = this.#bounds(start, end);
    const version = this.#version;
    for (;;) {
      const first = this.#mem.firstLatin1(lo, hi);
      if (first === undefined) return;
      const k = first[0];
      const group = k.slice(0, k.length - 8);
      // The first entry of a group is its oldest retained version; a later-born key cannot exist at `version`.
      if (versionOfLatin1(k) <= version) {
        const entry = this.#entry(group);
        if (entry !== undefined) yield entry;
      }
      const next = prefixEndLatin1(group);
      if (next === undefined) return;
      lo = next;
    }
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
