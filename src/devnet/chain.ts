import { basename, join } from "node:path";
import type { QueryBackend } from "../api/backend.js";
import { COMET_VERSION, NODE_APP_NAME, SDK_VERSION } from "../api/node-backend.js";
import { type BlockSource, blockService } from "../api/services/block.js";
import { govQueryService } from "../api/services/gov.js";
import { upgradeQueryService } from "../api/services/upgrade.js";
import { storeBackend } from "../api/store-backend.js";
import type { BinaryDef } from "../app/binary.js";
import { StoreCtx } from "../app/context.js";
import { type NodeState, SimNodeProcess } from "../app/node-process.js";
import { SimAppHost } from "../app/sim-host.js";
import type { GovBlockEvent, Halt, NodeConfig, SimTx } from "../app/types.js";
import type { Coins } from "../bank/coins.js";
import { BankKeeper } from "../bank/keeper.js";
import type { BlockStore } from "../chain/block-store.js";
import { addressOfName, nameToAddressBytes } from "../core/address.js";
import { height as toHeight, unixMs } from "../core/brand.js";
import { toHex, utf8 } from "../core/bytes.js";
import { type ChainError, errorText, ok, type Result } from "../core/errors.js";
import { type FileSystem, MemoryFs } from "../core/fs.js";
import type { StakingView } from "../gov/types.js";
import type { MultiStore } from "../store/types.js";
import { VersionedMultiStore } from "../store/versioned.js";
import { type AnteEnv, accountSequence, anteDeliver, parseGasPrices, verifyTx } from "./ante.js";
import { blockWrites, loadBlockStore, newBlockStore, readTx, type TxRecord } from "./block-log.js";
import { COMMIT_RECORD_FILE, checkRecovered, readCommitRecord, writeCommitRecord } from "./commit-record.js";
import type { HomeConfig } from "./home.js";
import { LevelBackend } from "./level-backend.js";
import { decodeTx, type SignedTx, toSimTx, txHash } from "./tx.js";

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
export interface TxResponse {
  readonly txhash: string;
  readonly height: string;
  readonly code: number;
  readonly codespace: string;
  readonly raw_log: string;
  readonly proposal_id?: string;
}

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

interface PoolTx {
  readonly tx: SignedTx;
  readonly raw: string;
  readonly hash: string;
}

/** The file system as NodeState types it: SimNodeProcess and SimAppHost.start only call FileSystem methods on it. */
const asNodeFs = (fs: FileSystem): MemoryFs => fs as unknown as MemoryFs;

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const storeNamesOf = (def: BinaryDef): string[] => [...def.modules.keys()];

const errorResponse = (hash: string, e: ChainError): TxResponse => ({
  txhash: hash,
  height: "0",
  code: e.kind === "sdk" ? e.base.code : 1,
  codespace: e.kind === "sdk" ? e.base.codespace : "",
  raw_log: errorText(e),
});

export interface OpenOptions {
  readonly config: HomeConfig;
  readonly binary: string;
  readonly skipHeights: readonly number[];
  /** The node's file system (HostFs at the edge): upgrade-info.json is written and read through it. */
  readonly fs: FileSystem;
  /** fsync each flush; default true. */
  readonly sync?: boolean;
}

/** What opening a node gives: a running chain, or a halt at start (the store loader failed). */
export type Opened =
  | { readonly kind: "running"; readonly chain: DevnetChain }
  | { readonly kind: "halted"; readonly halt: Halt; close(): Promise<void> };

/** The endpoints a running node listens on (`tcp://host:port`), set when each listener is up. */
export interface NodeListeners {
  /** The CometBFT RPC listener (`rpc.laddr`), when one runs. */
  readonly rpc?: string;
}

