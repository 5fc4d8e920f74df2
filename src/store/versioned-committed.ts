import { AssertionError } from "../core/assert.js";
import { bytesEqual, concat, toHex, utf8 } from "../core/bytes.js";
import { err, ok, plain, type Result } from "../core/errors.js";
import { sha256Of } from "../core/sha256.js";
import { appHash, sortNames } from "./app-hash.js";
import type { BackendWrite, StoreBackend } from "./backend.js";
import { versionLatin1 } from "./historical-mem-kv.js";
import {
  after,
  changeVersionPrefix,
  decodeChange,
  decodeVersion,
  encodeVersion,
  historyKeyPrefix,
  isPresent,
  META_COMPACTED,
  META_EARLIEST,
  META_LATEST,
  STORES_PREFIX,
  storeRecordName,
  storeRecordPrefix,
  untag,
} from "./layout.js";
import { bytesToLatin1, latin1ToBytes, MemBackend } from "./mem-backend.js";
import { type PruningOptions, prunesAt } from "./pruning.js";
import type { CommitId, MultiStore, StoreError } from "./types.js";
import { listedStores, type MountedStores, VersionView } from "./version-view.js";

/**
 * The committed half of the versioned multistore (versioned.ts): the backend and what it says about the commits:
 * the metadata versions (latest, earliest, compacted), each store's content hash in the last commit, the last
 * commit id and the history digest. It writes a commit's staged batch with its metadata, prunes (pruning.ts,
 * synchronously at commit: only superseded entries, driven by the per-version change records), and answers reads
 * of retained versions (`readAt`, `appHashAt`). Every backend write bumps `epoch`, which invalidates the
 * multistore's memoized content hashes.
 */

/** The iavl ErrVersionDoesNotExist text, returned for pruned, future and never-committed versions. */
export const ERR_VERSION_DOES_NOT_EXIST =
  "version mismatch on immutable IAVL tree; version does not exist. Version has either been pruned, or is for a future block height";

const EMPTY = new Uint8Array(0);

/** The committed facts a copy (clone, reopen, fromSnapshot) carries over instead of re-reading its backend. */
export interface CommittedFacts {
  readonly latest: number;
  readonly earliest: number;
  readonly compacted: number;
  readonly committed: ReadonlyMap<string, Uint8Array>;
  readonly lastCommit: CommitId;
  readonly history: string | undefined;
}

export const pruningText = (p: PruningOptions): string => `${p.strategy}/${p.keepRecent}/${p.interval}`;

export class CommittedStores {
  readonly backend: StoreBackend;
  readonly pruning: PruningOptions;
  readonly initialVersion: number;
  #latest: number;
  #earliest: number;
  /** Change records of versions <= this have been compacted away. */
  #compacted: number;
  /** Content hash of every store in the last commit; never mutated in place (a commit replaces it). */
  #committed = new Map<string, Uint8Array>();
  #lastCommit: CommitId;
  /**
   * Digest of the committed history (hex): every commit that changed the app hash folds in (version, app hash),
   * every reopen with other pruning options folds in (version, options). Commits that keep the app hash write no
   * content, so with the latest version it pins the content of every version. undefined when unknown (a store
   * opened over a foreign backend that has commits).
   */
  #history: string | undefined;
  /** Bumped at every backend write: memoized content hashes are valid for one epoch. */
  #epoch = 0;

