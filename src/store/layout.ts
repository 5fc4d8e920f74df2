import { be64, concat, copyBytes, prefixEnd, readBe64, utf8 } from "../core/bytes.js";

/**
 * Key layout of the versioned multistore over a raw sorted backend. Sections by first byte:
 *
 *   0x00 meta      0x00 <name>                                  -> be64
 *   0x01 history   0x01 esc(store) esc(key) be64(version)       -> tagged value (written at every change)
 *   0x02 latest    0x02 esc(store) key                          -> tagged value (present keys of the last commit)
 *   0x03 changes   0x03 be64(version) 0x01 esc(store) key       -> empty (a key changed at version)
 *                  0x03 be64(version) 0x02 esc(store)           -> empty (a store record changed at version)
 *   0x04 stores    0x04 esc(store) be64(version)                -> tagged content hash (tombstone: store removed)
 *
 * esc() is an order-preserving, prefix-free escaping (0x00 -> 0x00 0xff, terminated by 0x00 0x01), so for a
 * fixed store the history entries sort by key in byte order and, within a key, by version. A value at version
 * v is the newest history entry <= v; tagged values are 0x01 <bytes> (present) or 0x00 (deleted/absent).
 */

export const META_LATEST = Uint8Array.of(0x00, 0x6c); // "l"
export const META_EARLIEST = Uint8Array.of(0x00, 0x65); // "e"
export const META_COMPACTED = Uint8Array.of(0x00, 0x63); // "c"

const HISTORY = 0x01;
const LATEST = 0x02;
const CHANGES = 0x03;
const STORES = 0x04;
const CHANGE_KEY = 0x01;
const CHANGE_STORE = 0x02;

export const TOMBSTONE = Uint8Array.of(0x00);

/** A value as the store keeps it: in a buffer of its own (not allocBytes', whose slab a kept value would pin). */
export const tagValue = (value: Uint8Array): Uint8Array => {
  const out = new Uint8Array(value.length + 1);
  out[0] = 0x01;
  out.set(value, 1);
  return out;
};
export const isPresent = (tagged: Uint8Array): boolean => tagged[0] === 0x01;
/** The value bytes of a present tagged value (a view; copy before handing out). */
export const untag = (tagged: Uint8Array): Uint8Array => tagged.subarray(1);
/** The value bytes of a present tagged value, copied for a caller (without making a view first). */
export const untagCopy = (tagged: Uint8Array): Uint8Array => copyBytes(tagged, 1);

export function escapeBytes(b: Uint8Array): Uint8Array {
  let zeros = 0;
  for (const x of b) if (x === 0) zeros++;
  const out = new Uint8Array(b.length + zeros + 2);
  let o = 0;
  for (const x of b) {
    out[o++] = x;
    if (x === 0) out[o++] = 0xff;
  }
  out[o++] = 0x00;
  out[o] = 0x01;
  return out;
}

/** Decodes one escaped component starting at `offset`; undefined when malformed. */
export function unescapeBytes(
  b: Uint8Array,
  offset: number,
): { readonly value: Uint8Array; readonly next: number } | undefined {
  const out: number[] = [];
  for (let i = offset; i < b.length; i++) {
    const x = b[i]!;
    if (x !== 0) {
      out.push(x);
      continue;
    }
    const y = b[i + 1];
    if (y === 0x01) return { value: Uint8Array.from(out), next: i + 2 };
    if (y !== 0xff) return undefined;
    out.push(0);
    i++;
  }
  return undefined;
}

export const encodeVersion = (v: number): Uint8Array => be64(v);
export const decodeVersion = (b: Uint8Array, offset: number): number => Number(readBe64(b, offset));

const storeBytes = new Map<string, Uint8Array>();
/** esc(utf8(name)), memoised: store names are few and used on every access. */
export function escStore(name: string): Uint8Array {
  let e = storeBytes.get(name);
  if (e === undefined) {
    e = escapeBytes(utf8(name));
    storeBytes.set(name, e);
  }
  return e;
}

// history ---------------------------------------------------------------------------------------------------

/** 0x01 esc(store): every history entry of the store starts with it. */
export const historyStorePrefix = (store: string): Uint8Array => concat(Uint8Array.of(HISTORY), escStore(store));
/** 0x01 esc(store) esc(key): the entries of one key, one per version. */
export const historyKeyPrefix = (store: string, key: Uint8Array): Uint8Array =>
  concat(Uint8Array.of(HISTORY), escStore(store), escapeBytes(key));
