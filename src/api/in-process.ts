import { err, ok, type Result } from "../core/errors.js";
import type { QueryBackend } from "./backend.js";
import { Gateway, type GatewayResponse } from "./gateway/gateway.js";
import { HEIGHT_HEADER } from "./height.js";
import type { GatewayJsonOptions } from "./json.js";
import { NODE_JSON } from "./node-backend.js";

/** A REST query run without a socket: what a scenario `query` step sends (docs/scenario-format.md §2). */
export interface InProcessQuery {
  /** The request target: path and optional query string, sent as written (`/chain/upgrade/v1beta1/current_plan`). */
  readonly path: string;
  /** Sent as one `x-chain-block-height` header line. */
  readonly height?: number;
  /** Further request header lines, in order (a second height line makes two values, as over HTTP). */
  readonly headers?: Iterable<readonly [string, string]>;
  /** Default GET. */
  readonly method?: string;
}

/**
 * Runs one GET through the gateway's own request pipeline (routing, parameters, height header, query context,
 * handler, JSON, status mapping), as `chainsim serve` answers it over HTTP: only the transport differs. CORS and
 * Swagger are off, as in the default app.toml. The error is a route-building failure of the backend's services.
 */
export function inProcessQuery(
  backend: QueryBackend,
  q: InProcessQuery,
  json: GatewayJsonOptions = NODE_JSON,
): Result<GatewayResponse, string> {
  const gateway = Gateway.create(backend, { cors: false, swagger: false, json });
  if (!gateway.ok) return err(gateway.error);
  const rawHeaders: string[] = [];
  if (q.height !== undefined) rawHeaders.push(HEIGHT_HEADER, String(q.height));
  for (const [k, v] of q.headers ?? []) rawHeaders.push(k, v);
  return ok(gateway.value.handleRead({ method: q.method ?? "GET", target: q.path, rawHeaders, body: ok("") }));
}
