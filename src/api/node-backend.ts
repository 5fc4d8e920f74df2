import { createRegistry } from "@bufbuild/protobuf";
import type { NodeState } from "../app/node-process.js";
import { canonicalJson } from "../chain/canonical-json.js";
import type { ChainEngine } from "../chain/engine.js";
import type { SimTx } from "../chain/types.js";
import { addressOfName, nameToAddressBytes } from "../core/address.js";
import { toHex, utf8 } from "../core/bytes.js";
import { err, ok, type PlainError, plain, type Result } from "../core/errors.js";
import { file_chain_gov_v1_tx } from "../gen/chain/gov/v1/tx_pb.js";
import { file_chain_upgrade_v1beta1_tx } from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import type { StakingView } from "../gov/types.js";
import type { QueryBackend } from "./backend.js";
import { DEFAULT_NON_NULLABLE, type GatewayJsonOptions } from "./json.js";
import { type BlockSource, blockService, type NodeInfo } from "./services/block.js";
import { govQueryService } from "./services/gov.js";
import { upgradeQueryService } from "./services/upgrade.js";
import { storeBackend } from "./store-backend.js";

/**
 * The JSON options of a node's gateway: proposals carry their messages as Any (`/chain.upgrade.v1beta1.MsgSoftwareUpgrade`,
 * `/chain.upgrade.v1beta1.MsgCancelUpgrade`, gov's own messages), which render only when their types are registered.
 */
export const NODE_JSON: GatewayJsonOptions = Object.freeze({
  registry: createRegistry(file_chain_upgrade_v1beta1_tx, file_chain_gov_v1_tx),
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
}

/** Bytes of a simulated transaction as the block store hashes them. */
const txBytes = (tx: SimTx): Uint8Array => utf8(canonicalJson(tx));

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
  const nodeHeight = () => sim.nodeStatus(node)?.height ?? 0;
  const validators = opts.validators ?? [];
  const staking: StakingView = {
    bondedValidators: () =>
      validators.map((v) => ({ operator: addressOfName(v.name), tokens: BigInt(v.power) })),
  };
  const blocks: BlockSource = {
    latestHeight: () => Math.min(nodeHeight(), sim.blocks.height),
    baseHeight: () => 1,
    blockMeta: (h) => (h <= nodeHeight() ? sim.blocks.meta(h) : undefined),
    blockTxs: (h) => (h <= nodeHeight() ? sim.blocks.txs(h).map(txBytes) : []),
    syncing: () => false,
    nodeInfo: (): NodeInfo => ({
      nodeId: toHex(nameToAddressBytes(`node/${node}`)),
      listenAddr: "tcp://0.0.0.0:26656",
      network: sim.cfg.chainId,
      version: COMET_VERSION,
      moniker: node,
      rpcAddress: "tcp://127.0.0.1:26657",
      appName: NODE_APP_NAME,
      appVersion: sim.nodeStatus(node)?.binary ?? "",
      gitCommit: "",
      sdkVersion: SDK_VERSION,
      protocolApp: BigInt(sim.host.readCommitted(state).protocolVersion),
    }),
  };
  return ok(
    storeBackend({
      state: {
        latestVersion: () => state.store.latestVersion(),
        earliestVersion: () => state.store.earliestVersion(),
        readAt: (v) => state.store.readAt(v),
      },
      chainId: sim.cfg.chainId,
      services: [upgradeQueryService(), govQueryService(staking), blockService(blocks)],
      ...(opts.appName === undefined ? {} : { appName: opts.appName }),
      blockTimeMs: (h) => sim.blocks.timeMs(h) ?? 0,
    }),
  );
}
