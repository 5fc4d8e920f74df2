import type { Namespace } from "../core/namespace.js";
import { type ApiConfig, DEFAULT_API, DEFAULT_GRPC, type GrpcConfig } from "./config.js";

/**
 * The app.toml the simulator writes (Cosmos SDK v0.50 server/config/toml.go `DefaultConfigTemplate`): the reference
 * template's keys and comments for the parts modelled here, one builder per section in the template's order (base,
 * api, grpc, grpc-web, state-sync, mempool), then chainsim's own `[chainsim]` section. parseAppToml (config.ts) reads
 * every file written here back to the values it was written with.
 */
export interface AppTomlTemplateOptions {
  /** Written by every template the simulator produces (an empty value fails `chainsim start`). */
  readonly minimumGasPrices?: string;
  readonly pruning?: string;
  readonly api?: Partial<ApiConfig>;
  readonly grpc?: Partial<GrpcConfig>;
  /** `[grpc-web] enable` (the reference's default: true). */
  readonly grpcWebEnable?: boolean;
  /** `[chainsim] namespace` (default `chain`). */
  readonly namespace?: Namespace;
}

const q = (s: string) => JSON.stringify(s);

/** The app.toml text, section by section. */
export function defaultAppToml(opts: AppTomlTemplateOptions = {}): string {
  return [
    baseSection(opts),
    apiSection({ ...DEFAULT_API, ...opts.api }),
    grpcSection({ ...DEFAULT_GRPC, ...opts.grpc }),
    grpcWebSection(opts.grpcWebEnable ?? true),
    stateSyncSection(),
    mempoolSection(),
    chainsimSection(opts.namespace ?? "chain"),
  ].join("");
}

/** The base keys: gas prices, pruning, halt height and time, and the store's tuning (not modelled: written as the reference writes them). */
function baseSection(opts: AppTomlTemplateOptions): string {
  return `# This is a TOML config file.
# For more information, see https://github.com/toml-lang/toml

###############################################################################
###                           Base Configuration                            ###
###############################################################################

# The minimum gas prices a validator is willing to accept for processing a
# transaction. A transaction's fees must meet the minimum of any denomination
# specified in this config (e.g. 0.25token1,0.0001token2).
minimum-gas-prices = ${q(opts.minimumGasPrices ?? "0stake")}

# The maximum gas a query coming over rest/grpc may consume.
# If this is set to zero, the query can consume an unbounded amount of gas.
query-gas-limit = "0"

# default: the last 362880 states are kept, pruning at 10 block intervals
# nothing: all historic states will be saved, nothing will be deleted (i.e. archiving node)
# everything: 2 latest states will be kept; pruning at 10 block intervals.
# custom: allow pruning options to be manually specified through 'pruning-keep-recent', and 'pruning-interval'
pruning = ${q(opts.pruning ?? "default")}

# These are applied if and only if the pruning strategy is custom.
pruning-keep-recent = "0"
pruning-interval = "0"

# HaltHeight contains a non-zero block height at which a node will gracefully
# halt and shutdown that can be used to assist upgrades and testing.
#
# Note: Commitment of state will be attempted on the corresponding block.
halt-height = 0

# HaltTime contains a non-zero minimum block time (in Unix seconds) at which
# a node will gracefully halt and shutdown that can be used to assist upgrades
# and testing.
#
# Note: Commitment of state will be attempted on the corresponding block.
halt-time = 0

# MinRetainBlocks defines the minimum block height offset from the current
# block being committed, such that all blocks past this offset are pruned
# from CometBFT. A value of 0 indicates that no blocks should be pruned.
min-retain-blocks = 0

# InterBlockCache enables inter-block caching.
inter-block-cache = true

# IndexEvents defines the set of events in the form {eventType}.{attributeKey},
# which informs CometBFT what to index. If empty, all events will be indexed.
index-events = []

# IavlCacheSize set the size of the iavl tree cache (in number of nodes).
iavl-cache-size = 781250

# IAVLDisableFastNode enables or disables the fast node feature of IAVL.
# Default is false.
iavl-disable-fastnode = false

# AppDBBackend defines the database backend type to use for the application and snapshots DBs.
# An empty string indicates that a fallback will be used.
app-db-backend = ""

`;
}

