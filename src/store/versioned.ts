import { assert } from "../core/assert.js";
import { bytesEqual, concat, toHex, utf8 } from "../core/bytes.js";
import { err, ok, plain, type Result } from "../core/errors.js";
import type { KVStore } from "../core/kv.js";
import { sha256Of } from "../core/sha256.js";
import { appHash, ContentHashStream, contentHash, sortNames } from "./app-hash.js";
import type { BackendWrite, StoreBackend } from "./backend.js";
import { CacheKVStore, type DirtyEntry, mergeDirty } from "./cache-kv.js";
import {
  after,
  changeVersionPrefix,
  decodeChange,
  decodeVersion,
  encodeVersion,
  escapeBytes,
  historyKey,
  historyKeyPrefix,
  historyStorePrefix,
  isPresent,
  keyChange,
  keyChangePrefix,
  latestKey,
  latestStorePrefix,
  latestStoreRange,
  META_COMPACTED,
  META_EARLIEST,
  META_LATEST,
  STORES_PREFIX,
  storeChange,
  storeRecordKey,
  storeRecordName,
  storeRecordPrefix,
  TOMBSTONE,
  tagValue,
  untag,
} from "./layout.js";
import { MemBackend } from "./mem-backend.js";
import { CacheMulti } from "./mem-multistore.js";
import type { TreeImage } from "./persistent-btree.js";
import { type PruningOptions, prunesAt } from "./pruning.js";
import type { CacheMultiStore, CommitId, CommitMultiStore, MultiStore, StoreError, StoreUpgrades } from "./types.js";
import { VersionView } from "./version-view.js";
import { LatestKVStore } from "./versioned-kv.js";

export interface VersionedMultiStoreOptions {
  /** Store names the binary mounts (the reference's MountStores). */
  readonly storeNames: readonly string[];
  readonly pruning: PruningOptions;
  /** Existing storage to open (default: a new empty MemBackend). */
  readonly backend?: StoreBackend;
  /** Version of the first commit (InitChain's initial height); default 1. */
  readonly initialVersion?: number;
}

/** The iavl ErrVersionDoesNotExist text, returned for pruned, future and never-committed versions. */
export const ERR_VERSION_DOES_NOT_EXIST =
  "version mismatch on immutable IAVL tree; version does not exist. Version has either been pruned, or is for a future block height";

export const NO_STORE_UPGRADES: StoreUpgrades = Object.freeze({ added: [], renamed: [], deleted: [] });

const EMPTY = new Uint8Array(0);

interface Move {
  readonly from: string;
  readonly to: string;
}

const notMounted = (name: string): Error => new Error(`store does not exist for key: ${name}`);

/**
 * The committing multistore: named module stores over one raw backend, with a version per commit.
 *
 * State model: the last commit (in the backend) plus the working state, one CacheKVStore per live store
 * holding the current block's uncommitted writes. `commit()` turns the working writes into version last+1;
 * a block that wrote nothing costs O(number of stores) and one metadata write, with no copy of any state.
 * History is multi-version: each change is one entry keyed (store, key, version), so reading version v is a
 * seek to the newest entry <= v. Pruning runs synchronously at commit (pruning.ts) and deletes only
 * superseded entries, driven by per-version change records.
 *
 * Mounting follows the reference: the mounted names are what the binary declares; loading
 * (`loadLatestVersion[AndUpgrade]`) reconciles them with the last commit. Before the first commit every
 * mounted store is live at once. Working KVStore objects are stable across commits (a keeper may hold one);
 * branches (`branch()`) must not outlive a commit or a load.
 */
