import { parse as parseToml } from "smol-toml";
import { z } from "zod";
import { bech32PrefixProblem } from "../core/address.js";
import { err, ok, type PlainError, plain, type Result } from "../core/errors.js";
import { parseGoBool, parseGoInt, parseGoUint } from "../core/go/strconv.js";
import { isNamespace, NAMESPACES, type Namespace } from "../core/namespace.js";
import { type PruningOptions, pruningOptions } from "../store/pruning.js";

/**
 * app.toml (docs/node-api.md §1): the keys the node's API servers, pruning and startup checks read. Unknown keys are
 * ignored, absent keys take the reference defaults, integers may be quoted (`"10485760"`) or not. A malformed value
 * is an error naming the key, e.g. `app.toml: api.max-open-connections: expected a non-negative integer, got "x"`
 * (stricter than the reference, whose viper getters silently read garbage as 0), except `pruning-keep-recent` and
 * `pruning-interval`, which read non-numeric or negative text as 0 as the reference does.
 */
export interface ApiConfig {
  readonly enable: boolean;
  readonly swagger: boolean;
  /** `tcp://host:port`. */
  readonly address: string;
  /** 0 = unlimited. */
  readonly maxOpenConnections: number;
  readonly rpcReadTimeoutSeconds: number;
  /** 0 = no write timeout. */
  readonly rpcWriteTimeoutSeconds: number;
  readonly rpcMaxBodyBytes: number;
  readonly enabledUnsafeCors: boolean;
}

export interface GrpcConfig {
  readonly enable: boolean;
  /** `host:port`, no scheme. */
  readonly address: string;
  readonly maxRecvMsgSizeBytes: number;
  readonly maxSendMsgSizeBytes: number;
}

export interface AppConfig {
  readonly minimumGasPrices: string;
  /** The `pruning` value as written (the snapshot check compares it verbatim, as the reference does). */
  readonly pruningRaw: string;
  readonly pruning: PruningOptions;
  readonly snapshotInterval: number;
  /** `halt-height`: the devnet commits this block, then refuses the next one (BaseApp.checkHalt); 0 = off. */
  readonly haltHeight: number;
  /** `halt-time` (Unix seconds): the first block whose time is later is refused; 0 = off. */
  readonly haltTime: number;
  readonly api: ApiConfig;
  readonly grpc: GrpcConfig;
  readonly grpcWebEnable: boolean;
  /** `[chainsim] namespace` (chainsim's own key): the names the node speaks on every wire (src/core/namespace.ts). */
  readonly namespace: Namespace;
  /**
   * `[chainsim] bech32-prefix` (chainsim's own key), when set: `serve` gives the served chain this account prefix; a
   * devnet node checks it against its genesis (`chain.bech32Prefix`) and refuses to start when they differ.
   */
  readonly bech32Prefix?: string;
}

export const DEFAULT_API: ApiConfig = Object.freeze({
  enable: false,
  swagger: false,
  address: "tcp://localhost:1317",
  maxOpenConnections: 1000,
  rpcReadTimeoutSeconds: 10,
  rpcWriteTimeoutSeconds: 0,
  rpcMaxBodyBytes: 1_000_000,
  enabledUnsafeCors: false,
});

export const DEFAULT_GRPC: GrpcConfig = Object.freeze({
  enable: true,
  address: "localhost:9090",
  maxRecvMsgSizeBytes: 10 * 1024 * 1024,
  maxSendMsgSizeBytes: 2147483647,
});

const describe = (v: unknown): string => {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "object" && v !== null)
    return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x));
  return String(v);
};

const fail = (ctx: z.RefinementCtx, message: string, v: unknown): never => {
  ctx.addIssue({ code: "custom", message: `${message}, got ${describe(v)}` });
  return z.NEVER;
};

