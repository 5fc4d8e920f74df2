import { assert } from "../core/assert.js";
import { bytesEqual } from "../core/bytes.js";
import { ok, type Result } from "../core/errors.js";
import type { KVStore } from "../core/kv.js";
import { sortNames } from "./app-hash.js";
import type { StoreBackend } from "./backend.js";
import { CacheKVStore, type DirtyEntry } from "./cache-kv.js";
import { MemBackend } from "./mem-backend.js";
import { CacheMulti } from "./mem-multistore.js";
import type { TreeImage } from "./persistent-btree.js";
import type { PruningOptions } from "./pruning.js";
import type { CacheMultiStore, CommitId, CommitMultiStore, MultiStore, StoreError, StoreUpgrades } from "./types.js";
import { type CommittedFacts, CommittedStores } from "./versioned-committed.js";
import { type ExecutionKeyMemo, executionKeyOf } from "./versioned-key.js";
import { LatestKVStore } from "./versioned-kv.js";
import { type Move, planLoad } from "./versioned-load.js";
import { ContentHashes, stageCommit } from "./versioned-stage.js";

export { ERR_VERSION_DOES_NOT_EXIST } from "./versioned-committed.js";

export interface VersionedMultiStoreOptions {
  /** Store names the binary mounts (the reference's MountStores). */
  readonly storeNames: readonly string[];
  readonly pruning: PruningOptions;
  /** Existing storage to open (default: a new empty MemBackend). */
  readonly backend?: StoreBackend;
  /** Version of the first commit (InitChain's initial height); default 1. */
  readonly initialVersion?: number;
}

export const NO_STORE_UPGRADES: StoreUpgrades = Object.freeze({ added: [], renamed: [], deleted: [] });

const notMounted = (name: string): Error => new Error(`store does not exist for key: ${name}`);

/**
 * The committing multistore: named module stores over one raw backend, with a version per commit.
 *
 * State model: the last commit (in the backend: `CommittedStores`, versioned-committed.ts) plus the working state,
 * one CacheKVStore per live store holding the current block's uncommitted writes. `commit()` turns the working
 * writes into version last+1 (staged by versioned-stage.ts); a block that wrote nothing costs O(number of stores)
 * and one metadata write, with no copy of any state. History is multi-version: each change is one entry keyed
 * (store, key, version), so reading version v is a seek to the newest entry <= v. Pruning runs synchronously at
 * commit (pruning.ts) and deletes only superseded entries, driven by per-version change records.
 *
 * Mounting follows the reference: the mounted names are what the binary declares; loading
 * (`loadLatestVersion[AndUpgrade]`) reconciles them with the last commit. Before the first commit every
 * mounted store is live at once. Working KVStore objects are stable across commits (a keeper may hold one);
 * branches (`branch()`) must not outlive a commit or a load.
 */
export class VersionedMultiStore implements CommitMultiStore {
  readonly #c: CommittedStores;
  readonly #mounted = new Set<string>();
  /** Live stores of the working state. */
  readonly #working = new Map<string, CacheKVStore>();
  #liveSorted: readonly string[] = [];
  /** Renames applied by the last load and not yet committed; discardWorking re-applies them. */
  #pendingMoves: readonly Move[] = [];
  /** The mounted names in byte order, joined (part of executionKey); undefined when not computed. */
  #mountedKey: string | undefined;
  readonly #hashes = new ContentHashes();
  /** The last execution key with the parts it was built from (see executionKey). */
  #key: ExecutionKeyMemo | undefined;
  /** The last answer of #liveCoversCommitted with what it was computed from. */
  #covers:
    | {
        readonly committed: ReadonlyMap<string, Uint8Array>;
        readonly live: readonly string[];
        readonly covers: boolean;
      }
    | undefined;

