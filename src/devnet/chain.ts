import { basename, join } from "node:path";
import type { QueryBackend } from "../api/backend.js";
import { COMET_VERSION, NODE_APP_NAME, SDK_VERSION } from "../api/node-backend.js";
import { bankQueryService } from "../api/services/bank.js";
import { type BlockSource, blockService } from "../api/services/block.js";
import { govQueryService } from "../api/services/gov.js";
import { upgradeQueryService } from "../api/services/upgrade.js";
import { storeBackend } from "../api/store-backend.js";
import { wireBackend } from "../api/wire.js";
import { StoreCtx } from "../app/context.js";
import type { NodeState, SimNodeProcess } from "../app/node-process.js";
import type { GovBlockEvent, Halt, SimTx } from "../app/types.js";
import type { BlockStore } from "../chain/block-store.js";
import { addressOfName, nameToAddressBytes } from "../core/address.js";
import { height as toHeight, unixMs } from "../core/brand.js";
import { toHex } from "../core/bytes.js";
import { type ChainError, err, errorText, ok, type Result, SdkErrors, wrap } from "../core/errors.js";
import type { Namespace } from "../core/namespace.js";
import type { StakingView } from "../gov/types.js";
import type { MultiStore } from "../store/types.js";
import { type AnteEnv, type AnteOk, anteGas, runAnte, type TxEvent } from "./ante.js";
import { blockWrites, readTx, type TxRecord } from "./block-log.js";
import { type HaltedAtOpen, type OpenOptions, openNode } from "./chain-open.js";
import { COMMIT_RECORD_FILE, writeCommitRecord } from "./commit-record.js";
import type { HomeConfig } from "./home.js";
import type { LevelBackend } from "./level-backend.js";
import { decodeTx, txHash } from "./tx.js";
import { codeOf, deliveredRecord, failedRecord, msgEvents, type PoolTx } from "./tx-records.js";
import { authQueryService, type CheckOutcome, txService } from "./tx-service.js";

/** CometBFT's mempool limits (config.toml [mempool] defaults): max_tx_bytes and size. */
export const MAX_TX_BYTES = 1_048_576;
export const MEMPOOL_SIZE = 5000;

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export type BlockOutcome =
  | {
      readonly kind: "committed";
      readonly height: number;
      readonly appHash: string;
      readonly numTxs: number;
      readonly applied?: string;
      readonly gov: readonly GovBlockEvent[];
    }
  | { readonly kind: "halted"; readonly height: number; readonly halt: Halt };

/** What opening a node gives: a running chain, or a halt at start (the store loader failed). */
export type Opened = { readonly kind: "running"; readonly chain: DevnetChain } | HaltedAtOpen;

/** The endpoints a running node listens on (`tcp://host:port`), set when each listener is up. */
export interface NodeListeners {
  /** The CometBFT RPC listener (`rpc.laddr`), when one runs. */
  readonly rpc?: string;
}

/**
 * One devnet node's chain: the simulated application (SimNodeProcess, started through SimAppHost) over a
 * LevelDB-backed multistore, a single local proposer holding every validator's power, a mempool, and the block log.
 *
 * Invariants:
 * - A block is executed and committed synchronously (`produceBlock`); its state writes, pruning and block record
 *   reach the disk together at the next `flush` (one atomic batch). `durableHeight` is the last flushed height.
 * - Everything outside (queries, tx lookups) sees only durable heights, so nothing a client observed can be lost
 *   by a crash: after a restart the node resumes at `durableHeight` or later, with the same app hashes.
 * - `produceBlock` must not be called while a flush is in flight (the node's loop awaits each flush).
 */
export class DevnetChain {
  readonly binary: string;
  readonly blocks: BlockStore<Uint8Array>;
  readonly #cfg: HomeConfig;
  readonly #backend: LevelBackend;
  readonly #state: NodeState;
  readonly #process: SimNodeProcess;
  readonly #env: AnteEnv;
  readonly #staking: StakingView;
  #mempool: PoolTx[] = [];
  readonly #pendingByAccount = new Map<string, bigint>();
  #aux: ReturnType<typeof blockWrites> = [];
  /** Results of committed but not yet flushed blocks, by hash. */
  readonly #unflushed = new Map<string, TxRecord>();
  #durable: number;
  readonly #recordPath: string;

