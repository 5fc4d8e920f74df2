import { pubkeyJson, upperHex } from "../shapes.js";
import type { RpcSource } from "../source.js";
import type { MethodTable } from "./table.js";

/**
 * The node and network methods of CometBFT v0.38's RPC (rpc/core/health.go, status.go, net.go): health, status,
 * net_info and genesis, rendered as CometBFT renders them (ResultStatus, ResultNetInfo, ResultGenesis).
 *
 * A node with no blocks yet reports empty hashes, height 0 and the Unix epoch as its block times; a node with no
 * validators a null validator key with power 0.
 */
export function networkMethods(s: RpcSource): MethodTable {
  return [
    ["health", { args: [], run: () => ({}) }],
    ["status", { args: [], run: () => status(s) }],
    [
      "net_info",
      {
        args: [],
        run: () => ({
          listening: true,
          listeners: [`Listener(@${s.blocks.nodeInfo().listenAddr})`],
          n_peers: "0",
          peers: [],
        }),
      },
    ],
    ["genesis", { args: [], run: () => genesis(s) }],
  ];
}

function status(s: RpcSource) {
  const n = s.blocks.nodeInfo();
  const latest = s.blocks.latestHeight();
  const base = s.blocks.baseHeight();
  const lm = latest > 0 ? s.blocks.blockMeta(latest) : undefined;
  const em = latest > 0 ? s.blocks.blockMeta(base) : undefined;
  const v = s.validators()[0];
  return {
    node_info: {
      protocol_version: { p2p: "8", block: "11", app: n.protocolApp.toString() },
      id: n.nodeId,
      listen_addr: n.listenAddr,
      network: n.network,
      version: n.version,
      channels: "40202122233038606100",
      moniker: n.moniker,
      other: { tx_index: "on", rpc_address: n.rpcAddress },
    },
    sync_info: {
      latest_block_hash: lm?.block_id.hash ?? "",
      latest_app_hash: lm?.header.app_hash ?? "",
      latest_block_height: String(latest),
      latest_block_time: lm?.header.time ?? "1970-01-01T00:00:00Z",
      earliest_block_hash: em?.block_id.hash ?? "",
      earliest_app_hash: em?.header.app_hash ?? "",
      earliest_block_height: String(em === undefined ? 0 : base),
      earliest_block_time: em?.header.time ?? "1970-01-01T00:00:00Z",
      catching_up: s.blocks.syncing(),
    },
    validator_info:
      v === undefined
        ? { address: "", pub_key: null, voting_power: "0" }
        : { address: upperHex(v.address), pub_key: pubkeyJson(v.pubkey), voting_power: v.power.toString() },
  };
}

function genesis(s: RpcSource) {
  const g = s.genesis();
  const n = s.blocks.nodeInfo();
  return {
    genesis: {
      genesis_time: new Date(g.timeMs).toISOString().replace(".000Z", "Z"),
      chain_id: n.network,
      initial_height: String(g.initialHeight),
      consensus_params: {
        block: { max_bytes: "22020096", max_gas: "-1" },
        evidence: { max_age_num_blocks: "100000", max_age_duration: "172800000000000", max_bytes: "1048576" },
        validator: { pub_key_types: ["ed25519"] },
        version: { app: "0" },
        abci: { vote_extensions_enable_height: "0" },
      },
      validators: s.validators().map((v) => ({
        address: upperHex(v.address),
        pub_key: pubkeyJson(v.pubkey),
        power: v.power.toString(),
        name: v.name,
      })),
      app_hash: "",
      app_state: g.appState,
    },
  };
}