export class VersionedMultiStore implements CommitMultiStore {
  readonly #backend: StoreBackend;
  readonly #pruning: PruningOptions;
  readonly #initialVersion: number;
  readonly #mounted = new Set<string>();
  /** Live stores of the working state. */
  readonly #working = new Map<string, CacheKVStore>();
  #liveSorted: readonly string[] = [];
  /** Content hash of every store in the last commit. */
  #committed = new Map<string, Uint8Array>();
  #latest: number;
  #earliest: number;
  /** Change records of versions <= this have been compacted away. */
  #compacted: number;
  #lastCommit: CommitId;
  /** Renames applied by the last load and not yet committed; discardWorking re-applies them. */
  #pendingMoves: readonly Move[] = [];
  /**
   * Digest of the committed history (hex): every commit that changed the app hash folds in (version, app hash),
   * every reopen with other pruning options folds in (version, options). Commits that keep the app hash write no
   * content, so with the latest version it pins the content of every version. undefined when unknown (a store
   * opened over a foreign backend that has commits).
   */
  #history: string | undefined;
  /** The mounted names in byte order, joined (part of executionKey); undefined when not computed. */
  #mountedKey: string | undefined;
  /** Bumped at every backend write: memoized content hashes are valid for one epoch. */
  #epoch = 0;
  /** Content hashes of working caches, valid while the cache's generation and the epoch are unchanged. */
  #hashMemo = new WeakMap<CacheKVStore, { readonly epoch: number; readonly generation: number; hash: Uint8Array }>();
  /** The last app hash computed from per-store hashes, reused when the same hashes come again. */
  #appHashMemo: { readonly hashes: ReadonlyMap<string, Uint8Array>; readonly hash: Uint8Array } | undefined;

