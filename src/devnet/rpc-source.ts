import { base64 } from "@scure/base";
import type { QueryBackend } from "../api/backend.js";
import { rpcValidators } from "../api/rpc/shapes.js";
import type { RpcSource, RpcTxResult } from "../api/rpc/source.js";
import type { TxRecord } from "./block-log.js";
import type { DevnetChain, NodeListeners } from "./chain.js";
import type { HomeConfig } from "./home.js";
import { txHash } from "./tx.js";

/**
 * The CometBFT RPC's view of a devnet node: the durable blocks and tx results, the query backend gRPC and REST use,
 * and the mempool (broadcasts go through CheckTx; `broadcast_tx_commit` waits, polling the tx index).
 */
const resultOf = (r: TxRecord): RpcTxResult => ({
  code: r.code,
  codespace: r.codespace,
  log: r.raw_log,
  gasWanted: BigInt(r.gas_wanted),
  gasUsed: BigInt(r.gas_used),
  events: r.events,
  ...(r.data === undefined ? {} : { data: base64.decode(r.data) }),
});

const POLL_MS = 50;

export function devnetRpcSource(
  chain: DevnetChain,
  cfg: HomeConfig,
  backend: QueryBackend,
  listeners: () => NodeListeners = () => ({}),
): RpcSource {
  const validators = rpcValidators(cfg.chain.genesis.validators);
  return {
    backend,
    blocks: chain.blockSource(listeners),
    appHashAfter: (h) => (h <= chain.durableHeight ? chain.blocks.appHash(h)?.toUpperCase() : undefined),
    blockResults: (h) => {
      if (h > chain.durableHeight) return [];
      return chain.blocks.txs(h).map((tx) => {
        const r = chain.txResult(txHash(tx));
        return r === undefined
          ? { code: 1, codespace: "", log: "result not found", gasWanted: 0n, gasUsed: 0n, events: [] }
          : resultOf(r);
      });
    },
    validators: () => validators,
    genesis: () => ({ timeMs: chain.blocks.timeMs(1) ?? 0, initialHeight: 1, appState: cfg.genesisDoc }),
    mempool: () => ({ count: chain.mempoolSize, bytes: chain.mempoolBytes }),
    txHeight: (hash) => {
      const r = chain.txResult(hash);
      return r === undefined ? undefined : Number(r.height);
    },
    broadcast: {
      commitTimeoutMs: cfg.comet.rpc.timeoutBroadcastTxCommitMs,
      check: (tx) => {
        const c = chain.checkTx(tx);
        if (c.kind === "mempool") return { kind: "mempool", hash: c.hash, message: c.message };
        return {
          kind: "checked",
          hash: c.hash,
          result: {
            code: c.code,
            codespace: c.codespace,
            log: c.log,
            gasWanted: c.gasWanted,
            gasUsed: c.gasUsed,
            events: [],
          },
        };
      },
      committed: async (hash, timeoutMs) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const r = chain.txResult(hash);
          if (r !== undefined) return Number(r.height);
          if (Date.now() >= deadline) return undefined;
          await new Promise((res) => setTimeout(res, POLL_MS));
        }
      },
    },
  };
}