/** A non-negative integer, as a TOML integer (or integral float) or a string in Go base-0 syntax. */
const uint = z.unknown().transform((v, ctx): number => {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === "bigint" && v >= 0n && v <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(v);
  if (typeof v === "string") {
    const n = parseGoUint(v.trim(), 0, 64);
    if (n.ok && n.value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(n.value);
  }
  return fail(ctx, "expected a non-negative integer", v);
});

const bool = z.unknown().transform((v, ctx): boolean => {
  if (typeof v === "boolean") return v;
  if (typeof v === "string") {
    const b = parseGoBool(v);
    if (b.ok) return b.value;
  }
  return fail(ctx, "expected a boolean", v);
});

const str = z.unknown().transform((v, ctx): string => {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
  return fail(ctx, "expected a string", v);
});

/** Go `cast.ToUint64`: numbers as they are, text in base-0 syntax; anything else, or negative, reads as 0. */
const looseUint = z.unknown().transform((v): number => {
  if (typeof v === "number") return Number.isFinite(v) && v > 0 ? Math.trunc(v) : 0;
  if (typeof v === "bigint") return v > 0n ? Number(v) : 0;
  if (typeof v === "string") {
    const n = parseGoInt(v.trim().replace(/\.0*$/, ""), 0, 64);
    return n.ok && n.value > 0n ? Number(n.value) : 0;
  }
  return 0;
});

/** `chain` or `cosmos`. */
const namespaceValue = z.unknown().transform((v, ctx): Namespace => {
  if (typeof v === "string" && isNamespace(v)) return v;
  return fail(ctx, `expected one of ${NAMESPACES.map((n) => JSON.stringify(n)).join(", ")}`, v);
});

/** A bech32 human-readable part (src/core/address.ts `bech32PrefixProblem`). */
const bech32PrefixValue = z.unknown().transform((v, ctx): string => {
  if (typeof v !== "string") return fail(ctx, "expected a string", v);
  const problem = bech32PrefixProblem(v);
  if (problem === undefined) return v;
  ctx.addIssue({ code: "custom", message: problem }); // the problem names the value itself
  return z.NEVER;
});

/** A TOML table; absent means empty. */
const table = <T extends z.ZodRawShape>(shape: T) =>
  z
    .unknown()
    .transform((v, ctx): Record<string, unknown> => {
      if (v === undefined) return {};
      if (typeof v === "object" && v !== null && !Array.isArray(v)) return { ...(v as Record<string, unknown>) };
      return fail(ctx, "expected a table", v);
    })
    .pipe(z.object(shape))
    .prefault({});

const appTomlSchema = z.object({
  "minimum-gas-prices": str.optional().default(""),
  pruning: str.optional(),
  "pruning-keep-recent": looseUint.optional().default(0),
  "pruning-interval": looseUint.optional().default(0),
  "halt-height": uint.optional().default(0),
  "halt-time": uint.optional().default(0),
  api: table({
    enable: bool.optional().default(DEFAULT_API.enable),
    swagger: bool.optional().default(DEFAULT_API.swagger),
    address: str.optional().default(DEFAULT_API.address),
    "max-open-connections": uint.optional().default(DEFAULT_API.maxOpenConnections),
    "rpc-read-timeout": uint.optional().default(DEFAULT_API.rpcReadTimeoutSeconds),
    "rpc-write-timeout": uint.optional().default(DEFAULT_API.rpcWriteTimeoutSeconds),
    "rpc-max-body-bytes": uint.optional().default(DEFAULT_API.rpcMaxBodyBytes),
    "enabled-unsafe-cors": bool.optional().default(DEFAULT_API.enabledUnsafeCors),
  }),
  grpc: table({
    enable: bool.optional().default(DEFAULT_GRPC.enable),
    address: str.optional().default(DEFAULT_GRPC.address),
    "max-recv-msg-size": uint.optional().default(DEFAULT_GRPC.maxRecvMsgSizeBytes),
    "max-send-msg-size": uint.optional().default(DEFAULT_GRPC.maxSendMsgSizeBytes),
  }),
  "grpc-web": table({ enable: bool.optional().default(true) }),
  "state-sync": table({ "snapshot-interval": uint.optional().default(0) }),
  chainsim: table({
    namespace: namespaceValue.optional().default("chain"),
    "bech32-prefix": bech32PrefixValue.optional(),
  }),
});

/** Parses app.toml text. Pruning options are resolved (`unknown pruning strategy <s>`, custom validation). */
export function parseAppToml(text: string): Result<AppConfig, PlainError> {
  let doc: unknown;
  try {
    doc = parseToml(text, { integersAsBigInt: "asNeeded" });
  } catch (e) {
    const message = e instanceof Error ? e.message.split("\n")[0]! : String(e);
    return err(plain(`app.toml: ${message}`));
  }
  const parsed = appTomlSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return err(plain(`app.toml: ${issue.path.map(String).join(".")}: ${issue.message}`));
  }
  const d = parsed.data;
  const pruningRaw = d.pruning ?? "default";
  if (d.pruning !== undefined && d.pruning === "") return err(plain("unknown pruning strategy "));
  const pruning = pruningOptions(pruningRaw, d["pruning-keep-recent"], d["pruning-interval"]);
  if (!pruning.ok) return pruning;
  const api = d.api;
  const grpc = d.grpc;
  return ok({
    minimumGasPrices: d["minimum-gas-prices"],
    pruningRaw,
    pruning: pruning.value,
    snapshotInterval: d["state-sync"]["snapshot-interval"],
    haltHeight: d["halt-height"],
    haltTime: d["halt-time"],
    namespace: d.chainsim.namespace,
    ...(d.chainsim["bech32-prefix"] === undefined ? {} : { bech32Prefix: d.chainsim["bech32-prefix"] }),
    api: {
      enable: api.enable,
      swagger: api.swagger,
      address: api.address,
      maxOpenConnections: api["max-open-connections"],
      rpcReadTimeoutSeconds: api["rpc-read-timeout"],
      rpcWriteTimeoutSeconds: api["rpc-write-timeout"],
      rpcMaxBodyBytes: api["rpc-max-body-bytes"],
      enabledUnsafeCors: api["enabled-unsafe-cors"],
    },
    grpc: {
      enable: grpc.enable,
      address: grpc.address,
      maxRecvMsgSizeBytes: grpc["max-recv-msg-size"],
      maxSendMsgSizeBytes: grpc["max-send-msg-size"],
    },
    grpcWebEnable: d["grpc-web"].enable,
  });
}

