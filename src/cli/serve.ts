import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { NODE_JSON, nodeBackend } from "../api/node-backend.js";
import { RpcHandler } from "../api/rpc/handler.js";
import { simRpcSource } from "../api/rpc/sim-source.js";
import { wireBackend } from "../api/wire.js";
import { RUN_BLOCKS_MAX } from "../chain/records.js";
import { bech32PrefixProblem } from "../core/address.js";
import { quote } from "../core/go/strconv.js";
import { isNamespace, NAMESPACES } from "../core/namespace.js";
import { buildSimulation, type Simulation, stopConditionOf } from "../scenario/simulate.js";
import { type AppConfig, parseAppToml, validateAppConfig } from "../server/config.js";
import type { RestListener } from "../server/rest.js";
import { listenRpc } from "../server/rpc.js";
import { type ApiServers, startApiServers } from "../server/server.js";
import { ExitCode } from "./exit.js";
import { loadScenarios } from "./run.js";

export interface ServeOptions {
  readonly node?: string;
  readonly config?: string;
  readonly untilHeight?: string;
  /** `tcp://host:port` of the read-only CometBFT RPC; none when omitted. */
  readonly rpcAddress?: string;
  /** `--json`: one JSON object with the served node and its endpoints instead of the text lines. */
  readonly json?: boolean;
  /** `--namespace chain|cosmos`: the wire's names; overrides app.toml's `[chainsim] namespace`. */
  readonly namespace?: string;
  /**
   * `--bech32-prefix <hrp>`: the served chain's account prefix; overrides app.toml's `[chainsim] bech32-prefix`;
   * either one replaces the scenario's `chain.bech32Prefix` (the scenario is simulated with it).
   */
  readonly bech32Prefix?: string;
}

export interface ServeIo {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
}

/** A running `chainsim serve`: the simulation it serves and its listeners. */
export interface Served {
  readonly sim: Simulation;
  readonly node: string;
  readonly servers: ApiServers;
  /** The RPC listener's URL (http://host:port) when `--rpc-address` was given. */
  readonly rpcUrl?: string;
  /** Closes every listener. */
  close(): Promise<void>;
}

/** The app.toml of `serve` without `--config`: the defaults, with the REST server on (gRPC is on by default). */
export function defaultServeConfig(): AppConfig {
  const base = parseAppToml("");
  if (!base.ok) throw new Error(base.error.message);
  return { ...base.value, api: { ...base.value.api, enable: true } };
}

function readConfig(path: string): { ok: true; value: AppConfig } | { ok: false; error: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    return { ok: false, error: `${path}: ${e instanceof Error ? e.message : String(e)}` };
  }
  const cfg = parseAppToml(text);
  if (!cfg.ok) return { ok: false, error: cfg.error.message };
  // Read-only serving takes no transactions, so minimum gas prices are not required (docs/node-api.md §1.3).
  const valid = validateAppConfig(cfg.value, { takesTransactions: false });
  if (!valid.ok) return { ok: false, error: valid.error.message };
  return cfg;
}

/** What serve's flags say, checked before anything runs: the stop height, app.toml, and the RPC listen address. */
interface ServeSettings {
  readonly untilHeight: number | undefined;
  readonly config: AppConfig;
  readonly rpcAt: { readonly host: string; readonly port: number } | undefined;
}

/** Reads serve's flags; the error is the line to print after `Error: `. */
function serveSettings(o: ServeOptions): { ok: true; value: ServeSettings } | { ok: false; error: string } {
  const fail = (error: string) => ({ ok: false as const, error });
  let untilHeight: number | undefined;
  if (o.untilHeight !== undefined) {
    if (
      !/^[0-9]+$/.test(o.untilHeight) ||
      !(Number(o.untilHeight) >= 1) ||
      !Number.isSafeInteger(Number(o.untilHeight)) ||
      Number(o.untilHeight) > RUN_BLOCKS_MAX
    )
      return fail(`--until-height: expected a height from 1 to ${RUN_BLOCKS_MAX}, got ${quote(o.untilHeight)}`);
    untilHeight = Number(o.untilHeight);
  }
  let config = defaultServeConfig();
  if (o.config !== undefined) {
    const c = readConfig(o.config);
    if (!c.ok) return fail(c.error);
    config = c.value;
  }
  if (o.namespace !== undefined) {
    if (!isNamespace(o.namespace))
      return fail(`--namespace: expected one of ${NAMESPACES.join(", ")}, got ${JSON.stringify(o.namespace)}`);
    config = { ...config, namespace: o.namespace };
  }
  if (o.bech32Prefix !== undefined) {
    const problem = bech32PrefixProblem(o.bech32Prefix);
    if (problem !== undefined) return fail(`--bech32-prefix: ${problem}`);
    config = { ...config, bech32Prefix: o.bech32Prefix };
  }
  let rpcAt: { host: string; port: number } | undefined;
  if (o.rpcAddress !== undefined) {
    const m = /^tcp:\/\/([^\s/]*):([0-9]{1,5})$/.exec(o.rpcAddress);
    if (m === null || Number(m[2]) > 65535)
      return fail(`--rpc-address: expected tcp://host:port, got ${JSON.stringify(o.rpcAddress)}`);
    rpcAt = { host: m[1]!.replace(/^\[(.*)\]$/, "$1"), port: Number(m[2]) };
  }
  return { ok: true, value: { untilHeight, config, rpcAt } };
}

/**
 * `chainsim serve <scenario>`: runs the scenario (to its stop condition, or `--until-height`) with the node's
 * pruning from app.toml (without `--config`: the scenario's `chain.pruning`), then serves that node's state over
 * REST and gRPC as app.toml says. Bad input is a one-line error and exit 2 before anything listens; a listener that
 * cannot start is exit 1. On success returns the running servers (the caller waits for a signal and closes them).
 */
