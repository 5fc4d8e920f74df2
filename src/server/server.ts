import http2 from "node:http2";
import net from "node:net";
import type { QueryBackend } from "../api/backend.js";
import { Gateway } from "../api/gateway/gateway.js";
import { DEFAULT_NON_NULLABLE, type GatewayJsonOptions } from "../api/json.js";
import { wireJson } from "../api/wire.js";
import { err, ok, type PlainError, plain, type Result } from "../core/errors.js";
import { guardH2Socket } from "./bounded-listen.js";
import { type AppConfig, parseApiAddress, parseGrpcAddress } from "./config.js";
import { grpcHandler } from "./grpc.js";
import { listenRest } from "./rest.js";
import { swaggerUiAssets } from "./swagger-assets.js";

/** The running API servers. Addresses carry the actual ports (port 0 in the config picks free ones). */
export interface ApiServers {
  /** `http://host:port` of the REST gateway, when `api.enable`. */
  readonly restUrl?: string;
  /** `host:port` of the gRPC server, when `grpc.enable`. */
  readonly grpcAddress?: string;
  /** Stops both listeners and drops their open connections. */
  close(): Promise<void>;
}

export interface ApiServerOptions {
  /** Any payloads the gateway must render (default: none). */
  readonly json?: GatewayJsonOptions;
}

/**
 * Memory one gRPC session may buffer (MiB; Node's default is 10): room for the largest request the server accepts
 * (`grpc.max-recv-msg-size`, 10 MiB by default) plus framing, so that a large request reaches the handler and gets
 * RESOURCE_EXHAUSTED as grpc-go answers, instead of ENHANCE_YOUR_CALM for the whole session.
 */
const GRPC_SESSION_MEMORY_MB = 64;

const hostForUrl = (host: string): string => (host.includes(":") ? `[${host}]` : host);

function listenGrpc(
  backend: QueryBackend,
  host: string,
  port: number,
  cfg: AppConfig["grpc"],
): Promise<Result<{ port: number; close: () => Promise<void> }, Error>> {
  const server = http2.createServer(
    { maxSessionMemory: GRPC_SESSION_MEMORY_MB },
    grpcHandler(backend, { maxRecvMsgBytes: cfg.maxRecvMsgSizeBytes, maxSendMsgBytes: cfg.maxSendMsgSizeBytes }),
  );
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (s) => {
    sessions.add(s);
    s.on("error", () => s.destroy());
    s.on("frameError", () => s.destroy());
    s.once("close", () => sessions.delete(s));
  });
  server.on("error", () => {});
  // Every connection goes through the guard (bounded-listen.ts): a session that ends in a protocol error releases
  // its socket.
  const sockets = new Set<net.Socket>();
  const front = net.createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    server.emit("connection", guardH2Socket(socket));
  });
  return new Promise((resolve) => {
    front.once("error", (e) => resolve(err(e)));
    front.listen(port, host === "" ? undefined : host, () => {
      front.removeAllListeners("error");
      front.on("error", () => {});
      resolve(
        ok({
          port: (front.address() as net.AddressInfo).port,
          close: () =>
            new Promise<void>((done) => {
              front.close(() => done());
              for (const s of sessions) s.destroy();
              for (const s of sockets) s.destroy();
            }),
        }),
      );
    });
  });
}

/**
 * Starts the REST gateway on `api.address` (when `api.enable`) and the gRPC server on `grpc.address` (when
 * `grpc.enable`). Startup failures are results: `invalid listening address ...` for an address without scheme, a
 * listen error (`listen tcp <addr>: <reason>`), or a malformed route template. On failure nothing stays open.
 */
export async function startApiServers(
  config: AppConfig,
  backend: QueryBackend,
  opts: ApiServerOptions = {},
): Promise<Result<ApiServers, PlainError>> {
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    await Promise.all(closers.splice(0).map((c) => c()));
  };
  let restUrl: string | undefined;
  let grpcAddress: string | undefined;

  if (config.api.enable) {
    const addr = parseApiAddress(config.api.address);
    if (!addr.ok) return addr;
    const gateway = Gateway.create(backend, {
      cors: config.api.enabledUnsafeCors,
      swagger: config.api.swagger,
      swaggerAssets: swaggerUiAssets(),
      json: wireJson({ nonNullable: DEFAULT_NON_NULLABLE, ...opts.json }, backend.namespace ?? "chain"),
    });
    if (!gateway.ok) return err(plain(gateway.error));
    const rest = await listenRest(gateway.value, addr.value.host, addr.value.port, {
      maxOpenConnections: config.api.maxOpenConnections,
      readTimeoutMs: config.api.rpcReadTimeoutSeconds * 1000,
      writeTimeoutMs: config.api.rpcWriteTimeoutSeconds * 1000,
      maxBodyBytes: config.api.rpcMaxBodyBytes,
    });
    if (!rest.ok) return err(plain(`listen tcp ${config.api.address}: ${rest.error.message}`));
    closers.push(rest.value.close);
    restUrl = `http://${hostForUrl(addr.value.host === "" ? "localhost" : addr.value.host)}:${rest.value.port}`;
  }

  if (config.grpc.enable) {
    const addr = parseGrpcAddress(config.grpc.address);
    if (!addr.ok) {
      await closeAll();
      return addr;
    }
    const grpc = await listenGrpc(backend, addr.value.host, addr.value.port, config.grpc);
    if (!grpc.ok) {
      await closeAll();
      return err(plain(`failed to listen on address ${config.grpc.address}: ${grpc.error.message}`));
    }
    closers.push(grpc.value.close);
    grpcAddress = `${hostForUrl(addr.value.host === "" ? "localhost" : addr.value.host)}:${grpc.value.port}`;
  }

  return ok({
    ...(restUrl === undefined ? {} : { restUrl }),
    ...(grpcAddress === undefined ? {} : { grpcAddress }),
    close: closeAll,
  });
}