export class DevnetChain {
  readonly binary: string;
  readonly blocks: BlockStore<string>;
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
    blocks: BlockStore<string>,
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
    const validators = cfg.chain.genesis.validators;
    this.#staking = {
      bondedValidators: () => validators.map((v) => ({ operator: addressOfName(v.name), tokens: BigInt(v.power) })),
    };
  }

  /**
   * Opens the database under data/, rebuilds the block log, and starts `binary` over the state: a fresh node mounts
   * the binary's stores; a node with history goes through SimAppHost.start (upgrade-info.json read, store loader,
   * load). A start failure is a `store-load-failed` halt, returned as `halted`.
   */
  static async open(o: OpenOptions): Promise<Result<Opened, string>> {
    const { config } = o;
    const chain = config.chain;
    const def = chain.binaries.get(o.binary);
    if (def === undefined)
      return {
        ok: false,
        error: `unknown binary "${o.binary}" (${config.paths.binaries} defines ${[...chain.binaries.keys()].join(", ")})`,
      };
    const prices = parseGasPrices(config.app.minimumGasPrices);
    if (!prices.ok) return { ok: false, error: `${config.paths.appToml}: ${prices.error}` };
    const genesisDef = chain.binaries.get(chain.genesisBinary)!;
    let genesisAppHash: string;
    try {
      const scratch: NodeState = {
        store: new VersionedMultiStore({ storeNames: storeNamesOf(genesisDef), pruning: config.app.pruning }),
        fs: new MemoryFs(),
        home: "/genesis",
      };
      genesisAppHash = new SimNodeProcess(scratch, genesisDef, chain.genesis, []).genesisAppHash();
    } catch (e) {
      return { ok: false, error: `${config.paths.genesis}: ${e instanceof Error ? e.message : String(e)}` };
    }
    const made = o.fs.mkdirAll(config.paths.data, 0o755);
    if (!made.ok) return { ok: false, error: made.error.message };
    const recordPath = join(config.paths.data, COMMIT_RECORD_FILE);
    const refuse = (reason: string) =>
      `${reason}; refusing to start. To recover, restore ${config.paths.data} from the visor's backup ` +
      `($DAEMON_DATA_BACKUP_DIR/data-backup-<date>, by default under ${config.paths.home}), or start a new chain ` +
      "with `chainsim init --overwrite`";
    const record = readCommitRecord(recordPath);
    if (typeof record === "object" && "error" in record) {
      return { ok: false, error: refuse(`the commit record ${recordPath} is damaged (${record.error})`) };
    }
    const opened = await LevelBackend.open(config.paths.db, { sync: o.sync ?? true });
    if (!opened.ok) return { ok: false, error: refuse(opened.error.message) };
    const backend = opened.value;
    const identity = { chainId: chain.chainId, genesisAppHash, validators: chain.genesis.validators };
    let store: VersionedMultiStore;
    let blocks: BlockStore<string>;
    try {
      store = new VersionedMultiStore({ storeNames: storeNamesOf(def), pruning: config.app.pruning, backend });
      blocks = store.latestVersion() === 0 ? newBlockStore(identity) : await loadBlockStore(backend, identity);
    } catch (e) {
      await backend.close();
      return { ok: false, error: refuse(`the database ${config.paths.db} is damaged (${errorMessage(e)})`) };
    }
    const last = store.latestVersion();
    const appHashAt = (h: number): string | undefined => {
      const a = store.appHashAt(h);
      return a.ok ? toHex(a.value) : undefined;
    };
    const mismatch =
      blocks.height !== last
        ? `block log at height ${blocks.height} does not match the state at height ${last}`
        : last > 0 && blocks.appHash(last) !== undefined && blocks.appHash(last) !== appHashAt(last)
          ? `the block log's app hash at height ${last} does not match the state's`
          : checkRecovered(record, last, appHashAt, recordPath);
    if (mismatch !== undefined) {
      await backend.close();
      return { ok: false, error: refuse(mismatch) };
    }
    const state: NodeState = { store, fs: asNodeFs(o.fs), home: config.paths.home };
    const env: AnteEnv = { chainId: chain.chainId, pubkeys: chain.pubkeys, minGasPrices: prices.value };
    let process: SimNodeProcess;
    if (last === 0) {
      process = new SimNodeProcess(state, def, chain.genesis, o.skipHeights);
    } else {
      const host = new SimAppHost(chain.genesis, chain.binaries, chain.genesisBinary, config.app.pruning);
      const nodeCfg = { name: basename(config.paths.home) } as NodeConfig;
      const started = host.start(state, nodeCfg, o.binary, o.skipHeights);
      if (!started.ok) return ok({ kind: "halted", halt: started.halt, close: () => backend.close() });
      process = started.process as SimNodeProcess;
    }
    return ok({ kind: "running", chain: new DevnetChain(config, o.binary, backend, state, process, blocks, env) });
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
   * CheckTx: decodes and verifies the transaction against the last committed state (sequence offset by this
   * account's transactions already in the mempool) and, when it passes, queues it for the next block.
   */
  checkTx(body: string): TxResponse {
    const decoded = decodeTx(body);
    if (!decoded.ok) return errorResponse("", decoded.error);
    const tx = decoded.value;
    const hash = txHash(tx);
    const ctx = this.#ctxAt(this.height);
    if (ctx === undefined)
      return {
        txhash: hash,
        height: "0",
        code: 26,
        codespace: "sdk",
        raw_log: "chain is not ready; please wait for first block: invalid height",
      };
    const pending = this.#pendingByAccount.get(tx.account) ?? 0n;
    const v = verifyTx(ctx, tx, this.#env, { pending, checkFunds: true });
    if (!v.ok) return errorResponse(hash, v.error);
    this.#mempool.push({ tx, raw: JSON.stringify(tx), hash });
    this.#pendingByAccount.set(tx.account, pending + 1n);
    return { txhash: hash, height: "0", code: 0, codespace: "", raw_log: "" };
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
    const delivered: number[] = [];
    pool.forEach((p, i) => {
      if (height === 1) {
        results.push(failed(p.hash, height, i, "chain is not ready; please wait for first block: invalid height"));
        return;
      }
      const a = anteDeliver(ctx, p.tx, this.#env);
      if (!a.ok) {
        const r = errorResponse(p.hash, a.error);
        results.push({ ...r, height: String(height), index: i });
        return;
      }
      results.push(undefined);
      delivered.push(i);
      simTxs.push(toSimTx(p.tx.msgs[0]!, p.tx.account));
    });
    const out = this.#process.execute(height, timeMs, simTxs);
    if (!out.ok) return { kind: "halted", height, halt: out.halt };
    out.txResults.forEach((r, j) => {
      const i = delivered[j]!;
      const hash = pool[i]!.hash;
      results[i] = r.ok
        ? {
            txhash: hash,
            height: String(height),
            index: i,
            code: 0,
            codespace: "",
            raw_log: "",
            ...(r.proposalId === undefined ? {} : { proposal_id: r.proposalId.toString() }),
          }
        : failed(hash, height, i, r.error ?? "");
    });
    this.#process.commit();
    const appHash = this.#process.lastAppHash();
    const raws = pool.map((p) => p.raw);
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

  /** Sequence and registration of an account at the durable height; undefined when it has no registered key. */
  account(address: string): { readonly sequence: bigint; readonly pubkey: Uint8Array } | undefined {
    const pubkey = this.#env.pubkeys.get(address);
    const ctx = this.#ctxAt(this.#durable);
    if (pubkey === undefined || ctx === undefined) return undefined;
    return { sequence: accountSequence(ctx, address), pubkey };
  }

  /** Bank balances at the durable height. */
  balances(address: string): Coins {
    const ctx = this.#ctxAt(this.#durable);
    return ctx === undefined ? [] : new BankKeeper().allBalances(ctx, address);
  }

  /**
   * The API servers' view: upgrade, gov and block services over durable heights only. `listeners` are the node's
   * listening endpoints as they are now: node_info advertises the RPC address only while an RPC listener runs
   * (empty otherwise), so it never names a port where nothing answers.
   */
  queryBackend(listeners: () => NodeListeners = () => ({})): QueryBackend {
    const durable = () => this.#durable;
    const blocks: BlockSource = {
      latestHeight: durable,
      baseHeight: () => 1,
      blockMeta: (h) => (h <= durable() ? this.blocks.meta(h) : undefined),
      blockTxs: (h) => (h <= durable() ? this.blocks.txs(h).map(utf8) : []),
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
    return storeBackend({
      state: {
        latestVersion: durable,
        earliestVersion: () => this.#state.store.earliestVersion(),
        readAt: (v) => this.#state.store.readAt(v),
      },
      chainId: this.chainId,
      services: [upgradeQueryService(), govQueryService(this.#staking), blockService(blocks)],
      blockTimeMs: (h) => this.blocks.timeMs(h) ?? 0,
    });
  }

  /** Closes the database; unflushed blocks are dropped (as a crash would drop them). */
  close(): Promise<void> {
    return this.#backend.close();
  }
}

function failed(hash: string, height: number, index: number, log: string): TxRecord {
  return { txhash: hash, height: String(height), index, code: 1, codespace: "", raw_log: log };
}
