import { BoundedCache } from "../core/bounded-cache.js";
import { compareBytes, utf8 } from "../core/bytes.js";
import { type Sha256, sha256Hasher, sha256Of } from "../core/sha256.js";

/**
 * App hash of a multistore (this project's own scheme; not the reference's IAVL/simple-merkle bytes).
 *
 *   contentHash(store) = sha256( for each (k, v) in key byte order: u32be(|k|) k u32be(|v|) v )
 *   appHash            = sha256( for each store in name byte order: u32be(|name|) name contentHash(store) )
 *
 * Both depend on content only (never on history or version), so nodes that agree on content agree on the hash,
 * an unchanged block keeps the hash, and an empty store still contributes its name.
 */

const u32be = (n: number): Uint8Array => {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
};

const CHUNK = 1 << 16;
/** The staging buffer, shared: contentHash runs to completion without re-entering itself (it only pulls entries). */
const STAGE = new Uint8Array(CHUNK);
const STAGE_VIEW = new DataView(STAGE.buffer);

/** Hash of one store's entries, which must come in strictly ascending key byte order. */
export function contentHash(entries: Iterable<readonly [Uint8Array, Uint8Array]>): Uint8Array {
  const st = new ContentHashStream();
  for (const [k, v] of entries) {
    st.bytes(k, 0);
    st.bytes(v, 0);
  }
  return st.digest();
}

/**
 * contentHash fed one field at a time (a key, then its value), each either as bytes from an offset (a tagged value
 * without its tag) or as a latin1 string from an offset (a key as the in-memory backend holds it, without its
 * store prefix): no per-entry arrays. The same stream, so the same hash. One stream at a time: it stages in the
 * shared buffer, and a caller runs it to its digest without starting another (the hashing callers only pull
 * entries).
 */
export class ContentHashStream {
  // The length-prefixed stream is staged in 64 KiB chunks: one hasher update per chunk, not four per entry; a store
  // that fits in one chunk (almost every store) is hashed in one shot, without a hasher object.
  #h: Sha256 | undefined;
  #used = 0;

  /** Room for a field of `n` bytes with its length prefix; false when the field is too big to stage. */
  #room(n: number): boolean {
    if (this.#used + 4 + n > CHUNK) {
      this.#h ??= sha256Hasher();
      this.#h.update(STAGE.subarray(0, this.#used));
      this.#used = 0;
    }
    if (4 + n > CHUNK) {
      this.#h ??= sha256Hasher();
      this.#h.update(u32be(n));
      return false;
    }
    STAGE_VIEW.setUint32(this.#used, n);
    this.#used += 4;
    return true;
  }

  /** The field `b[from..]`. */
  bytes(b: Uint8Array, from: number): void {
    const field = from === 0 ? b : b.subarray(from);
    if (!this.#room(field.length)) {
      this.#h!.update(field);
      return;
    }
    STAGE.set(field, this.#used);
    this.#used += field.length;
  }

  /** The field whose bytes are the char codes of `s[from..]` (each below 256). */
  latin1(s: string, from: number): void {
    const n = s.length - from;
    if (!this.#room(n)) {
      const b = new Uint8Array(n);
      for (let i = 0; i < n; i++) b[i] = s.charCodeAt(from + i);
      this.#h!.update(b);
      return;
    }
    let o = this.#used;
    for (let i = from; i < s.length; i++) STAGE[o++] = s.charCodeAt(i);
    this.#used = o;
  }

  digest(): Uint8Array {
    const h = this.#h;
    if (h === undefined) return sha256Of(STAGE.subarray(0, this.#used));
    if (this.#used > 0) h.update(STAGE.subarray(0, this.#used));
    return h.digest();
  }
}

/**
 * A store name's UTF-8 bytes, encoded once: names are few (a node mounts a handful of stores) and are sorted and
 * hashed on every app hash. A memo of a pure function, bounded (at most `NAME_BYTES_MAX` names); callers never
 * write to the bytes.
 */
const nameBytes = (name: string): Uint8Array => nameBytesMemo.getOrCompute(name, utf8);
const NAME_BYTES_MAX = 4096;
const nameBytesMemo = new BoundedCache<string, Uint8Array>(NAME_BYTES_MAX);

/** Store names compared as UTF-8 bytes (Go string order). */
export const compareNames = (a: string, b: string): number => compareBytes(nameBytes(a), nameBytes(b));

/** Sorts names in byte order (a new array). */
export const sortNames = (names: Iterable<string>): string[] => [...names].sort(compareNames);

/** Hash over every store's name and content hash, in name byte order. */
export function appHash(storeHashes: ReadonlyMap<string, Uint8Array>): Uint8Array {
  // Staged like contentHash: one shot when the stream fits the staging buffer (always, for real store names).
  const names = sortNames(storeHashes.keys());
  let size = 0;
  for (const name of names) size += 4 + nameBytes(name).length + storeHashes.get(name)!.length;
  if (size > CHUNK) {
    const h = sha256Hasher();
    for (const name of names) {
      const n = nameBytes(name);
      h.update(u32be(n.length));
      h.update(n);
      h.update(storeHashes.get(name)!);
    }
    return h.digest();
  }
  let used = 0;
  for (const name of names) {
    const n = nameBytes(name);
    const c = storeHashes.get(name)!;
    STAGE_VIEW.setUint32(used, n.length);
    STAGE.set(n, used + 4);
    STAGE.set(c, used + 4 + n.length);
    used += 4 + n.length + c.length;
  }
  return sha256Of(STAGE.subarray(0, used));
}
