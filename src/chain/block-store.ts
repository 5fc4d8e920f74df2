import { sha256 } from "@noble/hashes/sha2.js";
import { present } from "../core/assert.js";
import { concat, toHex, utf8 } from "../core/bytes.js";
import { formatRfc3339 } from "../core/go/time.js";

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
  /** Time and app-hash index of blocks 1..height. */
  readonly times: Float64Array;
  readonly hashIdx: Int32Array;
  readonly hashes: readonly string[];
  readonly txs: ReadonlyMap<number, readonly Tx[]>;
}

/** The invariant behind every read of a stored block: heights 1..height are stored, with a hash in the table. */
const STORED = "a block up to the store's height is stored";

const EMPTY_HASH = toHex(sha256(new Uint8Array())).toUpperCase();
const h256 = (...parts: string[]) => toHex(sha256(utf8(parts.join("|")))).toUpperCase();

/**
 * The chain's block store: every committed block by height. Idle blocks (no transactions) are stored compactly:
 * times in a typed array and the app hash as an index into a table of distinct hashes, so 100k+ blocks cost a few
 * bytes each. Headers and block ids are derived on demand and deterministically.
 *
 * Simplification (documented): a block id hashes the header's own fields but not `last_block_id`, so a header
 * can be derived in O(1) without hashing the whole chain. `app_hash` in header h is the app hash after block h-1,
 * as in CometBFT (block 1 carries the genesis app hash).
 */
export class BlockStore<Tx> {
  #times = new Float64Array(1024);
  #hashIdx = new Int32Array(1024);
  readonly #hashes: string[] = [];
  readonly #hashIndex = new Map<string, number>();
  readonly #txs = new Map<number, readonly Tx[]>();
  #height = 0;
  /** The app hash of the last append and its index: runs of idle blocks repeat it (no map lookup per block). */
  #lastHash: string | undefined;
  #lastHashIdx = 0;

  constructor(
    readonly chainId: string,
    readonly genesisAppHash: string,
    readonly validatorsHash: string,
    private readonly proposers: readonly Uint8Array[],
    private readonly encodeTx: (tx: Tx) => Uint8Array,
  ) {}

  get height(): number {
    return this.#height;
  }

  /** Appends block `height` (must be the next height). */
  append(height: number, timeMs: number, txs: readonly Tx[], appHash: string): void {
    if (height !== this.#height + 1) throw new Error(`block store: appending ${height} after ${this.#height}`);
    if (height > this.#times.length) {
      const t = new Float64Array(this.#times.length * 2);
      t.set(this.#times);
      this.#times = t;
      const i = new Int32Array(this.#hashIdx.length * 2);
      i.set(this.#hashIdx);
      this.#hashIdx = i;
    }
    let idx = appHash === this.#lastHash ? this.#lastHashIdx : this.#hashIndex.get(appHash);
    if (idx === undefined) {
      idx = this.#hashes.length;
      this.#hashes.push(appHash);
      this.#hashIndex.set(appHash, idx);
    }
    this.#lastHash = appHash;
    this.#lastHashIdx = idx;
    this.#times[height - 1] = timeMs;
    this.#hashIdx[height - 1] = idx;
    if (txs.length > 0) this.#txs.set(height, txs);
    this.#height = height;
  }

  get(height: number): CommittedBlock<Tx> | undefined {
    if (height < 1 || height > this.#height) return undefined;
    return {
      height,
      timeMs: present(this.#times[height - 1], STORED),
      proposerIndex: this.proposerIndex(height),
      txs: this.#txs.get(height) ?? [],
      appHash: this.#storedHash(height),
    };
  }

  timeMs(height: number): number | undefined {
    return height >= 1 && height <= this.#height ? this.#times[height - 1] : undefined;
  }

  appHash(height: number): string | undefined {
    if (height === 0) return this.genesisAppHash;
    return height >= 1 && height <= this.#height ? this.#storedHash(height) : undefined;
  }

  /** The app hash of stored block `height` (1..height). */
  #storedHash(height: number): string {
    return present(this.#hashes[present(this.#hashIdx[height - 1], STORED)], STORED);
  }

  txs(height: number): readonly Tx[] {
    return this.#txs.get(height) ?? [];
  }

  proposerIndex(height: number): number {
    return (height - 1) % this.proposers.length;
  }

  /** Block id hash of `height` (upper-case hex), or "" for height 0. */
  blockIdHash(height: number): string {
    if (height === 0) return "";
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
        last_commit_hash: height === 1 ? EMPTY_HASH : h256("commit", String(height - 1), lastHash),
        data_hash: this.#dataHash(b.txs),
        validators_hash: this.validatorsHash,
        next_validators_hash: this.validatorsHash,
        consensus_hash: h256("consensus-params"),
        app_hash: present(this.appHash(height - 1), STORED).toUpperCase(),
        last_results_hash: height === 1 ? EMPTY_HASH : h256("results", String(height - 1)),
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
    return {
      chainId: this.chainId,
      genesisAppHash: this.genesisAppHash,
      validatorsHash: this.validatorsHash,
      proposers: this.proposers,
      height: this.#height,
      times: this.#times.slice(0, this.#height),
      hashIdx: this.#hashIdx.slice(0, this.#height),
      hashes: [...this.#hashes],
      txs: new Map(this.#txs),
    };
  }

  /** The store of a snapshot, with the transaction encoding (not data) given again. */
  static fromSnapshot<Tx>(snap: BlockStoreSnapshot<Tx>, encodeTx: (tx: Tx) => Uint8Array): BlockStore<Tx> {
    const b = new BlockStore<Tx>(snap.chainId, snap.genesisAppHash, snap.validatorsHash, snap.proposers, encodeTx);
    const capacity = Math.max(1024, 2 ** Math.ceil(Math.log2(snap.height + 1)));
    b.#times = new Float64Array(capacity);
    b.#times.set(snap.times);
    b.#hashIdx = new Int32Array(capacity);
    b.#hashIdx.set(snap.hashIdx);
    for (const h of snap.hashes) {
      b.#hashIndex.set(h, b.#hashes.length);
      b.#hashes.push(h);
    }
    for (const [k, v] of snap.txs) b.#txs.set(k, v);
    b.#height = snap.height;
    return b;
  }
}
