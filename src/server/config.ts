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
 * `pruning-interval`, which read non-numeric or negative text as 0 as the reference does. The file the simulator
 * writes is app-toml.ts.
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
