import type { GatewayResponse } from "../api/gateway/gateway.js";
import type { RpcHandler } from "../api/rpc/handler.js";
import type { Result } from "../core/errors.js";
import { listenRest, type RestListener } from "./rest.js";

/**
 * The CometBFT RPC listener (config.toml `[rpc]`): the RpcHandler behind the bounded HTTP/1.1 listener the REST
 * server uses, with CometBFT's limits: `max_open_connections` (900), `max_body_bytes` (1000000; a larger body is
 * -32600 `error reading request body: http: request body too large`), and read/write timeouts.
 */
export interface RpcLimits {
  readonly maxOpenConnections: number;
  readonly maxBodyBytes: number;
  readonly readTimeoutMs: number;
  readonly writeTimeoutMs: number;
}

export const DEFAULT_RPC_LIMITS: RpcLimits = Object.freeze({
  maxOpenConnections: 900,
  maxBodyBytes: 1_000_000,
  readTimeoutMs: 10_000,
  writeTimeoutMs: 15_000,
});

const tooLarge: GatewayResponse = {
  status: 500,
  headers: [["Content-Type", "application/json"]],
  body: JSON.stringify(
    {
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message: "Invalid Request",
        data: "error reading request body: http: request body too large",
      },
    },
    null,
    2,
  ),
  close: true,
};

export function listenRpc(
  handler: RpcHandler,
  host: string,
  port: number,
  limits: RpcLimits = DEFAULT_RPC_LIMITS,
): Promise<Result<RestListener, Error>> {
  return listenRest(
    {
      handleWithoutBody: () => undefined,
      handle: async (req) => {
        const body = await req.readBody();
        if (!body.ok) return tooLarge;
        const r = await handler.handle({
          method: req.method,
          target: req.target,
          body: Buffer.from(body.value, "latin1").toString("utf8"),
        });
        return { status: r.status, headers: [["Content-Type", r.contentType]], body: r.body, close: false };
      },
    },
    host,
    port,
    { ...limits },
  );
}
