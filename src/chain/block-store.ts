import { sha256 } from "@noble/hashes/sha2.js";
import { present } from "../core/assert.js";
import { concat, toHex, utf8 } from "../core/bytes.js";
import { formatRfc3339 } from "../core/go/time.js";
import type { BlockTimeSource } from "./block-time.js";

/** What the chain keeps of each committed block. Transactions are kept so that lagging nodes can replay them. */
export interface CommittedBlock<Tx> {
  readonly height: number;
  readonly timeMs: number;
  readonly proposerIndex: number;
  readonly txs: readonly Tx[];
  /** App hash after executing this block (hex, lowercase). */
  readonly appHash: string;
}

/** Header of a block as `query upgrade applied` prints it (docs/node-api.md §6.2). Hashes are upper-case hex. */
export interface BlockMeta {
  readonly block_id: { readonly hash: string; readonly parts: { readonly total: number; readonly hash: string } };
  readonly block_size: string;
  readonly header: {
    readonly version: { readonly block: string };
    readonly chain_id: string;
    readonly height: string;
    readonly time: string;
    readonly last_block_id: {
      readonly hash: string;
      readonly parts: { readonly total: number; readonly hash: string };
    };
    readonly last_commit_hash: string;
    readonly data_hash: string;
    readonly validators_hash: string;
    readonly next_validators_hash: string;
    readonly consensus_hash: string;
    readonly app_hash: string;
    readonly last_results_hash: string;
    readonly evidence_hash: string;
    readonly proposer_address: string;
  };
  readonly num_txs: string;
}

/** A block store as plain data (see `BlockStore.snapshot`). */
export interface BlockStoreSnapshot<Tx> {
  readonly chainId: string;
  readonly genesisAppHash: string;
  readonly validatorsHash: string;
  readonly proposers: readonly Uint8Array[];
  readonly height: number;
  /** Times of blocks base+1..height. */
  readonly times: Float64Array;
  /** App hashes as runs: from height `runFrom[k]` until the next run's, `runHash[k]`. */
  readonly runFrom: readonly number[];
  readonly runHash: readonly string[];
  readonly txs: ReadonlyMap<number, readonly Tx[]>;
  /** The height before the first block (CometBFT's `initial_height` − 1); 0 for a chain from height 1. */
  readonly base: number;
}

/** The invariant behind every read of a stored block: heights 1..height are stored, with a hash run. */
const STORED = "a block up to the store's height is stored";
/** The invariant behind writes: `#reserve` made room for the height. */
const RESERVED = "a chunk is reserved up to the height written";

/** Heights per storage chunk: 32 KiB of times, 16 KiB of hash indexes. */
const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK - 1;

const EMPTY_HASH = toHex(sha256(new Uint8Array())).toUpperCase();
const h256 = (...parts: string[]) => toHex(sha256(utf8(parts.join("|")))).toUpperCase();

/**
 * The chain's block store: every committed block by height. Idle blocks (no transactions) are stored compactly:
 * times in typed-array chunks and app hashes as runs of equal hashes, so 100k+ blocks cost 8 bytes each. Headers
 * and block ids are derived on demand and deterministically.
 *
 * Simplification (documented): a block id hashes the header's own fields but not `last_block_id`, so a header
 * can be derived in O(1) without hashing the whole chain. `app_hash` in header h is the app hash after block h-1,
 * as in CometBFT (block 1 carries the genesis app hash).
 *
 * A chain may start at a later height (CometBFT's `initial_height`, a scenario `from:` a profile): `base` is the
 * height before its first block, which carries the genesis app hash; heights up to `base` are not stored.
 */
export class BlockStore<Tx> {
  /** Block times by height, in chunks of `CHUNK` heights (grown without copying). */
  #times: Float64Array[] = [];
  /** App hashes by height as runs: from height `runFrom[k]` until the next run's, the hash is `runHash[k]`. */
  #runFrom: number[] = [];
  #runHash: string[] = [];
  readonly #txs = new Map<number, readonly Tx[]>();
  #height: number;