  /** Opens the stores over `opts.backend` (default: a new empty one). `origin`: only for this class's own copies. */
  constructor(opts: VersionedMultiStoreOptions, origin?: Origin) {
    const backend = opts.backend ?? new MemBackend();
    this.#c = new CommittedStores(backend, opts.pruning, opts.initialVersion ?? 1, origin?.facts);
    for (const n of opts.storeNames) this.#mounted.add(n);
    if (origin?.working !== undefined) {
      for (const [name, entries] of origin.working) this.#working.set(name, this.#cacheWith(name, entries));
      this.#pendingMoves = origin.pendingMoves;
      return;
    }
    // Provisional load: mounted stores that the last commit has (all of them before any commit). Call
    // loadLatestVersion[AndUpgrade] to get the reference's checks.
    const c = this.#c;
    for (const n of this.#mounted) if (c.latest === 0 || c.committed.has(n)) this.#addLive(n);
    this.#sortLive();
  }

  // ---- mounting and the working state --------------------------------------------------------------------

  /** Declares a store (idempotent). Live at once before the first commit; afterwards only through a load. */
  mountStore(name: string): void {
    this.#mounted.add(name);
    this.#mountedKey = undefined;
    if (this.#c.latest === 0 && !this.#working.has(name)) {
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
    return this.#c.lastCommit;
  }
  /** The last committed version, 0 before any commit. */
  latestVersion(): number {
    return this.#c.latest;
  }
  /** The earliest retained version, 0 before any commit. */
  earliestVersion(): number {
    return this.#c.earliest;
  }
  get pruning(): PruningOptions {
    return this.#c.pruning;
  }

  /** A read-only view of a retained version (a snapshot: later commits and pruning do not affect it). */
  readAt(version: number): Result<MultiStore, StoreError> {
    return this.#c.readAt(version);
  }

  appHashAt(version: number): Result<Uint8Array, StoreError> {
    return this.#c.appHashAt(version);
  }

  /**
   * Commits the working state as version last+1 (the initial version for the first commit) and prunes per the
   * pruning options. Stores not live any more (deleted, renamed away, no longer mounted) leave the commit.
   */
  commit(): CommitId {
    const c = this.#c;
    const version = c.nextVersion;
    const hashOf = (name: string, cache: CacheKVStore) => this.#contentHashOf(name, cache);
    const { batch, hashes, changed } = stageCommit(c, version, this.#liveSorted, this.#working, hashOf);
    const hash = changed ? this.#hashes.appHashOf(hashes) : c.lastCommit.appHash;
    const id = c.commit(version, batch, changed ? hashes : undefined, hash);
    for (const w of this.#working.values()) w.discard();
    this.#pendingMoves = [];
    return id;
  }

  /**
   * The app hash `commit()` would produce now, without committing: identical by construction (same per-store
   * content hashes). Lets a node compare its block result with the network's before deciding to commit.
   */
  workingAppHash(): Uint8Array {
    const c = this.#c;
    const hashes = new Map<string, Uint8Array>();
    let changed = false;
    for (const name of this.#liveSorted) {
      const cache = this.#working.get(name)!;
      const before = c.committed.get(name);
      const hash = cache.isClean() && before !== undefined ? before : this.#contentHashOf(name, cache);
      hashes.set(name, hash);
      if (before === undefined || !bytesEqual(before, hash)) changed = true;
    }
    for (const name of c.committed.keys()) if (!this.#working.has(name)) changed = true;
    if (!changed && c.latest > 0) return c.lastCommit.appHash;
    return this.#hashes.appHashOf(hashes);
  }

  #contentHashOf(name: string, cache: CacheKVStore): Uint8Array {
    return this.#hashes.of(this.#c.backend, this.#c.epoch, name, cache);
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
    const c = this.#c;
    if (c.history === undefined || !this.isWorkingClean()) return undefined;
    const mountedKey = (this.#mountedKey ??= sortNames(this.#mounted).join(","));
    this.#key = executionKeyOf(this.#key, c, mountedKey, this.#liveSorted);
    return this.#key.text;
  }

  /** True when the working state holds no uncommitted write and no pending store move. */
  isWorkingClean(): boolean {
    if (this.#pendingMoves.length > 0) return false;
    for (const c of this.#working.values()) if (!c.isClean()) return false;
    return this.#liveCoversCommitted();
  }

  /**
   * Every committed store is live. Memoized on the identities of the committed map (replaced, never mutated, by a
   * commit that changed it) and of the live names (replaced whenever the working stores change).
   */
  #liveCoversCommitted(): boolean {
    const committed = this.#c.committed;
    const m = this.#covers;
    if (m !== undefined && m.committed === committed && m.live === this.#liveSorted) return m.covers;
    let covers = true;
    for (const name of committed.keys()) if (!this.#working.has(name)) covers = false;
    this.#covers = { committed, live: this.#liveSorted, covers };
    return covers;
  }

  /**
   * Commits `count` consecutive write-free versions at once (idle blocks): one metadata write and one pruning
   * pass, whatever `count` is. Precondition: `isWorkingClean()` and at least one earlier commit. Equivalent to
   * `count` calls of `commit()` on a clean working state (tested).
   */
  commitEmpty(count: number): CommitId {
    if (count <= 0) return this.#c.lastCommit;
    if (this.#c.latest === 0 || !this.isWorkingClean()) throw new Error("commitEmpty: the working state is not clean");
    return this.#c.commitEmpty(count);
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
    const plan = planLoad(this.#mounted, this.#c, upgrades);
    if (!plan.ok) return plan;
    const { live, moves } = plan.value;
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

  #applyMove(m: Move): void {
    const target = this.#working.get(m.to);
    if (target === undefined) return;
    for (const [k, v] of new LatestKVStore(this.#c.backend, m.from).iterator(undefined, undefined)) target.set(k, v);
  }

  // ---- copies --------------------------------------------------------------------------------------------

  /**
   * An independent copy (simulation snapshots): shares the committed history through a backend fork (O(1) for
   * MemBackend) and copies the uncommitted writes. Writes to either side are invisible to the other.
   */
  clone(): VersionedMultiStore {
    // The fork holds exactly this store's commits, so the committed facts carry over instead of being re-read.
    const c = this.#c;
    const opts = { ...this.#options(), backend: c.backend.fork() };
    const copy = new VersionedMultiStore(opts, origin(c.facts(), this.#dirty(), this.#pendingMoves));
    // The same live names: the same frozen sorted array, and the same memoized key parts (equal by construction).
    copy.#liveSorted = this.#liveSorted;
    copy.#mountedKey = this.#mountedKey;
    copy.#key = this.#key;
    return copy;
  }

  /**
   * The multistore as plain data: the backend's content (shared, O(1): a persistent tree), the committed facts, the
   * mounted names and options, and the uncommitted writes (copied). `fromSnapshot` gives back a multistore that
   * behaves exactly as this one would from here, also from a structuredClone of the snapshot. Only over the
   * in-memory backend (simulated nodes); any other backend is an engine bug.
   */
  snapshot(): MultiStoreSnapshot {
    const c = this.#c;
    const backend = c.backend;
    assert(backend instanceof MemBackend, "a snapshot of a multistore over the in-memory backend");
    return {
      tree: backend.image(),
      facts: { ...c.facts(), committed: new Map(c.committed) },
      mounted: [...this.#mounted],
      pruning: c.pruning,
      initialVersion: c.initialVersion,
      working: this.#dirty(),
      pendingMoves: this.#pendingMoves,
    };
  }

  static fromSnapshot(snap: MultiStoreSnapshot): VersionedMultiStore {
    const { mounted: storeNames, pruning, initialVersion } = snap;
    const opts = { storeNames, pruning, backend: MemBackend.fromImage(snap.tree), initialVersion };
    const facts = { ...snap.facts, committed: new Map(snap.facts.committed) };
    const c = new VersionedMultiStore(opts, origin(facts, snap.working, snap.pendingMoves));
    c.#sortLive();
    return c;
  }

  /**
   * A new multistore over the same backend, as a restarted binary sees it: uncommitted writes are gone and the
   * mounted names are `storeNames`. Call a load on it next; this instance must not be used afterwards.
   */
  reopen(storeNames: readonly string[], pruning: PruningOptions = this.#c.pruning): VersionedMultiStore {
    const c = this.#c;
    // Same backend, so the same committed facts: carried over instead of being re-read.
    return new VersionedMultiStore(
      { storeNames, pruning, backend: c.backend, initialVersion: c.initialVersion },
      origin(c.facts(c.historyReopenedWith(pruning)), undefined, []),
    );
  }

  #options(): VersionedMultiStoreOptions {
    return { storeNames: [...this.#mounted], pruning: this.#c.pruning, initialVersion: this.#c.initialVersion };
  }

  /** Live stores in working order, each with its uncommitted writes (copied). */
  #dirty(): readonly (readonly [string, readonly DirtyEntry[]])[] {
    return [...this.#working].map(([name, cache]) => [name, [...cache.dirtyEntries()]]);
  }

  // ---- helpers -------------------------------------------------------------------------------------------

  #addLive(name: string): void {
    this.#working.set(name, new CacheKVStore(new LatestKVStore(this.#c.backend, name)));
  }
  /** A working cache of `name` holding `entries` (undefined value: a delete). */
  #cacheWith(name: string, entries: Iterable<DirtyEntry>): CacheKVStore {
    const cache = new CacheKVStore(new LatestKVStore(this.#c.backend, name));
    for (const [k, v] of entries) {
      if (v === undefined) cache.delete(k);
      else cache.set(k, v);
    }
    return cache;
  }
  #sortLive(): void {
    this.#liveSorted = Object.freeze(sortNames(this.#working.keys()));
  }
}

/** A VersionedMultiStore as plain data (see `snapshot`). */
export interface MultiStoreSnapshot {
  readonly tree: TreeImage<Uint8Array>;
  readonly facts: CommittedFacts;
  readonly mounted: readonly string[];
  readonly pruning: PruningOptions;
  readonly initialVersion: number;
  /** Live stores in working order, each with its uncommitted writes (undefined: a delete). */
  readonly working: readonly (readonly [string, readonly DirtyEntry[]])[];
  readonly pendingMoves: readonly Move[];
}

declare const ORIGIN: unique symbol;
/**
 * How a copy made here opens: its backend's committed facts (not re-read), and, for a clone or a snapshot, its
 * working state (`working`: the live stores with their uncommitted writes; without it, the provisional load of a
 * fresh open). Only this module can write the brand, so no other caller passes one.
 */
interface Origin {
  readonly [ORIGIN]: true;
  readonly facts: CommittedFacts;
  readonly working: readonly (readonly [string, readonly DirtyEntry[]])[] | undefined;
  readonly pendingMoves: readonly Move[];
}

const origin = (facts: CommittedFacts, working: Origin["working"], pendingMoves: readonly Move[]): Origin =>
  ({ facts, working, pendingMoves }) as unknown as Origin;