/**
 * The reference `Config.ValidateBasic` checks, in its order: a node that takes transactions (`chainsim start`) needs
 * minimum gas prices; snapshots cannot be combined with `pruning = "everything"` (compared verbatim).
 */
export function validateAppConfig(
  cfg: AppConfig,
  opts: { readonly takesTransactions: boolean },
): Result<void, PlainError> {
  if (opts.takesTransactions && cfg.minimumGasPrices === "") {
    return err(plain("set min gas price in app.toml or flag or env variable: error in app.toml"));
  }
  if (cfg.pruningRaw === "everything" && cfg.snapshotInterval > 0) {
    return err(plain("cannot enable state sync snapshots with 'everything' pruning setting: error in app.toml"));
  }
  return ok(undefined);
}

/** A listen address resolved to host and port (port 0 = any free port; host "" = all interfaces). */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

function hostPort(addr: string, hp: string): Result<ListenAddress, PlainError> {
  let host: string;
  let portText: string;
  if (hp.startsWith("[")) {
    const close = hp.indexOf("]");
    if (close < 0 || hp[close + 1] !== ":") return err(plain(`listen tcp ${addr}: missing port in address`));
    host = hp.slice(1, close);
    portText = hp.slice(close + 2);
  } else {
    const colon = hp.lastIndexOf(":");
    if (colon < 0) return err(plain(`listen tcp ${addr}: missing port in address`));
    host = hp.slice(0, colon);
    portText = hp.slice(colon + 1);
    if (host.includes(":")) return err(plain(`listen tcp ${addr}: too many colons in address`));
  }
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) {
    return err(plain(`listen tcp ${addr}: unknown port`));
  }
  return ok({ host, port: Number(portText) });
}

/** `api.address`: must be fully formed (`tcp://host:port`); only tcp is supported. */
export function parseApiAddress(addr: string): Result<ListenAddress, PlainError> {
  const i = addr.indexOf("://");
  if (i < 0) {
    return err(
      plain(`invalid listening address ${addr} (use fully formed addresses, including the tcp:// or unix:// prefix)`),
    );
  }
  const scheme = addr.slice(0, i);
  if (scheme !== "tcp") return err(plain(`unsupported listening address ${addr} (only tcp:// is supported)`));
  return hostPort(addr, addr.slice(i + 3));
}

/** `grpc.address`: `host:port`. */
export const parseGrpcAddress = (addr: string): Result<ListenAddress, PlainError> => hostPort(addr, addr);

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

/** The app.toml the simulator writes: the reference template's keys and comments for the parts modelled here. */
export function defaultAppToml(opts: AppTomlTemplateOptions = {}): string {
  const api = { ...DEFAULT_API, ...opts.api };
  const grpc = { ...DEFAULT_GRPC, ...opts.grpc };
  const q = (s: string) => JSON.stringify(s);
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

###############################################################################
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

###############################################################################
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

###############################################################################
###                        gRPC Web Configuration                           ###
###############################################################################

[grpc-web]

# GRPCWebEnable defines if the gRPC-web should be enabled.
# NOTE: gRPC must also be enabled, otherwise, this configuration is a no-op.
# NOTE: gRPC-Web uses the same address as the API server.
enable = ${opts.grpcWebEnable ?? true}

###############################################################################
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

###############################################################################
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

###############################################################################
###                          chainsim Configuration                         ###
###############################################################################

[chainsim]
# The names the node speaks on every wire (gRPC services and reflection, REST
# paths and Swagger, the height header, abci_query paths, type URLs):
# "chain" (chainsim's own) or "cosmos" (the Cosmos SDK's).
namespace = ${q(opts.namespace ?? "chain")}

# The bech32 account prefix (addresses, the gov authority; validators add
# "valoper" / "valcons"). For "chainsim serve" it sets the served chain's; a
# devnet's lives in genesis.json (chain.bech32Prefix) and a value here must
# agree with it. Unset: the chain's own (default "chain").
# bech32-prefix = "cosmos"
`;
}