  constructor(
    readonly chainId: string,
    readonly genesisAppHash: string,
    readonly validatorsHash: string,
    private readonly proposers: readonly Uint8Array[],
    private readonly encodeTx: (tx: Tx) => Uint8Array,
    readonly base = 0,
  ) {
    this.#height = base;
  }

  get height(): number {
    return this.#height;
  }

  /** Appends block `height` (must be the next height). */
  append(height: number, timeMs: number, txs: readonly Tx[], appHash: string): void {
    if (height !== this.#height + 1) throw new Error(`block store: appending ${height} after ${this.#height}`);
    this.#reserve(height);
    const i = height - 1 - this.base;
    this.#times[i >> CHUNK_BITS]![i & CHUNK_MASK] = timeMs;
    this.#hashFrom(height, appHash);
    if (txs.length > 0) this.#txs.set(height, txs);
    this.#height = height;
  }

  /**
   * Appends a run of idle blocks (no transactions, app hash `appHash`) from the next height on, their times from
   * `times.idleTimes` after `startMs`: heights below `heightEnd`, times below `limitMs`. Returns how many. The
   * same store as appending them one by one (tested); the engine's fast path in one call instead of one per block.
   */
  appendIdleRun(
    heightEnd: number,
    startMs: number,
    limitMs: number,
    times: Pick<BlockTimeSource, "idleTimes">,
    appHash: string,
  ): number {
    const from = this.#height + 1;
    let t = startMs;
    for (;;) {
      const next = this.#height + 1;
      // Up to the end of the chunk holding `next`.
      const end = Math.min(heightEnd, ((((next - 1 - this.base) >> CHUNK_BITS) + 1) << CHUNK_BITS) + 1 + this.base);
      if (end <= next) break;
      this.#reserve(next);
      const c = (next - 1 - this.base) >> CHUNK_BITS;
      const at = (next - 1 - this.base) & CHUNK_MASK;
      const chunk = present(this.#times[c], RESERVED);
      const n = times.idleTimes(next, end, t, limitMs, chunk, at);
      if (n === 0) break;
      this.#hashFrom(next, appHash);
      t = present(chunk[at + n - 1], RESERVED);
      this.#height = next - 1 + n;
      if (next + n < end) break;
    }
    return this.#height + 1 - from;
  }

  /** Room for heights up to `height`. */
  #reserve(height: number): void {
    while (this.#times.length <= (height - 1 - this.base) >> CHUNK_BITS) {
      this.#times.push(new Float64Array(CHUNK));
    }
  }

  /** Block `height` (the next one) and the blocks after it have app hash `appHash` (until another is set). */
  #hashFrom(height: number, appHash: string): void {
    if (this.#runHash[this.#runHash.length - 1] === appHash) return;
    this.#runFrom.push(height);
    this.#runHash.push(appHash);
  }

  #timeAt(height: number): number {
    const i = height - 1 - this.base;
    return present(this.#times[i >> CHUNK_BITS]?.[i & CHUNK_MASK], STORED);
  }

  #hashAt(height: number): string {
    const from = this.#runFrom;
    let lo = 0;
    let hi = from.length - 1;
    // The run holding `height`: the last one starting at or below it (most reads are of the last run).
    if (height >= present(from[hi], STORED)) return present(this.#runHash[hi], STORED);
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (present(from[mid], STORED) <= height) lo = mid;
      else hi = mid - 1;
    }
    return present(this.#runHash[lo], STORED);
  }

  get(height: number): CommittedBlock<Tx> | undefined {
    if (height <= this.base || height > this.#height) return undefined;
    return {
      height,
      timeMs: this.#timeAt(height),
      proposerIndex: this.proposerIndex(height),
      txs: this.#txs.get(height) ?? [],
      appHash: this.#hashAt(height),
    };
  }

  timeMs(height: number): number | undefined {
    return height > this.base && height <= this.#height ? this.#timeAt(height) : undefined;
  }

  appHash(height: number): string | undefined {
    if (height === this.base) return this.genesisAppHash;
    return height > this.base && height <= this.#height ? this.#hashAt(height) : undefined;
  }

  txs(height: number): readonly Tx[] {
    return this.#txs.get(height) ?? [];
  }

  proposerIndex(height: number): number {
    return (height - 1) % this.proposers.length;
  }

  /** Block id hash of `height` (upper-case hex), or "" for the height before the first block. */
  blockIdHash(height: number): string {
    if (height <= this.base) return "";
    const b = this.get(height);
    if (b === undefined) return "";
    return h256(
      "block",
      this.chainId,
      String(height),
      String(b.timeMs),
      present(this.appHash(height - 1), STORED),
      this.#dataHash(b.txs),
    );
  }

  #dataHash(txs: readonly Tx[]): string {
    if (txs.length === 0) return EMPTY_HASH;
    return toHex(sha256(concat(...txs.map((t) => sha256(this.encodeTx(t)))))).toUpperCase();
  }

  /** The block meta `query upgrade applied` prints, or undefined when the height is not stored. */
  meta(height: number): BlockMeta | undefined {
    const b = this.get(height);
    if (b === undefined) return undefined;
    const hash = this.blockIdHash(height);
    const lastHash = this.blockIdHash(height - 1);
    const partsOf = (h: string) => ({ total: h === "" ? 0 : 1, hash: h === "" ? "" : h256("parts", h) });
    const size = b.txs.reduce((n, t) => n + this.encodeTx(t).length, 0) + 600;
    return {
      block_id: { hash, parts: partsOf(hash) },
      block_size: String(size),
      header: {
        version: { block: "11" },
        chain_id: this.chainId,
        height: String(height),
        time: formatRfc3339(b.timeMs),
        last_block_id: { hash: lastHash, parts: partsOf(lastHash) },
        last_commit_hash: height === this.base + 1 ? EMPTY_HASH : h256("commit", String(height - 1), lastHash),
        data_hash: this.#dataHash(b.txs),
        validators_hash: this.validatorsHash,
        next_validators_hash: this.validatorsHash,
        consensus_hash: h256("consensus-params"),
        app_hash: present(this.appHash(height - 1), STORED).toUpperCase(),
        last_results_hash: height === this.base + 1 ? EMPTY_HASH : h256("results", String(height - 1)),
        evidence_hash: EMPTY_HASH,
        proposer_address: toHex(
          present(this.proposers[b.proposerIndex], "a proposer index is modulo the proposers"),
        ).toUpperCase(),
      },
      num_txs: String(b.txs.length),
    };
  }

  /** The store as plain data, independent of later appends (blocks and their transactions are never changed). */
  snapshot(): BlockStoreSnapshot<Tx> {
    const stored = this.#height - this.base;
    const times = new Float64Array(stored);
    this.#times.forEach((chunk, c) => {
      const from = c * CHUNK;
      if (from < stored) times.set(chunk.subarray(0, Math.min(CHUNK, stored - from)), from);
    });
    return {
      chainId: this.chainId,
      genesisAppHash: this.genesisAppHash,
      validatorsHash: this.validatorsHash,
      proposers: this.proposers,
      height: this.#height,
      times,
      runFrom: [...this.#runFrom],
      runHash: [...this.#runHash],
      txs: new Map(this.#txs),
      base: this.base,
    };
  }

  /** The store of a snapshot, with the transaction encoding (not data) given again. */
  static fromSnapshot<Tx>(snap: BlockStoreSnapshot<Tx>, encodeTx: (tx: Tx) => Uint8Array): BlockStore<Tx> {
    const b = new BlockStore<Tx>(
      snap.chainId,
      snap.genesisAppHash,
      snap.validatorsHash,
      snap.proposers,
      encodeTx,
      snap.base,
    );
    const stored = snap.height - snap.base;
    if (stored > 0) b.#reserve(snap.height);
    for (let from = 0; from < stored; from += CHUNK)
      present(b.#times[from >> CHUNK_BITS], RESERVED).set(snap.times.subarray(from, Math.min(stored, from + CHUNK)));
    b.#runFrom = [...snap.runFrom];
    b.#runHash = [...snap.runHash];
    for (const [k, v] of snap.txs) b.#txs.set(k, v);
    b.#height = snap.height;
    return b;
  }
}
