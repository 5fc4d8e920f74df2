import { createRegistry } from "@bufbuild/protobuf";
import { sha256 } from "@noble/hashes/sha2.js";
import type { NodeState } from "../app/node-process.js";
import type { SimTx } from "../app/types.js";
import type { BlockMeta } from "../chain/block-store.js";
import { canonicalJson } from "../chain/canonical-json.js";
import type { ChainEngine } from "../chain/engine.js";
import { addressOfName, nameToAddressBytes } from "../core/address.js";
import { BoundedCache } from "../core/bounded-cache.js";
import { toHex, utf8 } from "../core/bytes.js";
import { err, ok, type PlainError, plain, type Result } from "../core/errors.js";
import { file_chain_auth_v1beta1_auth } from "../gen/chain/auth/v1beta1/auth_pb.js";
import { file_chain_crypto_secp256k1_keys } from "../gen/chain/crypto/secp256k1/keys_pb.js";
import { file_chain_gov_v1_tx } from "../gen/chain/gov/v1/tx_pb.js";
import { file_chain_tx_v1beta1_tx } from "../gen/chain/tx/v1beta1/tx_pb.js";
import { file_chain_upgrade_v1beta1_tx } from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import type { StakingView } from "../gov/types.js";
import type { MultiStore, StoreError } from "../store/types.js";
import type { VersionedMultiStore } from "../store/versioned.js";
import type { QueryBackend } from "./backend.js";
import { DEFAULT_NON_NULLABLE, type GatewayJsonOptions } from "./json.js";
import { bankQueryService } from "./services/bank.js";
import { type BlockSource, blockService, type NodeInfo } from "./services/block.js";
import { govQueryService } from "./services/gov.js";
import { upgradeQueryService } from "./services/upgrade.js";
import { storeBackend } from "./store-backend.js";

/**
 * The JSON options of a node's gateway: proposals carry their messages as Any (`/chain.upgrade.v1beta1.MsgSoftwareUpgrade`,
 * `/chain.upgrade.v1beta1.MsgCancelUpgrade`, gov's own messages), and the devnet's tx and account answers carry a
 * Tx, a BaseAccount and a PubKey as Any; they render only when their types are registered.
 */
export const NODE_JSON: GatewayJsonOptions = Object.freeze({
  registry: createRegistry(
    file_chain_upgrade_v1beta1_tx,
    file_chain_gov_v1_tx,
    file_chain_tx_v1beta1_tx,
    file_chain_auth_v1beta1_auth,
    file_chain_crypto_secp256k1_keys,
  ),
  nonNullable: DEFAULT_NON_NULLABLE,
});

/** What a served node reports as its identity (`GetNodeInfo`), besides the chain id and its binary. */
export const NODE_APP_NAME = "chainsimd";
export const COMET_VERSION = "0.38.17";
export const SDK_VERSION = "v0.50.10";

export interface NodeBackendOptions {
  /** Bonded validators for the tally of proposals in their voting period (the scenario's `chain.validators`). */
  readonly validators?: readonly { readonly name: string; readonly power: number }[];
  /** App name of the "not ready" error; default `SimApp`. */
  readonly appName?: string;
  /** The CometBFT RPC address node info advertises; "" (the default) when no RPC listener runs. */
  readonly rpcAddress?: string;
}

/** A header hash field as upper-case hex: the engine's block store carries the validator set's canonical JSON as
 * its "validators hash"; the API serves its SHA-256 instead (a hash field must be hex). */
const hexHash = (v: string): string => (/^([0-9A-Fa-f]{2})*$/.test(v) ? v : toHex(sha256(utf8(v))).toUpperCase());

/** The block meta of a stored block with every hash field in hex. */
function servedMeta(meta: BlockMeta | undefined): BlockMeta | undefined {
  if (meta === undefined) return undefined;
  return {
    ...meta,
    header: {
      ...meta.header,
      validators_hash: hexHash(meta.header.validators_hash),
      next_validators_hash: hexHash(meta.header.next_validators_hash),
    },
  };
}

const VIEW_CACHE_SIZE = 64;

/**
 * Recently read versions of a node's store. A view is a snapshot that later commits do not change, so it is reused
 * while the store object is the same (a restart or swap replaces it) and the version is still retained (pruning is
 * checked on every read, so a pruned version fails as the store says).
 */
