import { Gateway as GatewayClass } from "../api/gateway/gateway.js";
import { DEFAULT_NON_NULLABLE } from "../api/json.js";
import { NODE_JSON } from "../api/node-backend.js";
import { RpcHandler } from "../api/rpc/handler.js";
import { wireJson } from "../api/wire.js";
import type { Namespace } from "../core/namespace.js";
import { HostFs } from "../node/host-fs.js";
import { parseApiAddress, validateAppConfig } from "../server/config.js";
import { listenRest } from "../server/rest.js";
import { DEFAULT_RPC_LIMITS, listenRpc } from "../server/rpc.js";
import { startApiServers } from "../server/server.js";
import { swaggerUiAssets } from "../server/swagger-assets.js";
import { DevnetChain } from "./chain.js";
import { checkGenesisHash } from "./genesis-hash.js";
import { type HomeConfig, readHome } from "./home.js";
import { devnetRest } from "./rest.js";
import { devnetRpcSource } from "./rpc-source.js";

/**
 * `chainsim start`: the live node. Produces a block every `blockTimeMs` of wall-clock time (block time = the host
 * clock, strictly increasing), flushes each block to LevelDB before the next one and before anything outside can
 * see it, and serves REST (with the devnet routes of rest.ts) and gRPC per app.toml, and the CometBFT RPC per
 * config.toml `[rpc] laddr`.
 *
 * Exit codes: 0 after SIGINT/SIGTERM (the block in progress is finished and flushed first); 1 when the chain halts
 * (an upgrade is needed: data/upgrade-info.json is written and the reference message goes to stderr; or the binary is
 * too early, a downgrade, a failed handler or store loader) or the disk fails; 2 for bad configuration or flags.
 */
export const EXIT_HALT = 1;

/**
 * BaseApp.checkHalt (Cosmos SDK v0.50), run by FinalizeBlock before block `height` at `timeMs`: `halt per
 * configuration height H time T` once `height > halt-height` or the block's Unix seconds `> halt-time`. So block H
 * itself commits and H + 1 is refused (the v0.50 behaviour, one block past the setting; cosmos-sdk#21226).
 */
export function configuredHalt(
  height: number,
  timeMs: number,
  app: { readonly haltHeight: number; readonly haltTime: number },
): string | undefined {
  const byHeight = app.haltHeight > 0 && height > app.haltHeight;
  const byTime = app.haltTime > 0 && Math.floor(timeMs / 1000) > app.haltTime;
  return byHeight || byTime ? `halt per configuration height ${app.haltHeight} time ${app.haltTime}` : undefined;
}

/**
 * What a v0.50 node does then: CometBFT's consensus fails to apply the block and logs `CONSENSUS FAILURE!!!` with the
 * error, stops producing blocks, and the process keeps serving queries until the operator stops it.
 */