export async function startServe(
  file: string,
  o: ServeOptions,
  io: ServeIo,
): Promise<{ ok: true; value: Served } | { ok: false; code: number }> {
  const usage = (msg: string) => {
    io.err(`Error: ${msg}`);
    return { ok: false as const, code: ExitCode.usage };
  };
  const settings = serveSettings(o);
  if (!settings.ok) return usage(settings.error);
  const { untilHeight, config, rpcAt } = settings.value;
  const prefix = config.bech32Prefix;
  const scenarios = loadScenarios(
    [file],
    (line) => io.err(`Error: ${line}`),
    prefix === undefined ? {} : { bech32Prefix: prefix },
  );
  if (scenarios === undefined) return { ok: false, code: ExitCode.usage };
  if (scenarios.length !== 1) return usage(`${file}: serve takes one scenario file, found ${scenarios.length}`);
  const s = scenarios[0]!;
  const node = o.node ?? [...s.nodes.keys()][0]!;
  if (!s.nodes.has(node)) return usage(`unknown node "${node}" (nodes: ${[...s.nodes.keys()].join(", ")})`);
  const built = buildSimulation(s, o.config === undefined ? {} : { pruning: config.pruning });
  if (!built.ok) return usage(built.error);
  const sim = built.value;
  sim.run(untilHeight === undefined ? stopConditionOf(s) : { untilHeight, maxBlocks: RUN_BLOCKS_MAX });
  const rpcAddress = o.rpcAddress ?? "";
  const nodeB = nodeBackend(sim, node, { validators: s.chain.validators, rpcAddress });
  if (!nodeB.ok) return usage(nodeB.error.message);
  const backend = { ok: true as const, value: wireBackend(nodeB.value, config.namespace) };
  const servers = await startApiServers(config, backend.value, { json: NODE_JSON });
  if (!servers.ok) {
    io.err(`Error: ${servers.error.message}`);
    return { ok: false, code: ExitCode.failed };
  }
  let rpc: RestListener | undefined;
  if (rpcAt !== undefined) {
    const source = simRpcSource(sim, node, backend.value, s.chain.validators, rpcAddress);
    const listened = await listenRpc(new RpcHandler(source), rpcAt.host, rpcAt.port);
    if (!listened.ok) {
      io.err(`Error: listen ${rpcAddress}: ${listened.error.message}`);
      await servers.value.close();
      return { ok: false, code: ExitCode.failed };
    }
    rpc = listened.value;
  }
  const rpcUrl = rpc === undefined ? undefined : `http://${rpcAt!.host || "127.0.0.1"}:${rpc.port}`;
  const b = backend.value;
  const close = async () => {
    await rpc?.close();
    await servers.value.close();
  };
  const served = { sim, node, servers: servers.value, ...(rpcUrl === undefined ? {} : { rpcUrl }), close };
  if (o.json === true) {
    io.out(
      JSON.stringify({
        node,
        scenario: s.name,
        chainId: sim.cfg.chainId,
        height: b.latestHeight(),
        earliestHeight: b.earliestHeight(),
        rest: servers.value.restUrl ?? null,
        grpc: servers.value.grpcAddress ?? null,
        rpc: rpcUrl ?? null,
      }),
    );
    return { ok: true, value: served };
  }
  io.out(
    `serving node ${node} of scenario ${s.name}: height ${b.latestHeight()}, state retained ${b.earliestHeight()}-${b.latestHeight()}, chain ${sim.cfg.chainId}`,
  );
  if (servers.value.restUrl !== undefined) io.out(`REST  ${servers.value.restUrl}`);
  if (servers.value.grpcAddress !== undefined) io.out(`gRPC  ${servers.value.grpcAddress}`);
  if (rpcUrl !== undefined) io.out(`RPC   ${rpcUrl}`);
  if (servers.value.restUrl === undefined && servers.value.grpcAddress === undefined && rpcUrl === undefined)
    io.out("nothing to serve: api.enable and grpc.enable are both false");
  return { ok: true, value: served };
}

/** Resolves at the first SIGINT or SIGTERM. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (sig: NodeJS.Signals) => {
      process.off("SIGINT", on);
      process.off("SIGTERM", on);
      resolve(sig);
    };
    process.on("SIGINT", on);
    process.on("SIGTERM", on);
  });
}

export function registerServe(program: Command, io: ServeIo, setExit: (c: number) => void): void {
  program
    .command("serve")
    .description("run a scenario, then serve one node's state over REST and gRPC (per app.toml) until SIGINT/SIGTERM")
    .argument("<scenario>", "scenario file")
    .option("--node <name>", "the node whose state to serve (default: the first validator's node)")
    .option("--config <app.toml>", "app.toml: [api], [grpc] and pruning (default: defaults with api.enable = true)")
    .option("--until-height <h>", "stop the simulation at this height instead of the scenario's stop condition")
    .option("--rpc-address <tcp://host:port>", "also serve the read-only CometBFT RPC (blocks, txs, abci_query) here")
    .option("--json", "print the served node and its endpoints as one JSON object")
    .option(
      "--namespace <ns>",
      "the wire's names: chain (chainsim's) or cosmos (the Cosmos SDK's); default: app.toml's",
    )
    .option(
      "--bech32-prefix <hrp>",
      "the served chain's account address prefix (e.g. cosmos); default: app.toml's, else the scenario's (chain)",
    )
    .action(async (file: string, opts: ServeOptions) => {
      const started = await startServe(file, opts, io);
      if (!started.ok) {
        setExit(started.code);
        return;
      }
      const sig = await untilSignal();
      io.err(`received ${sig}, shutting down`);
      await started.value.close();
      setExit(ExitCode.ok);
    });
}
