import { bytesEqual, concat } from "../core/bytes.js";
import { appHash, ContentHashStream, contentHash } from "./app-hash.js";
import type { BackendWrite, StoreBackend } from "./backend.js";
import { type CacheKVStore, mergeDirty } from "./cache-kv.js";
import {
  after,
  encodeVersion,
  escapeBytes,
  historyKey,
  historyStorePrefix,
  keyChange,
  keyChangePrefix,
  latestKey,
  latestStorePrefix,
  latestStoreRange,
  storeChange,
  storeRecordKey,
  TOMBSTONE,
  tagValue,
  untag,
} from "./layout.js";
import { MemBackend } from "./mem-backend.js";
import type { CommittedStores } from "./versioned-committed.js";
import { LatestKVStore } from "./versioned-kv.js";

/**
 * Staging a commit of the versioned multistore (versioned.ts) over the key layout of layout.ts. `stageCommit` is the
 * whole commit: steps 1 and 2 for every store, and a store record (plus its change record while pruning tracks) for
 * every store whose content hash changed.
 *
 * 1. `stageWrites`: a live store's effective writes (those that change the committed value) as history entries,
 *    latest-index entries and, while pruning tracks changes, change records.
 * 2. `stageRemoval`: a committed store that left (deleted, renamed away, unmounted): every key deleted, its store
 *    record tombstoned.
 * 3. `ContentHashes`: the content hash of a live store after its buffered writes (before the batch is written)
 *    and the app hash over the stores' hashes, memoized: a store's hash while its cache's generation and the
 *    backend's epoch are unchanged, the app hash while the per-store hashes are the same.
 */
const EMPTY = new Uint8Array(0);

/** A commit staged: the writes, every live store's content hash, and whether any store's hash or the set changed. */
export interface StagedCommit {
  readonly batch: BackendWrite[];
  readonly hashes: Map<string, Uint8Array>;
  readonly changed: boolean;
}

/**
 * Stages the commit of `version`: the live stores (`live`, in byte order, with their working caches in `working`)
 * over the last commit `c`; a committed store not live any more leaves. `hashOf` is the (memoized) content hash.
 */
export function stageCommit(
  c: CommittedStores,
  version: number,
  live: readonly string[],
  working: ReadonlyMap<string, CacheKVStore>,
  hashOf: (name: string, cache: CacheKVStore) => Uint8Array,
): StagedCommit {
  const track = c.pruning.strategy !== "nothing";
  const batch: BackendWrite[] = [];
  const hashes = new Map<string, Uint8Array>();
  let changed = false;
  for (const name of live) {
    const cache = working.get(name)!;
    const before = c.committed.get(name);
    const wrote = !cache.isClean() && stageWrites(c.backend, name, cache, version, track, batch);
    const hash = wrote || before === undefined ? hashOf(name, cache) : before;
    hashes.set(name, hash);
    if (before === undefined || !bytesEqual(before, hash)) {
      changed = true;
      batch.push({ key: storeRecordKey(name, version), value: tagValue(hash) });
      if (track) batch.push({ key: storeChange(version, name), value: EMPTY });
    }
  }
  for (const name of c.committed.keys()) {
    if (working.has(name)) continue;
    changed = true;
    stageRemoval(c.backend, name, version, track, batch);
  }
  return { batch, hashes, changed };
}

/** Stages the effective writes of one store; false when every write left the committed value unchanged. */
function stageWrites(
  backend: StoreBackend,
  name: string,
  cache: CacheKVStore,
  version: number,
  track: boolean,
  batch: BackendWrite[],
): boolean {
  let any = false;
  // The keys of layout.ts (latestKey, historyKey, keyChange), built from the store's prefixes computed once.
  const { prefix: latest, prefixLatin1 } = latestStoreRange(name);
  const history = historyStorePrefix(name);
  const changes = keyChangePrefix(version, name);
  const v8 = encodeVersion(version);
  // The committed value is read by the latin1 key the cache already holds when the backend is the in-memory one.
  const mem = backend instanceof MemBackend ? backend : undefined;
  for (const h of cache.dirtyKeysLatin1()) {
    const [k, v] = cache.dirtyEntry(h)!;
    const cur = mem === undefined ? backend.get(concat(latest, k)) : mem.getLatin1(prefixLatin1 + h);
    if (v === undefined) {
      if (cur === undefined) continue;
      const lk = concat(latest, k);
      batch.push({ key: concat(history, escapeBytes(k), v8), value: TOMBSTONE }, { key: lk, value: undefined });
    } else {
      if (cur !== undefined && bytesEqual(untag(cur), v)) continue;
      const t = tagValue(v);
      const lk = concat(latest, k);
      batch.push({ key: concat(history, escapeBytes(k), v8), value: t }, { key: lk, value: t });
    }
    if (track) batch.push({ key: concat(changes, k), value: EMPTY });
    any = true;
  }
  return any;
}