async function haltPerConfiguration(message: string, height: number, o: NodeRunOptions): Promise<void> {
  o.err(`ERR CONSENSUS FAILURE!!! err=${JSON.stringify(`failed to apply block; error ${message}`)} height=${height}`);
  if (o.signal === undefined || o.signal.aborted) return;
  const signal = o.signal;
  await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
export const EXIT_CONFIG = 2;

export interface NodeRunOptions {
  readonly home: string;
  readonly binary: string;
  readonly skipHeights: readonly number[];
  readonly blockTimeMs: number;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Aborting stops the node gracefully (the CLI wires SIGINT/SIGTERM to it). */
  readonly signal?: AbortSignal;
  /** fsync each block; default true. */
  readonly sync?: boolean;
  /** `--namespace`: overrides app.toml's `[chainsim] namespace`. */
  readonly namespace?: Namespace;
  /** `--bech32-prefix`: must equal the genesis's `chain.bech32Prefix` (as app.toml's `[chainsim] bech32-prefix`). */
  readonly bech32Prefix?: string;
}

/**
 * Why the configured bech32 prefix (`--bech32-prefix`, else app.toml's `[chainsim] bech32-prefix`) cannot run this
 * home, or undefined: the prefix is the chain's, fixed in genesis (every node agrees on it, as a real chain's is
 * compiled into its binary), so a node configured with another one is refused rather than serving other addresses.
 */
function prefixMismatch(o: NodeRunOptions, cfg: HomeConfig): string | undefined {
  const configured = o.bech32Prefix ?? cfg.app.bech32Prefix;
  const genesis = cfg.chain.genesis.bech32Prefix;
  if (configured === undefined || configured === genesis) return undefined;
  const source = o.bech32Prefix === undefined ? "app.toml [chainsim] bech32-prefix" : "--bech32-prefix";
  return `${source} "${configured}" does not match the chain's bech32 prefix "${genesis}" (genesis.json chain.bech32Prefix)`;
}

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const t = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

/**
 * 1. open the home (config, app.toml checks, genesis hash) and the chain; 2. start the listeners app.toml and
 * config.toml ask for (REST, gRPC, CometBFT RPC); 3. produce blocks until stopped or halted; then close everything.
 */
export async function runNode(o: NodeRunOptions): Promise<number> {
  const opened = await openNode(o);
  if (typeof opened === "number") return opened;
  const { chain, cfg } = opened;
  // Filled in as listeners start; node_info reads it on every query (an RPC listener sets `rpc`).
  const listeners: { rpc?: string } = {};
  const backend = chain.queryBackend(() => listeners);

  const closers: (() => Promise<void>)[] = [];
  const shutdown = async () => {
    for (const c of closers.splice(0).reverse()) await c();
    await chain.close();
  };
  const started = await startListeners({ chain, cfg, backend, listeners, closers }, o);
  if (started !== undefined) {
    await shutdown();
    return started;
  }
  o.out(
    `INF node started home=${cfg.paths.home} binary=${chain.binary} chain_id=${chain.chainId} height=${chain.height}`,
  );
  const code = await produceBlocks(chain, cfg, o);
  if (code === 0) o.out(`INF stopping node height=${chain.durableHeight}`);
  await shutdown();
  return code;
}

/** Step 1: the home read and checked, and the chain opened; an exit code when the node cannot start. */
async function openNode(o: NodeRunOptions): Promise<{ chain: DevnetChain; cfg: HomeConfig } | number> {
  const home = readHome(o.home);
  if (!home.ok) {
    for (const e of home.error) o.err(`Error: ${e}`);
    return EXIT_CONFIG;
  }
  const cfg =
    o.namespace === undefined ? home.value : { ...home.value, app: { ...home.value.app, namespace: o.namespace } };
  const valid = validateAppConfig(cfg.app, { takesTransactions: true });
  if (!valid.ok) {
    o.err(`Error: ${valid.error.message}`);
    return EXIT_CONFIG;
  }
  const mismatch = prefixMismatch(o, cfg);
  if (mismatch !== undefined) {
    o.err(`Error: ${mismatch}`);
    return EXIT_CONFIG;
  }
  const genesis = checkGenesisHash(cfg.paths);
  if (!genesis.ok) {
    o.err(`Error: ${genesis.error}`);
    return EXIT_HALT;
  }
  const opened = await DevnetChain.open({
    config: cfg,
    binary: o.binary,
    skipHeights: o.skipHeights,
    fs: new HostFs(),
    ...(o.sync === undefined ? {} : { sync: o.sync }),
  });
  if (!opened.ok) {
    o.err(`Error: ${opened.error}`);
    return EXIT_CONFIG;
  }
  if (opened.value.kind === "halted") {
    o.err(opened.value.halt.message);
    o.err(`ERR node failed to start (${opened.value.halt.kind})`);
    await opened.value.close();
    return EXIT_HALT;
  }
  return { chain: opened.value.chain, cfg };
}

interface NodeServing {
  readonly chain: DevnetChain;
  readonly cfg: HomeConfig;
  readonly backend: ReturnType<DevnetChain["queryBackend"]>;
  readonly listeners: { rpc?: string };
  /** Each started listener's close, run in reverse order at shutdown. */
  readonly closers: (() => Promise<void>)[];
}

/** Step 2: REST (`[api]`), gRPC (`[grpc]`) and the CometBFT RPC (`[rpc] laddr`); an exit code when one fails. */
async function startListeners(n: NodeServing, o: NodeRunOptions): Promise<number | undefined> {
  const { chain, cfg, backend, listeners, closers } = n;
  if (cfg.app.api.enable) {
    const addr = parseApiAddress(cfg.app.api.address);
    const gateway = GatewayClass.create(backend, {
      cors: cfg.app.api.enabledUnsafeCors,
      swagger: cfg.app.api.swagger,
      swaggerAssets: swaggerUiAssets(),
      json: wireJson({ ...NODE_JSON, nonNullable: DEFAULT_NON_NULLABLE }, cfg.app.namespace),
    });
    if (!addr.ok || !gateway.ok) {
      o.err(`Error: ${!addr.ok ? addr.error.message : gateway.ok ? "" : gateway.error}`);
      return EXIT_CONFIG;
    }
    const front = devnetRest(gateway.value, chain);
    const rest = await listenRest(front, addr.value.host, addr.value.port, {
      maxOpenConnections: cfg.app.api.maxOpenConnections,
      readTimeoutMs: cfg.app.api.rpcReadTimeoutSeconds * 1000,
      writeTimeoutMs: cfg.app.api.rpcWriteTimeoutSeconds * 1000,
      maxBodyBytes: cfg.app.api.rpcMaxBodyBytes,
    });
    if (!rest.ok) {
      o.err(`Error: listen tcp ${cfg.app.api.address}: ${rest.error.message}`);
      return EXIT_CONFIG;
    }
    closers.push(rest.value.close);
    o.out(`INF REST server listening address=http://${addr.value.host || "localhost"}:${rest.value.port}`);
  }
  const grpc = await startApiServers({ ...cfg.app, api: { ...cfg.app.api, enable: false } }, backend, {
    json: NODE_JSON,
  });
  if (!grpc.ok) {
    o.err(`Error: ${grpc.error.message}`);
    return EXIT_CONFIG;
  }
  closers.push(grpc.value.close);
  if (grpc.value.grpcAddress !== undefined) o.out(`INF gRPC server listening address=${grpc.value.grpcAddress}`);
  const laddr = cfg.comet.rpc.laddr;
  if (laddr !== "") {
    const m = /^tcp:\/\/(.*):([0-9]+)$/.exec(laddr)!;
    const host = m[1]!.replace(/^\[(.*)\]$/, "$1");
    const rpc = await listenRpc(
      new RpcHandler(devnetRpcSource(chain, cfg, backend, () => listeners)),
      host,
      Number(m[2]),
      {
        ...DEFAULT_RPC_LIMITS,
        maxOpenConnections: cfg.comet.rpc.maxOpenConnections,
        maxBodyBytes: cfg.comet.rpc.maxBodyBytes,
      },
    );
    if (!rpc.ok) {
      o.err(`Error: listen ${laddr}: ${rpc.error.message}`);
      return EXIT_CONFIG;
    }
    closers.push(rpc.value.close);
    listeners.rpc = `tcp://${host || "0.0.0.0"}:${rpc.value.port}`;
    o.out(`INF CometBFT RPC listening address=${listeners.rpc}`);
  }
  return undefined;
}

/**
 * Step 3: a block every `blockTimeMs` of wall-clock time, each flushed before the next; 0 when stopped by the
 * signal (or after a configured halt, once stopped), EXIT_HALT when the chain halts or the disk fails.
 */
async function produceBlocks(chain: DevnetChain, cfg: HomeConfig, o: NodeRunOptions): Promise<number> {
  let lastMs = chain.blocks.timeMs(chain.height) ?? 0;
  let nextAt = Math.max(Date.now(), lastMs + o.blockTimeMs);
  const stopped = (): boolean => o.signal?.aborted === true;
  while (!stopped()) {
    await sleep(nextAt - Date.now(), o.signal);
    if (stopped()) break;
    const t = Math.max(Date.now(), lastMs + 1);
    const halt = configuredHalt(chain.height + 1, t, cfg.app);
    if (halt !== undefined) {
      await haltPerConfiguration(halt, chain.height + 1, o);
      break;
    }
    const r = chain.produceBlock(t);
    if (r.kind === "halted") {
      o.err(r.halt.message);
      o.err(`ERR CONSENSUS FAILURE!!! err=${JSON.stringify(r.halt.message)} height=${r.height} kind=${r.halt.kind}`);
      return EXIT_HALT;
    }
    const f = await chain.flush();
    if (!f.ok) {
      o.err(`ERR ${f.error}`);
      return EXIT_HALT;
    }
    if (r.applied !== undefined) o.out(`INF applied upgrade "${r.applied}" height=${r.height}`);
    o.out(`INF committed block height=${r.height} app_hash=${r.appHash.toUpperCase()} num_txs=${r.numTxs}`);
    lastMs = t;
    nextAt = t + o.blockTimeMs;
  }
  return 0;
}
