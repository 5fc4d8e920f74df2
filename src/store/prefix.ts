import { prefixEnd } from "../core/bytes.js";
import type { KVStore } from "../core/kv.js";

/** Iterates every entry whose key starts with `prefix`, in byte order. */
export const prefixIterator = (store: KVStore, prefix: Uint8Array) => store.iterator(prefix, prefixEnd(prefix));

/** Iterates every entry whose key starts with `prefix`, in reverse byte order. */
export const reversePrefixIterator = (store: KVStore, prefix: Uint8Array) =>
  store.reverseIterator(prefix, prefixEnd(prefix));
