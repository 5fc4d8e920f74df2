import { basename, join } from "node:path";
import type { BinaryDef } from "../app/binary.js";
import { type NodeState, SimNodeProcess } from "../app/node-process.js";
import { SimAppHost } from "../app/sim-host.js";
import type { Halt, NodeConfig } from "../app/types.js";
import type { BlockStore } from "../chain/block-store.js";
import { toHex } from "../core/bytes.js";
import { ok, type Result } from "../core/errors.js";
import { type FileSystem, MemoryFs } from "../core/fs.js";
import { VersionedMultiStore } from "../store/versioned.js";
import { type AnteEnv, parseGasPrices } from "./ante.js";
import { loadBlockStore, newBlockStore } from "./block-log.js";
import { COMMIT_RECORD_FILE, checkRecovered, readCommitRecord } from "./commit-record.js";
import type { HomeConfig } from "./home.js";
import { LevelBackend } from "./level-backend.js";

/**
 * Opening a devnet node's chain (DevnetChain.open), in order:
 *
 * 1. the binary must be defined, app.toml's minimum gas prices must parse, and the genesis binary must build the
 *    genesis state (its app hash is the chain's identity with the chain id and the validators);
 * 2. data/ is made, the commit record read (a damaged one refuses to start), LevelDB opened, the multistore and
 *    the block log loaded;
 * 3. the block log, the state and the commit record must agree (height, app hash; commit-record.ts
 *    `checkRecovered`), else the node refuses to start and says how to recover;
 * 4. `binary` starts over the state: a fresh node mounts the binary's stores; a node with history goes through
 *    SimAppHost.start (upgrade-info.json read, store loader, load), whose failure is a `halted` opening.
 */
export interface OpenOptions {
  readonly config: HomeConfig;
  readonly binary: string;
  readonly skipHeights: readonly number[];
  /** The node's file system (HostFs at the edge): upgrade-info.json is written and read through it. */
  readonly fs: FileSystem;
  /** fsync each flush; default true. */
  readonly sync?: boolean;
}

/** The parts of a running node's chain, opened (DevnetChain's constructor takes them). */
export interface OpenedNode {
  readonly kind: "running";
  readonly backend: LevelBackend;
  readonly state: NodeState;
  readonly process: SimNodeProcess;
  readonly blocks: BlockStore<Uint8Array>;
  readonly env: AnteEnv;
}

/** A halt at start (the store loader failed); `close` closes the database. */
export interface HaltedAtOpen {
  readonly kind: "halted";
  readonly halt: Halt;
  close(): Promise<void>;
}

/** The file system as NodeState types it: SimNodeProcess and SimAppHost.start only call FileSystem methods on it. */
const asNodeFs = (fs: FileSystem): MemoryFs => fs as unknown as MemoryFs;

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const storeNamesOf = (def: BinaryDef): string[] => [...def.modules.keys()];

export async function openNode(o: OpenOptions): Promise<Result<OpenedNode | HaltedAtOpen, string>> {
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
  let blocks: BlockStore<Uint8Array>;
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
  const accountNumbers = new Map([...chain.accounts].map(([a, info]) => [a, info.accountNumber]));
  const env: AnteEnv = {
    chainId: chain.chainId,
    accountNumbers,
    minGasPrices: prices.value,
    namespace: config.app.namespace,
    bech32Prefix: chain.genesis.bech32Prefix,
  };
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
  return ok({ kind: "running", backend, state, process, blocks, env });
}