/** Stages the removal of a committed store: every key deleted at `version`, its record tombstoned. */
function stageRemoval(
  backend: StoreBackend,
  name: string,
  version: number,
  track: boolean,
  batch: BackendWrite[],
): void {
  for (const [k] of new LatestKVStore(backend, name).iterator(undefined, undefined)) {
    batch.push({ key: historyKey(name, k, version), value: TOMBSTONE }, { key: latestKey(name, k), value: undefined });
    if (track) batch.push({ key: keyChange(version, name, k), value: EMPTY });
  }
  batch.push({ key: storeRecordKey(name, version), value: TOMBSTONE });
  if (track) batch.push({ key: storeChange(version, name), value: EMPTY });
}

/** Content hashes of live stores and the app hash over them, memoized (step 3 of the header). */
export class ContentHashes {
  /** Content hashes of working caches, valid while the cache's generation and the epoch are unchanged. */
  #memo = new WeakMap<CacheKVStore, { readonly epoch: number; readonly generation: number; hash: Uint8Array }>();
  /** The last app hash computed from per-store hashes, reused when the same hashes come again. */
  #appHashMemo: { readonly hashes: ReadonlyMap<string, Uint8Array>; readonly hash: Uint8Array } | undefined;

  /** The content hash of a live store after its buffered writes, memoized until the cache or the backend changes. */
  of(backend: StoreBackend, epoch: number, name: string, cache: CacheKVStore): Uint8Array {
    const m = this.#memo.get(cache);
    if (m !== undefined && m.epoch === epoch && m.generation === cache.generation) return m.hash;
    const hash =
      backend instanceof MemBackend
        ? mergedContentHash(backend, name, cache)
        : contentHash(mergedContent(backend, name, cache));
    this.#memo.set(cache, { epoch, generation: cache.generation, hash });
    return hash;
  }

  /** appHash(hashes), reusing the last result when the per-store hashes are the same (workingAppHash, then commit). */
  appHashOf(hashes: ReadonlyMap<string, Uint8Array>): Uint8Array {
    const m = this.#appHashMemo;
    if (m !== undefined && sameHashes(m.hashes, hashes)) return m.hash;
    const hash = appHash(hashes);
    this.#appHashMemo = { hashes, hash };
    return hash;
  }
}

/**
 * The store's entries after its buffered writes, in key order: a streaming merge of the latest index (raw
 * subarrays, no copies) with the sorted dirty entries. Used only to hash, before the commit batch is written.
 */
function mergedContent(
  backend: StoreBackend,
  name: string,
  cache: CacheKVStore,
): Iterable<readonly [Uint8Array, Uint8Array]> {
  const prefix = latestStorePrefix(name);
  const latest = function* (b: StoreBackend): Generator<readonly [Uint8Array, Uint8Array]> {
    for (const [rk, t] of b.iterator(prefix, after(prefix))) yield [rk.subarray(prefix.length), untag(t)];
  };
  return mergeDirty(latest(backend), cache.dirtyEntries());
}

/**
 * contentHash of a store's entries after its buffered writes, over the in-memory backend: the merge of
 * mergedContent with keys kept in the backend's latin1 form (the caches key their writes the same way) and fed
 * to the hash stream as they are, so no entry allocates. Same entries, same order, same hash (tested against
 * mergedContent: the store tests run both backends' paths, the model test compares with a from-scratch hash).
 */
function mergedContentHash(backend: MemBackend, name: string, cache: CacheKVStore): Uint8Array {
  const { prefixLatin1, endLatin1 } = latestStoreRange(name);
  const from = prefixLatin1.length;
  const dirty = cache.dirtyKeysLatin1();
  const st = new ContentHashStream();
  const putDirty = (h: string): void => {
    const value = cache.dirtyEntry(h)![1];
    if (value === undefined) return;
    st.latin1(h, 0);
    st.bytes(value, 0);
  };
  let i = 0;
  backend.forEachLatin1(prefixLatin1, endLatin1, (rk, tagged) => {
    const k = rk.slice(from);
    for (; i < dirty.length; i++) {
      const h = dirty[i]!;
      if (h > k) break;
      if (h === k) {
        i++;
        putDirty(h);
        return;
      }
      putDirty(h);
    }
    st.latin1(rk, from);
    st.bytes(tagged, 1);
  });
  for (; i < dirty.length; i++) putDirty(dirty[i]!);
  return st.digest();
}

function sameHashes(a: ReadonlyMap<string, Uint8Array>, b: ReadonlyMap<string, Uint8Array>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, h] of a) {
    const o = b.get(name);
    if (o === undefined || !bytesEqual(o, h)) return false;
  }
  return true;
}