  /** Opens the stores over `opts.backend` (default: a new empty one). `origin`: only for this class's own copies. */
  constructor(opts: VersionedMultiStoreOptions, origin?: Origin) {
    this.#backend = opts.backend ?? new MemBackend();
    this.#pruning = opts.pruning;
    this.#initialVersion = opts.initialVersion ?? 1;
    const seed = origin?.facts;
    this.#latest = seed?.latest ?? this.#readMeta(META_LATEST);
    this.#earliest = seed?.earliest ?? this.#readMeta(META_EARLIEST);
    this.#compacted = seed?.compacted ?? this.#readMeta(META_COMPACTED);
    if (seed !== undefined) {
      // Never mutated in place (a commit replaces it), so a clone shares it; a snapshot's copy is its own.
      this.#committed = seed.committed as Map<string, Uint8Array>;
      this.#lastCommit = seed.lastCommit;
      this.#history = seed.history;
    } else if (this.#latest > 0) {
      this.#committed = this.#storesAt(this.#latest);
      this.#lastCommit = { version: this.#latest, appHash: appHash(this.#committed) };
      this.#history = undefined;
    } else {
      this.#lastCommit = { version: 0, appHash: EMPTY };
      this.#history = foldPruning("", 0, this.#pruning);
    }
    for (const n of opts.storeNames) this.#mounted.add(n);
    if (origin?.bare === true) return;
    // Provisional load: mounted stores that the last commit has (all of them before any commit). Call
    // loadLatestVersion[AndUpgrade] to get the reference's checks.
    for (const n of this.#mounted) if (this.#latest === 0 || this.#committed.has(n)) this.#addLive(n);
    this.#sortLive();
  }

  // ---- mounting and the working state --------------------------------------------------------------------

  /** Declares a store (idempotent). Live at once before the first commit; afterwards only through a load. */
  mountStore(name: string): void {
    this.#mounted.add(name);
    this.#mountedKey = undefined;
    if (this.#latest === 0 && !this.#working.has(name)) {
      this.#addLive(name);
      this.#sortLive();
    }
  }

  /** The working state of a live store: uncommitted writes of the current block over the last commit. */
  getKVStore(name: string): KVStore {
    const s = this.#working.get(name);
    if (s === undefined) throw notMounted(name);
    return s;
  }
  hasStore(name: string): boolean {
    return this.#working.has(name);
  }
  /** Live store names in byte order. */
  storeNames(): readonly string[] {
    return this.#liveSorted;
  }
  /** A cache over the working state: `write()` flushes into it, dropping the branch discards. */
  branch(): CacheMultiStore {
    return new CacheMulti(this);
  }
  /** Drops the uncommitted writes (a halted block commits nothing); renames of the last load are redone. */
  discardWorking(): void {
    for (const c of this.#working.values()) c.discard();
    for (const m of this.#pendingMoves) this.#applyMove(m);
  }

  // ---- versions ------------------------------------------------------------------------------------------

  lastCommitId(): CommitId {
    return this.#lastCommit;
  }
  /** The last committed version, 0 before any commit. */
  latestVersion(): number {
    return this.#latest;
  }
  /** The earliest retained version, 0 before any commit. */
  earliestVersion(): number {
    return this.#latest === 0 ? 0 : this.#earliest;
  }
  get pruning(): PruningOptions {
    return this.#pruning;
  }

  #retained(version: number): boolean {
    return this.#latest > 0 && Number.isSafeInteger(version) && version >= this.#earliest && version <= this.#latest;
  }

  /** A read-only view of a retained version (a snapshot: later commits and pruning do not affect it). */
  readAt(version: number): Result<MultiStore, StoreError> {
    if (!this.#retained(version)) return err(plain(ERR_VERSION_DOES_NOT_EXIST));
    const isLatest = version === this.#latest;
    const names = isLatest ? this.#committed : this.#storesAt(version);
    return ok(new VersionView(this.#backend.fork(), version, sortNames(names.keys()), isLatest));
  }

  appHashAt(version: number): Result<Uint8Array, StoreError> {
    if (!this.#retained(version)) return err(plain(ERR_VERSION_DOES_NOT_EXIST));
    return ok(version === this.#latest ? this.#lastCommit.appHash : appHash(this.#storesAt(version)));
  }

  /**
   * Commits the working state as version last+1 (the initial version for the first commit) and prunes per the
   * pruning options. Stores not live any more (deleted, renamed away, no longer mounted) leave the commit.
   */
  commit(): CommitId {
    const version = this.#latest === 0 ? this.#initialVersion : this.#latest + 1;
    const track = this.#pruning.strategy !== "nothing";
    const batch: BackendWrite[] = [];
    const hashes = new Map<string, Uint8Array>();
    let changed = false;
    for (const name of this.#liveSorted) {
      const cache = this.#working.get(name)!;
      const before = this.#committed.get(name);
      const wrote = !cache.isClean() && this.#stageWrites(name, cache, version, track, batch);
      const hash = wrote || before === undefined ? this.#contentHashOf(name, cache) : before;
      hashes.set(name, hash);
      if (before === undefined || !bytesEqual(before, hash)) {
        changed = true;
        batch.push({ key: storeRecordKey(name, version), value: tagValue(hash) });
        if (track) batch.push({ key: storeChange(version, name), value: EMPTY });
      }
    }
    for (const name of this.#committed.keys()) {
      if (this.#working.has(name)) continue;
      changed = true;
      this.#stageRemoval(name, version, track, batch);
    }
    batch.push({ key: META_LATEST, value: encodeVersion(version) });
    if (this.#latest === 0) batch.push({ key: META_EARLIEST, value: encodeVersion(version) });
    this.#backend.write(batch);
    this.#epoch++;

    for (const c of this.#working.values()) c.discard();
    this.#pendingMoves = [];
    if (this.#latest === 0) this.#earliest = version;
    this.#latest = version;
    if (changed) this.#committed = hashes;
    const hash = changed ? this.#appHashOf(hashes) : this.#lastCommit.appHash;
    if (this.#history !== undefined && !bytesEqual(hash, this.#lastCommit.appHash))
      this.#history = foldHistory(this.#history, version, hash);
    this.#lastCommit = { version, appHash: hash };
    this.#prune(version);
    return this.#lastCommit;
  }

  /**
   * The app hash `commit()` would produce now, without committing: identical by construction (same per-store
   * content hashes). Lets a node compare its block result with the network's before deciding to commit.
   */
  workingAppHash(): Uint8Array {
    const hashes = new Map<string, Uint8Array>();
    let changed = false;
    for (const name of this.#liveSorted) {
      const cache = this.#working.get(name)!;
      const before = this.#committed.get(name);
      const hash = cache.isClean() && before !== undefined ? before : this.#contentHashOf(name, cache);
      hashes.set(name, hash);
      if (before === undefined || !bytesEqual(before, hash)) changed = true;
    }
    for (const name of this.#committed.keys()) if (!this.#working.has(name)) changed = true;
    if (!changed && this.#latest > 0) return this.#lastCommit.appHash;
    return this.#appHashOf(hashes);
  }

  /** appHash(hashes), reusing the last result when the per-store hashes are the same (workingAppHash, then commit). */
  #appHashOf(hashes: ReadonlyMap<string, Uint8Array>): Uint8Array {
    const m = this.#appHashMemo;
    if (m !== undefined && sameHashes(m.hashes, hashes)) return m.hash;
    const hash = appHash(hashes);
    this.#appHashMemo = { hashes, hash };
    return hash;
  }

  /** The content hash of a live store after its buffered writes, memoized until the cache or the backend changes. */
  #contentHashOf(name: string, cache: CacheKVStore): Uint8Array {
    const m = this.#hashMemo.get(cache);
    if (m !== undefined && m.epoch === this.#epoch && m.generation === cache.generation) return m.hash;
    const backend = this.#backend;
    const hash =
      backend instanceof MemBackend
        ? mergedContentHash(backend, name, cache)
        : contentHash(this.#mergedContent(name, cache));
    this.#hashMemo.set(cache, { epoch: this.#epoch, generation: cache.generation, hash });
    return hash;
  }

  /**
   * What the next block's execution and commit depend on in this store, as a string; undefined when it cannot be
   * vouched for (working writes or pending moves, or an unknown history). Equal keys mean equal stores:
   * - the same content at every version: the history digests are equal (same app hash after every version that
   *   changed it; an app hash pins the content) and so are the latest versions;
   * - the same backend: its entries are a function of that content sequence (latest index, history entries and
   *   store records are written exactly where content changed; change records exactly while the pruning options
   *   track, which the digest records), of the compaction point (pruning deletes, for every change at or below
   *   it, the superseded entries, whatever the heights it ran at) and of the metadata versions, all in the key;
   * - the same mounted and live stores, the same pruning options, and an empty working state.
   * So the same writes commit to equal stores, and a clone of one can stand for the other.
   */
  executionKey(): string | undefined {
    if (this.#history === undefined || !this.isWorkingClean()) return undefined;
    const mountedKey = (this.#mountedKey ??= sortNames(this.#mounted).join(","));
    // The key is read per node and block; it is rebuilt only when one of its parts changed (each part is a
    // primitive, or an object replaced, never mutated, when it changes).
    const k = this.#key;
    if (
      k !== undefined &&
      k.history === this.#history &&
      k.latest === this.#latest &&
      k.earliest === this.earliestVersion() &&
      k.compacted === this.#compacted &&
      k.initialVersion === this.#initialVersion &&
      k.pruning === this.#pruning &&
      k.mountedKey === mountedKey &&
      k.live === this.#liveSorted
    )
      return k.text;
    const text = [
      this.#history,
      this.#latest,
      this.earliestVersion(),
      this.#compacted,
      this.#initialVersion,
      pruningText(this.#pruning),
      mountedKey,
      this.#liveSorted.join(","),
    ].join("|");
    this.#key = {
      history: this.#history,
      latest: this.#latest,
      earliest: this.earliestVersion(),
      compacted: this.#compacted,
      initialVersion: this.#initialVersion,
      pruning: this.#pruning,
      mountedKey,
      live: this.#liveSorted,
      text,
    };
    return text;
  }
  #key:
    | {
        readonly history: string;
        readonly latest: number;
        readonly earliest: number;
        readonly compacted: number;
        readonly initialVersion: number;
        readonly pruning: PruningOptions;
        readonly mountedKey: string;
        readonly live: readonly string[];
        readonly text: string;
      }
    | undefined;

  /** True when the working state holds no uncommitted write and no pending store move. */
  isWorkingClean(): boolean {
    if (this.#pendingMoves.length > 0) return false;
    for (const c of this.#working.values()) if (!c.isClean()) return false;
    for (const name of this.#committed.keys()) if (!this.#working.has(name)) return false;
    return true;
  }

  /**
   * Commits `count` consecutive write-free versions at once (idle blocks): one metadata write and one pruning
   * pass, whatever `count` is. Precondition: `isWorkingClean()` and at least one earlier commit. Equivalent to
   * `count` calls of `commit()` on a clean working state (tested).
   */
  commitEmpty(count: number): CommitId {
    if (count <= 0) return this.#lastCommit;
    if (this.#latest === 0 || !this.isWorkingClean()) throw new Error("commitEmpty: the working state is not clean");
    const version = this.#latest + count;
    this.#backend.write([{ key: META_LATEST, value: encodeVersion(version) }]);
    this.#epoch++;
    const from = this.#latest;
    this.#latest = version;
    this.#lastCommit = { version, appHash: this.#lastCommit.appHash };
    // Pruning targets grow with the height, so the last pruning height in (from, version] decides alone.
    const p = this.#pruning;
    if (p.strategy !== "nothing" && p.interval > 0) {
      const last = version - (version % p.interval);
      if (last > from && prunesAt(last, p)) this.#prune(last);
    }
    return this.#lastCommit;
  }

  /** Stages the effective writes of one store; false when every write left the committed value unchanged. */
  #stageWrites(name: string, cache: CacheKVStore, version: number, track: boolean, batch: BackendWrite[]): boolean {
    let any = false;
    // The keys of layout.ts (latestKey, historyKey, keyChange), built from the store's prefixes computed once.
    const { prefix: latest, prefixLatin1 } = latestStoreRange(name);
    const history = historyStorePrefix(name);
    const changes = keyChangePrefix(version, name);
    const v8 = encodeVersion(version);
    // The committed value is read by the latin1 key the cache already holds when the backend is the in-memory one.
    const mem = this.#backend instanceof MemBackend ? this.#backend : undefined;
    for (const h of cache.dirtyKeysLatin1()) {
      const [k, v] = cache.dirtyEntry(h)!;
      const cur = mem === undefined ? this.#backend.get(concat(latest, k)) : mem.getLatin1(prefixLatin1 + h);
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

  /**
   * The store's entries after its buffered writes, in key order: a streaming merge of the latest index (raw
   * subarrays, no copies) with the sorted dirty entries. Used only to hash, before the commit batch is written.
   */
  #mergedContent(name: string, cache: CacheKVStore): Iterable<readonly [Uint8Array, Uint8Array]> {
    const prefix = latestStorePrefix(name);
    const latest = function* (backend: StoreBackend): Generator<readonly [Uint8Array, Uint8Array]> {
      for (const [rk, t] of backend.iterator(prefix, after(prefix))) yield [rk.subarray(prefix.length), untag(t)];
    };
    return mergeDirty(latest(this.#backend), cache.dirtyEntries());
  }

  /** Stages the removal of a committed store: every key deleted at `version`, its record tombstoned. */
  #stageRemoval(name: string, version: number, track: boolean, batch: BackendWrite[]): void {
    for (const [k] of new LatestKVStore(this.#backend, name).iterator(undefined, undefined)) {
      batch.push(
        { key: historyKey(name, k, version), value: TOMBSTONE },
        { key: latestKey(name, k), value: undefined },
      );
      if (track) batch.push({ key: keyChange(version, name, k), value: EMPTY });
    }
    batch.push({ key: storeRecordKey(name, version), value: TOMBSTONE });
    if (track) batch.push({ key: storeChange(version, name), value: EMPTY });
  }

  /**
   * At a pruning height, moves the earliest version to height - keepRecent and deletes the history entries no
   * retained version can read: for every change at a version w <= new earliest, the entries of that key older
   * than w, and the entry at w itself when it is a deletion.
   */
  #prune(height: number): void {
    if (!prunesAt(height, this.#pruning)) return;
    const target = height - this.#pruning.keepRecent;
    if (target <= this.#earliest) return;
    const batch: BackendWrite[] = [];
    if (target > this.#compacted) {
      const from = changeVersionPrefix(this.#compacted + 1);
      const to = changeVersionPrefix(target + 1);
      for (const [ck] of this.#backend.iterator(from, to)) {
        batch.push({ key: ck, value: undefined });
        const c = decodeChange(ck);
        if (c === undefined) continue;
        const group = c.kind === "key" ? historyKeyPrefix(c.store, c.key) : storeRecordPrefix(c.store);
        this.#dropSuperseded(group, c.version, batch);
      }
      this.#compacted = target;
      batch.push({ key: META_COMPACTED, value: encodeVersion(target) });
    }
    this.#earliest = target;
    batch.push({ key: META_EARLIEST, value: encodeVersion(target) });
    this.#backend.write(batch);
    this.#epoch++;
  }

  #dropSuperseded(group: Uint8Array, version: number, batch: BackendWrite[]): void {
    const at = concat(group, encodeVersion(version));
    for (const [k] of this.#backend.iterator(group, at)) batch.push({ key: k, value: undefined });
    const t = this.#backend.get(at);
    if (t !== undefined && !isPresent(t)) batch.push({ key: at, value: undefined });
  }

  // ---- loading and store upgrades ------------------------------------------------------------------------

  /** LoadLatestVersion: reconciles the mounted stores with the last commit, dropping uncommitted writes. */
  loadLatestVersion(): Result<void, StoreError> {
    return this.loadLatestVersionAndUpgrade(NO_STORE_UPGRADES);
  }

  /**
   * LoadLatestVersionAndUpgrade (reference rootmulti loadVersion). Over the mounted stores in name byte order:
   * an added or rename-target store starts empty and must not exist in the last commit; any other mounted store
   * must exist in it (unless nothing is committed yet); a deleted store leaves the working state; a renamed
   * store receives the old store's data (none when the old store does not exist) and the old name leaves.
   * Names that are not mounted are ignored, as in the reference. Takes effect in the working state: the next
   * commit records it. On error nothing changes.
   */
  loadLatestVersionAndUpgrade(upgrades: StoreUpgrades): Result<void, StoreError> {
    const ver = this.#latest;
    const renamedFrom = (name: string): string | undefined => upgrades.renamed.find((r) => r.newKey === name)?.oldKey;
    const live: string[] = [];
    const moves: Move[] = [];
    for (const name of sortNames(this.#mounted)) {
      const from = renamedFrom(name);
      if (upgrades.added.includes(name) || from !== undefined) {
        if (this.#committed.has(name))
          return err(
            plain(
              `failed to load store: initial version set to ${ver + 1}, but found earlier version ${this.#firstVersion(name)}`,
            ),
          );
      } else if (ver !== 0 && !this.#committed.has(name)) {
        return err(
          plain(
            `version of store ${name} mismatch root store's version; expected ${ver} got 0; new stores should be added using StoreUpgrades`,
          ),
        );
      }
      if (upgrades.deleted.includes(name)) continue;
      live.push(name);
      if (from !== undefined) moves.push({ from, to: name });
    }
    const movedAway = new Set(moves.map((m) => m.from));
    for (const name of [...this.#working.keys()]) if (!live.includes(name)) this.#working.delete(name);
    for (const name of live) {
      if (movedAway.has(name)) this.#working.delete(name);
      else if (this.#working.has(name)) this.#working.get(name)!.discard();
      else this.#addLive(name);
    }
    this.#sortLive();
    for (const m of moves) this.#applyMove(m);
    this.#pendingMoves = moves;
    return ok(undefined);
  }

  /** The reference IAVL tree's first version for a committed store: where its current lifetime started. */
  #firstVersion(name: string): number {
    const prefix = storeRecordPrefix(name);
    let first = this.#earliest;
    for (const [k, t] of this.#backend.reverseIterator(prefix, concat(prefix, encodeVersion(this.#latest + 1)))) {
      if (!isPresent(t)) break;
      first = decodeVersion(k, k.length - 8);
    }
    return Math.max(first, this.#earliest);
  }

  #applyMove(m: Move): void {
    const target = this.#working.get(m.to);
    if (target === undefined) return;
    for (const [k, v] of new LatestKVStore(this.#backend, m.from).iterator(undefined, undefined)) target.set(k, v);
  }

  // ---- copies --------------------------------------------------------------------------------------------

  /**
   * An independent copy (simulation snapshots): shares the committed history through a backend fork (O(1) for
   * MemBackend) and copies the uncommitted writes. Writes to either side are invisible to the other.
   */
  clone(): VersionedMultiStore {
    // The fork holds exactly this store's commits, so the committed facts carry over instead of being re-read.
    const [storeNames, backend, initialVersion] = [[...this.#mounted], this.#backend.fork(), this.#initialVersion];
    const opts = { storeNames, pruning: this.#pruning, backend, initialVersion };
    const c = new VersionedMultiStore(opts, origin(this.#committedFacts(this.#history), true));
    for (const [name, cache] of this.#working) {
      const copy = new CacheKVStore(new LatestKVStore(c.#backend, name));
      for (const [k, v] of cache.dirtyEntries()) {
        if (v === undefined) copy.delete(k);
        else copy.set(k, v);
      }
      c.#working.set(name, copy);
    }
    // The same live names: the same frozen sorted array, and the same memoized key parts (equal by construction).
    c.#liveSorted = this.#liveSorted;
    c.#mountedKey = this.#mountedKey;
    c.#key = this.#key;
    c.#pendingMoves = this.#pendingMoves;
    return c;
  }

  /**
   * The multistore as plain data: the backend's content (shared, O(1): a persistent tree), the committed facts, the
   * mounted names and options, and the uncommitted writes (copied). `fromSnapshot` gives back a multistore that
   * behaves exactly as this one would from here, also from a structuredClone of the snapshot. Only over the
   * in-memory backend (simulated nodes); any other backend is an engine bug.
   */
  snapshot(): MultiStoreSnapshot {
    const backend = this.#backend;
    assert(backend instanceof MemBackend, "a snapshot of a multistore over the in-memory backend");
    return {
      tree: backend.image(),
      facts: { ...this.#committedFacts(this.#history), committed: new Map(this.#committed) },
      mounted: [...this.#mounted],
      pruning: this.#pruning,
      initialVersion: this.#initialVersion,
      working: [...this.#working].map(([name, cache]) => [name, [...cache.dirtyEntries()]]),
      pendingMoves: this.#pendingMoves,
    };
  }

  static fromSnapshot(snap: MultiStoreSnapshot): VersionedMultiStore {
    const { mounted: storeNames, pruning, initialVersion } = snap;
    const opts = { storeNames, pruning, backend: MemBackend.fromImage(snap.tree), initialVersion };
    const c = new VersionedMultiStore(opts, origin({ ...snap.facts, committed: new Map(snap.facts.committed) }, true));
    for (const [name, entries] of snap.working) {
      const cache = new CacheKVStore(new LatestKVStore(c.#backend, name));
      for (const [k, v] of entries) {
        if (v === undefined) cache.delete(k);
        else cache.set(k, v);
      }
      c.#working.set(name, cache);
    }
    c.#sortLive();
    c.#pendingMoves = snap.pendingMoves;
    return c;
  }

  /**
   * A new multistore over the same backend, as a restarted binary sees it: uncommitted writes are gone and the
   * mounted names are `storeNames`. Call a load on it next; this instance must not be used afterwards.
   */
  reopen(storeNames: readonly string[], pruning: PruningOptions = this.#pruning): VersionedMultiStore {
    const same = pruningText(pruning) === pruningText(this.#pruning);
    const history =
      this.#history === undefined || same ? this.#history : foldPruning(this.#history, this.#latest, pruning);
    // Same backend, so the same committed facts: carried over instead of being re-read.
    return new VersionedMultiStore(
      { storeNames, pruning, backend: this.#backend, initialVersion: this.#initialVersion },
      origin(this.#committedFacts(history), false),
    );
  }

  /** What the backend says about the commits (metadata versions, last commit), as this instance holds it. */
  #committedFacts(history: string | undefined): CloneSeed {
    return {
      latest: this.#latest,
      earliest: this.#earliest,
      compacted: this.#compacted,
      committed: this.#committed,
      lastCommit: this.#lastCommit,
      history,
    };
  }

  // ---- helpers -------------------------------------------------------------------------------------------

  #addLive(name: string): void {
    this.#working.set(name, new CacheKVStore(new LatestKVStore(this.#backend, name)));
  }
  #sortLive(): void {
    this.#liveSorted = Object.freeze(sortNames(this.#working.keys()));
  }
  #readMeta(key: Uint8Array): number {
    const v = this.#backend.get(key);
    return v === undefined ? 0 : decodeVersion(v, 0);
  }
  /** Every store present at `version` with its content hash (the newest record <= version per store). */
  #storesAt(version: number): Map<string, Uint8Array> {
    const out = new Map<string, Uint8Array>();
    const end = after(STORES_PREFIX);
    const versionEnd = encodeVersion(version + 1);
    let lo: Uint8Array = STORES_PREFIX;
    for (;;) {
      const first = this.#backend.iterator(lo, end).next();
      if (first.done === true) return out;
      const name = storeRecordName(first.value[0]);
      if (name === undefined) return out;
      const prefix = storeRecordPrefix(name);
      const rec = this.#backend.reverseIterator(prefix, concat(prefix, versionEnd)).next();
      if (rec.done !== true && isPresent(rec.value[1])) out.set(name, untag(rec.value[1]).slice());
      const next = after(prefix);
      if (next === undefined) return out;
      lo = next;
    }
  }
}

/**
 * contentHash of a store's entries after its buffered writes, over the in-memory backend: the merge of
 * #mergedContent with keys kept in the backend's latin1 form (the caches key their writes the same way) and fed
 * to the hash stream as they are, so no entry allocates. Same entries, same order, same hash (tested against
 * #mergedContent: the store tests run both backends' paths, the model test compares with a from-scratch hash).
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

/** The history digest after a commit of `version` that changed the app hash to `hash`. */
function foldHistory(history: string, version: number, hash: Uint8Array): string {
  return toHex(sha256Of(concat(utf8(history), encodeVersion(version), hash)));
}

const pruningText = (p: PruningOptions): string => `${p.strategy}/${p.keepRecent}/${p.interval}`;

/** The history digest after the pruning options changed to `p` at `version` (change records start or stop). */
function foldPruning(history: string, version: number, p: PruningOptions): string {
  return toHex(sha256Of(concat(utf8(history), encodeVersion(version), utf8(pruningText(p)))));
}

/** A VersionedMultiStore as plain data (see `snapshot`). */
export interface MultiStoreSnapshot {
  readonly tree: TreeImage<Uint8Array>;
  readonly facts: CloneSeed;
  readonly mounted: readonly string[];
  readonly pruning: PruningOptions;
  readonly initialVersion: number;
  /** Live stores in working order, each with its uncommitted writes (undefined: a delete). */
  readonly working: readonly (readonly [string, readonly DirtyEntry[]])[];
  readonly pendingMoves: readonly Move[];
}

/** The committed facts clone(), reopen() and fromSnapshot() hand to the constructor of the new instance. */
interface CloneSeed {
  readonly latest: number;
  readonly earliest: number;
  readonly compacted: number;
  readonly committed: ReadonlyMap<string, Uint8Array>;
  readonly lastCommit: CommitId;
  readonly history: string | undefined;
}

declare const ORIGIN: unique symbol;
/**
 * How a copy made here opens: its backend's committed facts (not re-read), and `bare`: no working state (the copy
 * sets its own). Only this module can write the brand, so no other caller passes one.
 */
interface Origin {
  readonly [ORIGIN]: true;
  readonly facts: CloneSeed;
  readonly bare: boolean;
}

const origin = (facts: CloneSeed, bare: boolean): Origin => ({ facts, bare }) as unknown as Origin;

function sameHashes(a: ReadonlyMap<string, Uint8Array>, b: ReadonlyMap<string, Uint8Array>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, h] of a) {
    const o = b.get(name);
    if (o === undefined || !bytesEqual(o, h)) return false;
  }
  return true;
}