class ViewCache {
  #store: VersionedMultiStore | undefined;
  readonly #views = new BoundedCache<number, MultiStore>(VIEW_CACHE_SIZE);

  readAt(store: VersionedMultiStore, version: number): Result<MultiStore, StoreError> {
    if (store !== this.#store) {
      this.#store = store;
      this.#views.clear();
    }
    const cached = this.#views.get(version);
    if (cached !== undefined && version >= store.earliestVersion() && version <= store.latestVersion()) {
      return ok(cached);
    }
    const view = store.readAt(version);
    if (!view.ok) {
      this.#views.delete(version);
      return view;
    }
    this.#views.set(version, view.value);
    return view;
  }
}

/** Bytes of a simulated transaction as the block store hashes them. */
const txBytes = (tx: SimTx): Uint8Array => utf8(canonicalJson(tx));

/**
 * One simulated node's view of the chain's block store: blocks up to the node's own height (a lagging node does not
 * know later blocks), hash fields in hex, its identity as node info.
 */
export function nodeBlockSource(sim: ChainEngine<NodeState>, node: string, rpcAddress = ""): BlockSource {
  const nodeHeight = () => sim.nodeStatus(node)?.height ?? 0;
  const state = sim.nodeState(node);
  return {
    latestHeight: () => Math.min(nodeHeight(), sim.blocks.height),
    baseHeight: () => sim.blocks.base + 1,
    blockMeta: (h) => (h <= nodeHeight() ? servedMeta(sim.blocks.meta(h)) : undefined),
    blockTxs: (h) => (h <= nodeHeight() ? sim.blocks.txs(h).map(txBytes) : []),
    syncing: () => false,
    nodeInfo: (): NodeInfo => ({
      nodeId: toHex(nameToAddressBytes(`node/${node}`)),
      listenAddr: "tcp://0.0.0.0:26656",
      network: sim.cfg.chainId,
      version: COMET_VERSION,
      moniker: node,
      rpcAddress,
      appName: NODE_APP_NAME,
      appVersion: sim.nodeStatus(node)?.binary ?? "",
      gitCommit: "",
      sdkVersion: SDK_VERSION,
      protocolApp: state === undefined ? 0n : BigInt(sim.host.readCommitted(state).protocolVersion),
    }),
  };
}

/**
 * The QueryBackend of one node of a simulation: the upgrade, gov and block services over that node's own state.
 * - State: every version the node's VersionedMultiStore retains (its pruning applies), read at query time, so the
 *   backend follows the node as the simulation goes on (restarts and swaps replace the store object).
 * - Blocks: the chain's block store, but only up to the node's own height (a lagging node does not know later
 *   blocks). Syncing is always false.
 * - Node info: the chain id as network, the node's name as moniker, its current binary as application version.
 * Unknown node → `unknown node "<name>"`.
 */
export function nodeBackend(
  sim: ChainEngine<NodeState>,
  node: string,
  opts: NodeBackendOptions = {},
): Result<QueryBackend, PlainError> {
  const state = sim.nodeState(node);
  if (state === undefined) return err(plain(`unknown node "${node}"`));
  const views = new ViewCache();
  const validators = opts.validators ?? [];
  const prefix = sim.cfg.bech32Prefix;
  const staking: StakingView = {
    bondedValidators: () =>
      validators.map((v) => ({ operator: addressOfName(v.name, prefix), tokens: BigInt(v.power) })),
  };
  const blocks = nodeBlockSource(sim, node, opts.rpcAddress);
  return ok(
    storeBackend({
      state: {
        latestVersion: () => state.store.latestVersion(),
        earliestVersion: () => state.store.earliestVersion(),
        readAt: (v) => views.readAt(state.store, v),
      },
      chainId: sim.cfg.chainId,
      services: [
        upgradeQueryService(prefix),
        govQueryService(staking, prefix),
        blockService(blocks, prefix),
        bankQueryService(prefix),
      ],
      ...(opts.appName === undefined ? {} : { appName: opts.appName }),
      blockTimeMs: (h) => sim.blocks.timeMs(h) ?? 0,
    }),
  );
}