  private constructor(
    cfg: HomeConfig,
    binary: string,
    backend: LevelBackend,
    state: NodeState,
    process: SimNodeProcess,
    blocks: BlockStore<Uint8Array>,
    env: AnteEnv,
  ) {
    this.#cfg = cfg;
    this.binary = binary;
    this.#backend = backend;
    this.#state = state;
    this.#process = process;
    this.blocks = blocks;
    this.#env = env;
    this.#durable = state.store.latestVersion();
    this.#recordPath = join(cfg.paths.data, COMMIT_RECORD_FILE);
    const { validators, bech32Prefix: prefix } = cfg.chain.genesis;
    this.#staking = {
      bondedValidators: () =>
        validators.map((v) => ({ operator: v.operator ?? addressOfName(v.name, prefix), tokens: BigInt(v.power) })),
    };
  }

  /**
   * Opens the database under data/, rebuilds the block log, and starts `binary` over the state: a fresh node mounts
   * the binary's stores; a node with history goes through SimAppHost.start (upgrade-info.json read, store loader,
   * load). A start failure is a `store-load-failed` halt, returned as `halted`.
   */
  static async open(o: OpenOptions): Promise<Result<Opened, string>> {
    const r = await openNode(o);
    if (!r.ok) return r;
    if (r.value.kind === "halted") return ok(r.value);
    const { backend, state, process, blocks, env } = r.value;
    return ok({ kind: "running", chain: new DevnetChain(o.config, o.binary, backend, state, process, blocks, env) });
  }

  /** Last committed height (in memory; may be one block ahead of the disk while a flush runs). */
  get height(): number {
    return this.#state.store.latestVersion();
  }
  /** Last height flushed to disk. */
  get durableHeight(): number {
    return this.#durable;
  }
  get chainId(): string {
    return this.#cfg.chain.chainId;
  }
  get mempoolSize(): number {
    return this.#mempool.length;
  }

  #view(version: number): MultiStore | undefined {
    if (version <= 0) return undefined;
    const v = this.#state.store.readAt(version);
    return v.ok ? v.value : undefined;
  }

  #ctxAt(version: number): StoreCtx | undefined {
    const ms = this.#view(version);
    if (ms === undefined) return undefined;
    return new StoreCtx(ms, {
      chainId: this.chainId,
      height: toHeight(version),
      time: unixMs(this.blocks.timeMs(version) ?? 0),
      appVersion: 0n,
    });
  }

  /**
   * CheckTx: the mempool's own checks (size, cache, capacity), then decoding and the ante handler in CheckTx mode
   * against the last committed state (sequence offset by this account's transactions already in the mempool). A tx
   * that passes is queued for the next block.
   */
  checkTx(bytes: Uint8Array): CheckOutcome {
    const hash = txHash(bytes);
    if (bytes.length > MAX_TX_BYTES)
      return {
        kind: "mempool",
        hash,
        reason: "too-large",
        message: `tx too large. Max size is ${MAX_TX_BYTES}, but got ${bytes.length}`,
      };
    if (this.#mempool.some((p) => p.hash === hash) || this.#unflushed.has(hash) || this.txResult(hash) !== undefined)
      return { kind: "mempool", hash, reason: "in-cache", message: "tx already exists in cache" };
    if (this.#mempool.length >= MEMPOOL_SIZE) {
      const total = this.#mempool.reduce((n, p) => n + p.tx.bytes.length, 0);
      return {
        kind: "mempool",
        hash,
        reason: "full",
        message: `mempool is full: number of txs ${this.#mempool.length} (max: ${MEMPOOL_SIZE}), total txs bytes ${total} (max: 1073741824)`,
      };
    }
    const rejected = (e: ChainError, gasWanted = 0n, gasUsed = 0n): CheckOutcome => ({
      kind: "checked",
      hash,
      ...codeOf(e),
      log: errorText(e),
      gasWanted,
      gasUsed,
    });
    const decoded = decodeTx(bytes, this.#env.namespace);
    if (!decoded.ok) return rejected(decoded.error);
    const tx = decoded.value;
    const ctx = this.#ctxAt(this.height);
    if (ctx === undefined)
      return rejected(wrap(SdkErrors.ErrInvalidHeight, "chain is not ready; please wait for first block"));
    const signer = tx.msgs[0]!.signer;
    const pending = this.#pendingByAccount.get(signer) ?? 0n;
    const v = runAnte(ctx, tx, this.#env, { check: true, pending, height: this.height + 1 });
    if (!v.ok) return rejected(v.error, tx.authInfo.fee?.gasLimit ?? 0n, anteGas(tx));
    this.#mempool.push({ tx, hash });
    this.#pendingByAccount.set(signer, pending + 1n);
    return {
      kind: "checked",
      hash,
      code: 0,
      codespace: "",
      log: "",
      gasWanted: v.value.gasWanted,
      gasUsed: v.value.gasUsed,
    };
  }

  /** Simulate: decoding and the ante handler over the latest state without the signature check; nothing is kept. */
  simulate(bytes: Uint8Array): Result<{ gasWanted: bigint; gasUsed: bigint; events: readonly TxEvent[] }, ChainError> {
    const decoded = decodeTx(bytes, this.#env.namespace);
    if (!decoded.ok) return decoded;
    const ctx = this.#ctxAt(this.#durable);
    if (ctx === undefined)
      return err(wrap(SdkErrors.ErrInvalidHeight, "chain is not ready; please wait for first block"));
    const tx = decoded.value;
    const v = runAnte(ctx, tx, this.#env, { check: false, simulate: true, pending: 0n, height: this.#durable + 1 });
    if (!v.ok) return v;
    return ok({
      gasWanted: v.value.gasWanted,
      gasUsed: v.value.gasUsed,
      events: [...v.value.events, ...msgEvents(tx.msgs[0]!, undefined)],
    });
  }

  /** Transactions waiting for the next block (num_unconfirmed_txs). */
  get mempoolBytes(): number {
    return this.#mempool.reduce((n, p) => n + p.tx.bytes.length, 0);
  }

  /**
   * Executes and commits the next block at `timeMs` with every queued transaction: each goes through the ante
   * handler in the block's state, and the ones that pass run as the application's transactions. A halt commits
   * nothing (upgrade-info.json may have been written) and leaves the mempool as it was.
   */
  produceBlock(timeMs: number): BlockOutcome {
    const height = this.height + 1;
    const pool = this.#mempool;
    const ctx = new StoreCtx(this.#state.store, {
      chainId: this.chainId,
      height: toHeight(height),
      time: unixMs(timeMs),
      appVersion: 0n,
    });
    const results: (TxRecord | undefined)[] = [];
    const simTxs: SimTx[] = [];
    const delivered: { index: number; ante: AnteOk }[] = [];
    pool.forEach((p, i) => {
      if (height === 1) {
        results.push(
          failedRecord(
            p,
            height,
            i,
            wrap(SdkErrors.ErrInvalidHeight, "chain is not ready; please wait for first block"),
          ),
        );
        return;
      }
      const a = runAnte(ctx, p.tx, this.#env, { check: false, pending: 0n, height });
      if (!a.ok) {
        results.push(failedRecord(p, height, i, a.error));
        return;
      }
      results.push(undefined);
      delivered.push({ index: i, ante: a.value });
      simTxs.push(p.tx.msgs[0]!.sim);
    });
    const out = this.#process.execute(height, timeMs, simTxs);
    if (!out.ok) return { kind: "halted", height, halt: out.halt };
    out.txResults.forEach((r, j) => {
      const { index: i, ante } = delivered[j]!;
      results[i] = deliveredRecord(pool[i]!, { height, timeMs, index: i }, ante, r, this.#env.namespace);
    });
    this.#process.commit();
    const appHash = this.#process.lastAppHash();
    const raws = pool.map((p) => p.tx.bytes);
    this.blocks.append(height, timeMs, raws, appHash);
    const records = results.map((r) => r!);
    this.#aux.push(...blockWrites(height, timeMs, appHash, raws, records));
    for (const r of records) this.#unflushed.set(r.txhash, r);
    this.#mempool = [];
    this.#pendingByAccount.clear();
    return {
      kind: "committed",
      height,
      appHash,
      numTxs: pool.length,
      ...(out.applied === undefined ? {} : { applied: out.applied }),
      gov: out.gov,
    };
  }

  /** Writes every committed block since the last flush (state, pruning, block records) in one atomic batch. */
  async flush(): Promise<Result<void, string>> {
    const aux = this.#aux;
    this.#aux = [];
    const target = this.height;
    const r = await this.#backend.flush(aux);
    if (!r.ok) return { ok: false, error: r.error.message };
    // The commit record follows the database (commit-record.ts): it never names a height the disk does not have.
    try {
      writeCommitRecord(this.#recordPath, { height: target, appHash: this.appHashAt(target) ?? "" });
    } catch (e) {
      return { ok: false, error: `failed to write the commit record ${this.#recordPath}: ${errorMessage(e)}` };
    }
    this.#durable = target;
    this.#unflushed.clear();
    return ok(undefined);
  }

  /** Earliest retained state version (0 before the first block). */
  get earliestHeight(): number {
    return this.#state.store.earliestVersion();
  }

  /** The state's app hash (lower-case hex) at a retained height; undefined when pruned or not committed. */
  appHashAt(version: number): string | undefined {
    const h = this.#state.store.appHashAt(version);
    return h.ok ? toHex(h.value) : undefined;
  }

  /** A durable transaction result by hash. */
  txResult(hash: string): TxRecord | undefined {
    const r = readTx(this.#backend, hash);
    return r !== undefined && Number(r.height) <= this.#durable ? r : undefined;
  }

  /** Genesis account numbers by address (the auth query service reads sequences and keys from the state). */
  get accountNumbers(): ReadonlyMap<string, bigint> {
    return this.#env.accountNumbers;
  }

  /** The node's block store as the API reads it: durable heights only; node_info advertises `listeners().rpc`. */
  blockSource(listeners: () => NodeListeners = () => ({})): BlockSource {
    const durable = () => this.#durable;
    return {
      latestHeight: durable,
      baseHeight: () => 1,
      blockMeta: (h) => (h <= durable() ? this.blocks.meta(h) : undefined),
      blockTxs: (h) => (h <= durable() ? [...this.blocks.txs(h)] : []),
      syncing: () => false,
      nodeInfo: () => ({
        nodeId: toHex(nameToAddressBytes(`node/${this.#cfg.paths.home}`)),
        listenAddr: "tcp://127.0.0.1:26656",
        network: this.chainId,
        version: COMET_VERSION,
        moniker: basename(this.#cfg.paths.home),
        rpcAddress: listeners().rpc ?? "",
        appName: NODE_APP_NAME,
        appVersion: this.binary,
        gitCommit: "",
        sdkVersion: SDK_VERSION,
        protocolApp: this.#process.protocolVersion,
      }),
    };
  }

  /**
   * The API servers' view: upgrade, gov, block, auth and tx services over durable heights only. `listeners` are the
   * node's listening endpoints as they are now: node_info advertises the RPC address only while an RPC listener runs
   * (empty otherwise), so it never names a port where nothing answers.
   */
  queryBackend(listeners: () => NodeListeners = () => ({})): QueryBackend {
    const durable = () => this.#durable;
    const blocks = this.blockSource(listeners);
    const backend = storeBackend({
      state: {
        latestVersion: durable,
        earliestVersion: () => this.#state.store.earliestVersion(),
        readAt: (v) => this.#state.store.readAt(v),
      },
      chainId: this.chainId,
      services: [
        upgradeQueryService(this.#env.bech32Prefix),
        govQueryService(this.#staking, this.#env.bech32Prefix),
        blockService(blocks, this.#env.bech32Prefix),
        authQueryService(this.#env.accountNumbers, this.#env.bech32Prefix),
        bankQueryService(this.#env.bech32Prefix),
        txService(this),
      ],
      blockTimeMs: (h) => this.blocks.timeMs(h) ?? 0,
    });
    return wireBackend(backend, this.#env.namespace);
  }

  /** The wire namespace (app.toml `[chainsim] namespace`). */
  get namespace(): Namespace {
    return this.#env.namespace;
  }

  /** Closes the database; unflushed blocks are dropped (as a crash would drop them). */
  close(): Promise<void> {
    return this.#backend.close();
  }
}