export const historyKey = (store: string, key: Uint8Array, version: number): Uint8Array =>
  concat(historyKeyPrefix(store, key), encodeVersion(version));

/** The user key of a history key prefix or entry, given the store's history prefix length. */
export const historyUserKey = (entryKey: Uint8Array, storePrefixLength: number): Uint8Array | undefined =>
  unescapeBytes(entryKey, storePrefixLength)?.value;

// latest ----------------------------------------------------------------------------------------------------

interface StoreRange {
  readonly prefix: Uint8Array;
  /** The prefix as a latin1 string (one code unit per byte), for backends keyed that way. */
  readonly prefixLatin1: string;
  readonly end: Uint8Array | undefined;
  readonly endLatin1: string | undefined;
}
const latestPrefixes = new Map<string, StoreRange>();
/**
 * 0x02 esc(store) and its exclusive end: the range of the store's latest index. Memoised like escStore (a pure
 * function of the name, asked for by every store view a commit, clone or load creates); the arrays are shared, so
 * callers never write to them.
 */
export function latestStoreRange(store: string): StoreRange {
  let r = latestPrefixes.get(store);
  if (r === undefined) {
    const prefix = concat(Uint8Array.of(LATEST), escStore(store));
    const end = prefixEnd(prefix);
    r = {
      prefix,
      prefixLatin1: String.fromCharCode(...prefix),
      end,
      endLatin1: end === undefined ? undefined : String.fromCharCode(...end),
    };
    latestPrefixes.set(store, r);
  }
  return r;
}
export const latestStorePrefix = (store: string): Uint8Array => concat(Uint8Array.of(LATEST), escStore(store));
export const latestKey = (store: string, key: Uint8Array): Uint8Array =>
  concat(Uint8Array.of(LATEST), escStore(store), key);

// changes ---------------------------------------------------------------------------------------------------

export const changeVersionPrefix = (version: number): Uint8Array =>
  concat(Uint8Array.of(CHANGES), encodeVersion(version));
/** 0x03 be64(version) 0x01 esc(store): every key change of the store at the version starts with it. */
export const keyChangePrefix = (version: number, store: string): Uint8Array =>
  concat(changeVersionPrefix(version), Uint8Array.of(CHANGE_KEY), escStore(store));
export const keyChange = (version: number, store: string, key: Uint8Array): Uint8Array =>
  concat(keyChangePrefix(version, store), key);
export const storeChange = (version: number, store: string): Uint8Array =>
  concat(changeVersionPrefix(version), Uint8Array.of(CHANGE_STORE), escStore(store));

export type Change =
  | { readonly kind: "key"; readonly version: number; readonly store: string; readonly key: Uint8Array }
  | { readonly kind: "store"; readonly version: number; readonly store: string };

const textDecoder = new TextDecoder();

export function decodeChange(k: Uint8Array): Change | undefined {
  if (k[0] !== CHANGES || k.length < 10) return undefined;
  const version = decodeVersion(k, 1);
  const name = unescapeBytes(k, 10);
  if (name === undefined) return undefined;
  const store = textDecoder.decode(name.value);
  if (k[9] === CHANGE_KEY) return { kind: "key", version, store, key: k.slice(name.next) };
  if (k[9] === CHANGE_STORE) return { kind: "store", version, store };
  return undefined;
}

// store records ---------------------------------------------------------------------------------------------

export const STORES_PREFIX = Uint8Array.of(STORES);
export const storeRecordPrefix = (store: string): Uint8Array => concat(Uint8Array.of(STORES), escStore(store));
export const storeRecordKey = (store: string, version: number): Uint8Array =>
  concat(storeRecordPrefix(store), encodeVersion(version));
/** The store name of a store record key. */
export function storeRecordName(k: Uint8Array): string | undefined {
  const name = unescapeBytes(k, 1);
  return name === undefined ? undefined : textDecoder.decode(name.value);
}

/** The exclusive end of the keys starting with `prefix` (undefined: unbounded). */
export const after = (prefix: Uint8Array): Uint8Array | undefined => prefixEnd(prefix);