  /** Reads the committed facts from `backend`, or takes `seed` (a copy's, describing the same backend). */
  constructor(backend: StoreBackend, pruning: PruningOptions, initialVersion: number, seed?: CommittedFacts) {
    this.backend = backend;
    this.pruning = pruning;
    this.initialVersion = initialVersion;
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
      this.#history = foldPruning("", 0, pruning);
    }
  }

  /** The last committed version, 0 before any commit. */
  get latest(): number {
    return this.#latest;
  }
  /** The earliest retained version, 0 before any commit. */
  get earliest(): number {
    return this.#latest === 0 ? 0 : this.#earliest;
  }
  get compacted(): number {
    return this.#compacted;
  }
  /** Every store of the last commit with its content hash. */
  get committed(): ReadonlyMap<string, Uint8Array> {
    return this.#committed;
  }
  get lastCommit(): CommitId {
    return this.#lastCommit;
  }
  get history(): string | undefined {
    return this.#history;
  }
  get epoch(): number {
    return this.#epoch;
  }
  /** The version the next commit gets: the initial version first, then latest + 1. */
  get nextVersion(): number {
    return this.#latest === 0 ? this.initialVersion : this.#latest + 1;
  }

  /** The facts as this instance holds them, with `history` (a reopen's may differ). */
  facts(history: string | undefined = this.#history): CommittedFacts {
    const [latest, earliest, compacted] = [this.#latest, this.#earliest, this.#compacted];
    return { latest, earliest, compacted, committed: this.#committed, lastCommit: this.#lastCommit, history };
  }

  /** The history digest of this backend reopened with `pruning` (options that change fold in). */
  historyReopenedWith(pruning: PruningOptions): string | undefined {
    if (this.#history === undefined || pruningText(pruning) === pruningText(this.pruning)) return this.#history;
    return foldPruning(this.#history, this.#latest, pruning);
  }

  #retained(version: number): boolean {
    return this.#latest > 0 && Number.isSafeInteger(version) && version >= this.#earliest && version <= this.#latest;
  }

  /** A read-only view of a retained version (a snapshot: later commits and pruning do not affect it). */
  readAt(version: number): Result<MultiStore, StoreError> {
    if (!this.#retained(version)) return err(plain(ERR_VERSION_DOES_NOT_EXIST));
    const snapshot = this.backend.fork();
    if (version === this.#latest) {
      return ok(new VersionView(snapshot, version, listedStores(sortNames(this.#committed.keys())), true));
    }
    const mounted =
      snapshot instanceof MemBackend
        ? storesAtMem(snapshot, version)
        : listedStores(sortNames(this.#storesAt(version).keys()));
    return ok(new VersionView(snapshot, version, mounted, false));
  }

  appHashAt(version: number): Result<Uint8Array, StoreError> {
    if (!this.#retained(version)) return err(plain(ERR_VERSION_DOES_NOT_EXIST));
    return ok(version === this.#latest ? this.#lastCommit.appHash : appHash(this.#storesAt(version)));
  }

  /**
   * Writes `batch` (a commit's staged writes) as version `version` with its metadata, then prunes. `stores`: the
   * stores' content hashes when any changed (undefined: the last commit's carry over); `hash`: the app hash.
   */
  commit(version: number, batch: BackendWrite[], stores: Map<string, Uint8Array> | undefined, hash: Uint8Array) {
    batch.push({ key: META_LATEST, value: encodeVersion(version) });
    if (this.#latest === 0) batch.push({ key: META_EARLIEST, value: encodeVersion(version) });
    this.#write(batch);
    if (this.#latest === 0) this.#earliest = version;
    this.#latest = version;
    if (stores !== undefined) this.#committed = stores;
    if (this.#history !== undefined && !bytesEqual(hash, this.#lastCommit.appHash))
      this.#history = foldHistory(this.#history, version, hash);
    this.#lastCommit = { version, appHash: hash };
    this.#prune(version);
    return this.#lastCommit;
  }

  /** `count` write-free versions at once: one metadata write and one pruning pass (see the multistore's doc). */
  commitEmpty(count: number): CommitId {
    const version = this.#latest + count;
    this.#write([{ key: META_LATEST, value: encodeVersion(version) }]);
    const from = this.#latest;
    this.#latest = version;
    this.#lastCommit = { version, appHash: this.#lastCommit.appHash };
    // Pruning targets grow with the height, so the last pruning height in (from, version] decides alone.
    const p = this.pruning;
    if (p.strategy !== "nothing" && p.interval > 0) {
      const last = version - (version % p.interval);
      if (last > from && prunesAt(last, p)) this.#prune(last);
    }
    return this.#lastCommit;
  }

  #write(batch: readonly BackendWrite[]): void {
    this.backend.write(batch);
    this.#epoch++;
  }

  /**
   * At a pruning height, moves the earliest version to height - keepRecent and deletes the history entries no
   * retained version can read: for every change at a version w <= new earliest, the entries of that key older
   * than w, and the entry at w itself when it is a deletion.
   */
  #prune(height: number): void {
    if (!prunesAt(height, this.pruning)) return;
    const target = height - this.pruning.keepRecent;
    if (target <= this.#earliest) return;
    const batch: BackendWrite[] = [];
    if (target > this.#compacted) {
      const from = changeVersionPrefix(this.#compacted + 1);
      const to = changeVersionPrefix(target + 1);
      for (const [ck] of this.backend.iterator(from, to)) {
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
    this.#write(batch);
  }

  #dropSuperseded(group: Uint8Array, version: number, batch: BackendWrite[]): void {
    const at = concat(group, encodeVersion(version));
    for (const [k] of this.backend.iterator(group, at)) batch.push({ key: k, value: undefined });
    const t = this.backend.get(at);
    if (t !== undefined && !isPresent(t)) batch.push({ key: at, value: undefined });
  }

  /** The reference IAVL tree's first version for a committed store: where its current lifetime started. */
  firstVersion(name: string): number {
    const prefix = storeRecordPrefix(name);
    let first = this.#earliest;
    for (const [k, t] of this.backend.reverseIterator(prefix, concat(prefix, encodeVersion(this.#latest + 1)))) {
      if (!isPresent(t)) break;
      first = decodeVersion(k, k.length - 8);
    }
    return Math.max(first, this.#earliest);
  }

  #readMeta(key: Uint8Array): number {
    const v = this.backend.get(key);
    return v === undefined ? 0 : decodeVersion(v, 0);
  }

  /** Every store present at `version` with its content hash (the newest record <= version per store). */
  #storesAt(version: number): Map<string, Uint8Array> {
    const out = new Map<string, Uint8Array>();
    const end = after(STORES_PREFIX);
    const versionEnd = encodeVersion(version + 1);
    let lo: Uint8Array = STORES_PREFIX;
    for (;;) {
      const first = this.backend.iterator(lo, end).next();
      if (first.done === true) return out;
      const name = storeRecordName(first.value[0]);
      if (name === undefined) return out;
      const prefix = storeRecordPrefix(name);
      const rec = this.backend.reverseIterator(prefix, concat(prefix, versionEnd)).next();
      if (rec.done !== true && isPresent(rec.value[1])) out.set(name, untag(rec.value[1]).slice());
      const next = after(prefix);
      if (next === undefined) return out;
      lo = next;
    }
  }
}

/**
 * The stores present at a past `version` over an in-memory snapshot, in latin1 form by point seeks: `has(name)`
 * is one reverse seek on that store's records (memoised in the view), `names()` walks every store record (a read at
 * a past height asks `has` for the one or two stores it reads; versioned-committed.test.ts and
 * historical-mem-kv.test.ts hold both to #storesAt).
 */
function storesAtMem(mem: MemBackend, version: number): MountedStores {
  const versionEnd = versionLatin1(version + 1);
  let names: readonly string[] | undefined;
  const asked = new Map<string, boolean>();
  return {
    names: () => {
      names ??= sortNames(namesAt(mem, versionEnd));
      return names;
    },
    has(name) {
      let h = asked.get(name);
      if (h === undefined) {
        const group = recordGroup(name);
        const rec = mem.lastLatin1(group, group + versionEnd);
        h = rec !== undefined && isPresent(rec[1]);
        if (asked.size < ASKED_MAX) asked.set(name, h);
      }
      return h;
    },
  };
}
/** A bound on the presence answers a view keeps. */
const ASKED_MAX = 256;

/** Every store present at the version whose encoding + 1 is `versionEnd`: each store record group in turn. */
function namesAt(mem: MemBackend, versionEnd: string): string[] {
  const names: string[] = [];
  let lo = STORES_LATIN1;
  for (let i = 0; i < STORES_MAX; i++) {
    const first = mem.firstLatin1(lo, STORES_END_LATIN1);
    if (first === undefined) return names;
    const group = first[0].slice(0, first[0].length - 8);
    const name = recordName(group);
    if (name === undefined) return names;
    const rec = mem.lastLatin1(group, group + versionEnd);
    if (rec !== undefined && isPresent(rec[1])) names.push(name);
    lo = `${group.slice(0, -1)}${String.fromCharCode(group.charCodeAt(group.length - 1) + 1)}`;
  }
  throw new AssertionError(`more than ${STORES_MAX} store records`);
}

const recordGroups = new Map<string, string>();
/** A store's record group (0x04 esc(name)) in latin1 form, memoised up to STORES_MAX names. */
function recordGroup(name: string): string {
  let g = recordGroups.get(name);
  if (g === undefined) {
    g = bytesToLatin1(storeRecordPrefix(name));
    if (recordGroups.size < STORES_MAX) recordGroups.set(name, g);
  }
  return g;
}

const STORES_LATIN1 = bytesToLatin1(STORES_PREFIX);
const STORES_END_LATIN1 = bytesToLatin1(after(STORES_PREFIX)!);
/** A bound on the store records #namesAt walks: one per store name ever mounted. */
const STORES_MAX = 1 << 16;

const recordNames = new Map<string, string | undefined>();
/** The store name of a store record group (0x04 esc(name), latin1), memoised: store names are few. */
function recordName(group: string): string | undefined {
  if (recordNames.has(group)) return recordNames.get(group);
  const k = latin1ToBytes(group);
  // A group ends with esc()'s terminator 0x00 0x01; storeRecordName reads the name up to it.
  const name = storeRecordName(k);
  if (recordNames.size < STORES_MAX) recordNames.set(group, name);
  return name;
}

/** The history digest after a commit of `version` that changed the app hash to `hash`. */
function foldHistory(history: string, version: number, hash: Uint8Array): string {
  return toHex(sha256Of(concat(utf8(history), encodeVersion(version), hash)));
}

/** The history digest after the pruning options changed to `p` at `version` (change records start or stop). */
function foldPruning(history: string, version: number, p: PruningOptions): string {
  return toHex(sha256Of(concat(utf8(history), encodeVersion(version), utf8(pruningText(p)))));
}
