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
  // The length-prefixed stream is staged in 64 KiB chunks: one hasher update per chunk, not four per entry; a store
  // that fits in one chunk (almost every store) is hashed in one shot, without a hasher object.
  let h: Sha256 | undefined;
  const buf = STAGE;
  const view = STAGE_VIEW;
  let used = 0;
  const put = (bytes: Uint8Array): void => {
    if (used + 4 + bytes.length > CHUNK) {
      h ??= sha256Hasher();
      h.update(buf.subarray(0, used));
      used = 0;
    }
    if (4 + bytes.length > CHUNK) {
      h ??= sha256Hasher();
      h.update(u32be(bytes.length));
      h.update(bytes);
      return;
    }
    view.setUint32(used, bytes.length);
    buf.set(bytes, used + 4);
    used += 4 + bytes.length;
  };
  for (const [k, v] of entries) {
    put(k);
    put(v);
  }
  if (h === undefined) return sha256Of(buf.subarray(0, used));
  if (used > 0) h.update(buf.subarray(0, used));
  return h.digest();
}

/**
 * A store name's UTF-8 bytes, encoded once: names are few (a node mounts a handful of stores) and are sorted and
 * hashed on every app hash. A memo of a pure function, bounded (cleared at `NAME_BYTES_MAX` names); callers never
 * write to the bytes.
 */
function nameBytes(name: string): Uint8Array {
  let b = nameBytesMemo.get(name);
  if (b === undefined) {
    if (nameBytesMemo.size >= NAME_BYTES_MAX) nameBytesMemo.clear();
    b = utf8(name);
    nameBytesMemo.set(name, b);
  }
  return b;
}
const nameBytesMemo = new Map<string, Uint8Array>();
const NAME_BYTES_MAX = 4096;

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
