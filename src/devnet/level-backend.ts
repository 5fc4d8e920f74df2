import { existsSync } from "node:fs";
import { join } from "node:path";
import { ClassicLevel } from "classic-level";
import { concat } from "../core/bytes.js";
import { err, ok, type PlainError, plain, type Result } from "../core/errors.js";
import type { BackendWrite, StoreBackend } from "../store/backend.js";
import { MemBackend } from "../store/mem-backend.js";

/**
 * A StoreBackend persisted in LevelDB (classic-level), for the live devnet node.
 *
 * Contract:
 * - Reads are synchronous (the StoreBackend interface), LevelDB iterators are not: the state keyspace is mirrored in
 *   memory (a MemBackend loaded at open) and every read is served from the mirror. Memory therefore grows with the
 *   retained state (documented limit; pruning bounds it).
 * - `write` applies a batch to the mirror at once and queues it; `flush` writes every queued batch, plus optional
 *   auxiliary records, as ONE atomic LevelDB batch. A crash (SIGKILL) before the flush completes loses the whole
 *   group, never part of it, so a node that flushes once per block (the commit batch, the pruning batch and the
 *   block record together) reopens at exactly the last flushed block.
 * - `fork()` is an O(1) in-memory snapshot of the mirror (a MemBackend): independent of later writes on either side,
 *   never persisted. The multistore uses forks for read-only historical views, which need nothing more.
 * - The auxiliary keyspace (block log, tx index) is not state: it is not mirrored and not seen by the multistore.
 *
 * On-disk layout: state key k is stored as `s | k`, auxiliary key k as `a | k`.
 */
const STATE = 0x73; // "s"
const AUX = 0x61; // "a"

const prefixed = (tag: number, key: Uint8Array): Uint8Array => concat(Uint8Array.of(tag), key);

type LevelOp =
  | { readonly type: "put"; readonly key: Uint8Array; readonly value: Uint8Array }
  | { readonly type: "del"; readonly key: Uint8Array };

const toOp = (tag: number, w: BackendWrite): LevelOp =>
  w.value === undefined
    ? { type: "del", key: prefixed(tag, w.key) }
    : { type: "put", key: prefixed(tag, w.key), value: w.value };

export interface LevelBackendOptions {
  /** fsync each flush (survives power loss, not only process death); default true. */
  readonly sync?: boolean;
  /**
   * Create the database when `dir` has none (only `chainsim init` does); default false. Without it a missing
   * database (no `CURRENT` file) is refused before LevelDB touches the directory: LevelDB would otherwise build an
   * empty database and delete the tables it does not know, destroying committed state.
   */
  readonly createIfMissing?: boolean;
}

type Db = ClassicLevel<Uint8Array, Uint8Array>;

const message = (e: unknown): string => {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message}: ${cause.message}` : e.message;
  }
  return String(e);
};

export class LevelBackend implements StoreBackend {
  readonly #db: Db;
  readonly #mirror: MemBackend;
  readonly #sync: boolean;
  #pending: LevelOp[] = [];
  #closed = false;

  private constructor(db: Db, mirror: MemBackend, sync: boolean) {
    this.#db = db;
    this.#mirror = mirror;
    this.#sync = sync;
  }

  /**
   * Opens the database in `dir` (creating it only with `createIfMissing`) and loads the state mirror. Fails with
   * the LevelDB error text, e.g. when another process holds the database lock or a table is corrupt. classic-level
   * offers neither `paranoid_checks` nor `verify_checksums`; the node's commit record (commit-record.ts) is what
   * catches a database that recovered less than was committed.
   */
  static async open(dir: string, opts: LevelBackendOptions = {}): Promise<Result<LevelBackend, PlainError>> {
    const createIfMissing = opts.createIfMissing ?? false;
    if (!createIfMissing && !existsSync(join(dir, "CURRENT"))) {
      return err(
        plain(
          `no database at ${dir} (its CURRENT file is missing); refusing to create one over possibly committed ` +
            "state: restore the data directory from a backup, or create a new node with `chainsim init`",
        ),
      );
    }
    const db: Db = new ClassicLevel<Uint8Array, Uint8Array>(dir, {
      keyEncoding: "view",
      valueEncoding: "view",
      createIfMissing,
    });
    try {
      await db.open();
    } catch (e) {
      return err(plain(`failed to open database ${dir}: ${message(e)}`));
    }
    const load: BackendWrite[] = [];
    try {
      for await (const [k, v] of db.iterator({ gte: Uint8Array.of(STATE), lt: Uint8Array.of(STATE + 1) })) {
        load.push({ key: k.subarray(1), value: v });
      }
    } catch (e) {
      await db.close().catch(() => {});
      return err(plain(`failed to load database ${dir}: ${message(e)}`));
    }
    const mirror = new MemBackend();
    mirror.write(load);
    return ok(new LevelBackend(db, mirror, opts.sync ?? true));
  }

  get(key: Uint8Array): Uint8Array | undefined {
    return this.#mirror.get(key);
  }

  iterator(
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
  ): IterableIterator<readonly [Uint8Array, Uint8Array]> {
    return this.#mirror.iterator(start, end);
  }

  reverseIterator(
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
  ): IterableIterator<readonly [Uint8Array, Uint8Array]> {
    return this.#mirror.reverseIterator(start, end);
  }

  /** Applies the batch to the mirror now; it reaches the disk with the next `flush`. */
  write(batch: readonly BackendWrite[]): void {
    if (batch.length === 0) return;
    this.#mirror.write(batch);
    for (const w of batch) this.#pending.push(toOp(STATE, w));
  }

  /** An in-memory snapshot (not persisted): see the class contract. */
  fork(): StoreBackend {
    return this.#mirror.fork();
  }

  /** Number of queued state writes not yet flushed. */
  get pendingWrites(): number {
    return this.#pending.length;
  }

  /**
   * Writes the queued state writes and `aux` as one atomic LevelDB batch, in that order. The queue is taken at the
   * call, so writes made while the flush is in flight go to the next one. An error means the disk no longer matches
   * the mirror: the caller must stop (the node exits and reopens from disk).
   */
  async flush(aux: readonly BackendWrite[] = []): Promise<Result<void, PlainError>> {
    if (this.#closed) return err(plain("database is closed"));
    const ops = this.#pending;
    this.#pending = [];
    for (const w of aux) ops.push(toOp(AUX, w));
    if (ops.length === 0) return ok(undefined);
    try {
      await this.#db.batch(ops, { sync: this.#sync });
      return ok(undefined);
    } catch (e) {
      return err(plain(`failed to write database: ${message(e)}`));
    }
  }

  /** An auxiliary record as last flushed. */
  getAux(key: Uint8Array): Uint8Array | undefined {
    return this.#db.getSync(prefixed(AUX, key));
  }

  /** Auxiliary records with `start <= key < end` (bounds relative to the aux keyspace), ascending, as flushed. */
  async *auxEntries(start: Uint8Array, end: Uint8Array): AsyncGenerator<readonly [Uint8Array, Uint8Array]> {
    for await (const [k, v] of this.#db.iterator({ gte: prefixed(AUX, start), lt: prefixed(AUX, end) })) {
      yield [k.subarray(1), v];
    }
  }

  /** Closes the database; unflushed writes are dropped (as a crash would drop them). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#pending = [];
    await this.#db.close();
  }
}