/** `[api]`: the REST server (docs/node-api.md §1). */
function apiSection(api: ApiConfig): string {
  return `###############################################################################
###                           API Configuration                             ###
###############################################################################

[api]

# Enable defines if the API server should be enabled.
enable = ${api.enable}

# Swagger defines if swagger documentation should automatically be registered.
swagger = ${api.swagger}

# Address defines the API server to listen on.
address = ${q(api.address)}

# MaxOpenConnections defines the number of maximum open connections.
max-open-connections = ${api.maxOpenConnections}

# RPCReadTimeout defines the CometBFT RPC read timeout (in seconds).
rpc-read-timeout = ${api.rpcReadTimeoutSeconds}

# RPCWriteTimeout defines the CometBFT RPC write timeout (in seconds).
rpc-write-timeout = ${api.rpcWriteTimeoutSeconds}

# RPCMaxBodyBytes defines the CometBFT maximum request body (in bytes).
rpc-max-body-bytes = ${api.rpcMaxBodyBytes}

# EnableUnsafeCORS defines if CORS should be enabled (unsafe - use it at your own risk).
enabled-unsafe-cors = ${api.enabledUnsafeCors}

`;
}

/** `[grpc]`: the gRPC server; the message sizes are written quoted, as the reference's template writes them. */
function grpcSection(grpc: GrpcConfig): string {
  return `###############################################################################
###                           gRPC Configuration                            ###
###############################################################################

[grpc]

# Enable defines if the gRPC server should be enabled.
enable = ${grpc.enable}

# Address defines the gRPC server address to bind to.
address = ${q(grpc.address)}

# MaxRecvMsgSize defines the max message size in bytes the server can receive.
# The default value is 10MB.
max-recv-msg-size = "${grpc.maxRecvMsgSizeBytes}"

# MaxSendMsgSize defines the max message size in bytes the server can send.
# The default value is math.MaxInt32.
max-send-msg-size = "${grpc.maxSendMsgSizeBytes}"

`;
}

/** `[grpc-web]`. */
function grpcWebSection(enable: boolean): string {
  return `###############################################################################
###                        gRPC Web Configuration                           ###
###############################################################################

[grpc-web]

# GRPCWebEnable defines if the gRPC-web should be enabled.
# NOTE: gRPC must also be enabled, otherwise, this configuration is a no-op.
# NOTE: gRPC-Web uses the same address as the API server.
enable = ${enable}

`;
}

/** `[state-sync]`: snapshots off. */
function stateSyncSection(): string {
  return `###############################################################################
###                        State Sync Configuration                         ###
###############################################################################

# State sync snapshots allow other nodes to rapidly join the network without replaying historical
# blocks, instead downloading and applying a snapshot of the application state at a given height.
[state-sync]

# snapshot-interval specifies the block interval at which local state sync snapshots are
# taken (0 to disable).
snapshot-interval = 0

# snapshot-keep-recent specifies the number of recent snapshots to keep and serve (0 to keep all).
snapshot-keep-recent = 2

`;
}

/** `[mempool]`: the SDK's app-side mempool off (`max-txs = -1`). */
function mempoolSection(): string {
  return `###############################################################################
###                                 Mempool                                 ###
###############################################################################

[mempool]
# Setting max-txs to 0 will allow for a unbounded amount of transactions in the mempool.
# Setting max_txs to negative 1 (-1) will disable transactions from being inserted into the mempool (no-op mempool).
# Setting max_txs to a positive number (> 0) will limit the number of transactions in the mempool, by the specified amount.
#
# Note, this configuration only applies to SDK built-in app-side mempool
# implementations.
max-txs = -1

`;
}

/** `[chainsim]`: chainsim's own key, the wire namespace (src/core/namespace.ts). */
function chainsimSection(namespace: Namespace): string {
  return `###############################################################################
###                          chainsim Configuration                         ###
###############################################################################

[chainsim]
# The names the node speaks on every wire (gRPC services and reflection, REST
# paths and Swagger, the height header, abci_query paths, type URLs):
# "chain" (chainsim's own) or "cosmos" (the Cosmos SDK's).
namespace = ${q(namespace)}

# The bech32 account prefix (addresses, the gov authority; validators add
# "valoper" / "valcons"). For "chainsim serve" it sets the served chain's; a
# devnet's lives in genesis.json (chain.bech32Prefix) and a value here must
# agree with it. Unset: the chain's own (default "chain").
# bech32-prefix = "cosmos"
`;
}
