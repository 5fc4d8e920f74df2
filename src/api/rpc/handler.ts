import { type Arg, Args, type Json, MethodError, ParamError } from "./args.js";
import { exceedsJsonDepth } from "./json-depth.js";
import { rpcMethods } from "./methods/index.js";
import type { Method } from "./methods/table.js";
import type { RpcSource } from "./source.js";

/**
 * CometBFT v0.38's RPC (rpc/core routes and rpc/jsonrpc/server) over an RpcSource, without a socket: JSON-RPC 2.0
 * over POST and the URI form over GET, answered as CometBFT answers them.
 *
 * - JSON-RPC: a single request or a batch; a request without `id` is a notification (no reply). Params by name
 *   (object) or by position (array). A body that is not JSON, or not request objects, is -32700 `Parse error`
 *   (HTTP 500); a POST to a path other than `/` is -32600; an unknown method -32601; params that do not convert
 *   -32602 `Invalid params` (`error converting json params to arguments: ...`); a method's failure -32603
 *   `Internal error` with CometBFT's text in `data` (HTTP 200 for all of these inside a parsed request).
 * - URI: `GET /<method>?<arg>=<value>`: strings quoted (`path="/chain..."`), integers bare, bytes as `0x<hex>` or a
 *   quoted string; answers carry id -1; errors are HTTP 500.
 * - Heights: `height must be greater than 0, but got H`, `height H must be less than or equal to the current
 *   blockchain height L`, `height H is not available, lowest height is B` (pruned).
 * - Methods, one file per area under methods/ (table.ts says which): health, status, net_info, genesis, blockchain,
 *   block, block_by_hash, header, header_by_hash, commit, block_results, validators, abci_info, abci_query, tx,
 *   tx_search, num_unconfirmed_txs, and, when the source has a broadcast side, broadcast_tx_sync,
 *   broadcast_tx_async, broadcast_tx_commit. The endpoint list (`GET /`) shows them in that order.
 */
export interface RpcHttpRequest {
  readonly method: string;
  /** Path and query string. */
  readonly target: string;
  readonly body: string;
}

export interface RpcHttpResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

type Id = string | number | null;

interface RpcErrorObj {
  readonly code: number;
  readonly message: string;
  readonly data?: string;
}

const MAX_BATCH = 100;

export class RpcHandler {
  readonly #methods: ReadonlyMap<string, Method>;

  constructor(source: RpcSource) {
    this.#methods = rpcMethods(source);
  }

  /** The served method names (the read-only ones when the source cannot broadcast). */
  get methods(): readonly string[] {
    return [...this.#methods.keys()];
  }

  // ---- transports -------------------------------------------------------------------------------------------------

  async #call(method: Method, args: Args): Promise<{ ok: true; value: Json } | { ok: false; error: RpcErrorObj }> {
    try {
      return { ok: true, value: await method.run(args) };
    } catch (e) {
      if (e instanceof ParamError)
        return { ok: false, error: { code: -32602, message: "Invalid params", data: e.message } };
      if (e instanceof MethodError)
        return { ok: false, error: { code: -32603, message: "Internal error", data: e.message } };
      return { ok: false, error: { code: -32603, message: "Internal error", data: "internal error" } };
    }
  }

  /** Handles one HTTP request (JSON-RPC POST, or a URI GET). */
  async handle(req: RpcHttpRequest): Promise<RpcHttpResponse> {
    const q = req.target.indexOf("?");
    const path = q < 0 ? req.target : req.target.slice(0, q);
    if (req.method === "GET" || req.method === "HEAD") {
      if (path === "/" && q < 0) return this.#endpoints();
      return this.#uri(path.slice(1), q < 0 ? "" : req.target.slice(q + 1));
    }
    return this.#jsonRpc(path, req.body);
  }

  #endpoints(): RpcHttpResponse {
    const items = this.methods.map((n) => `<a href="//${n}">//${n}</a></br>`).join("\n");
    return {
      status: 200,
      contentType: "text/html",
      body: `<html><body><br>Available endpoints:<br>${items}</body></html>`,
    };
  }

  async #uri(name: string, query: string): Promise<RpcHttpResponse> {
    const method = this.#methods.get(name);
    if (method === undefined)
      return { status: 404, contentType: "text/plain; charset=utf-8", body: "404 page not found\n" };
    const args = new Map<string, Arg>();
    try {
      for (const part of query.split("&")) {
        if (part === "") continue;
        const eq = part.indexOf("=");
        const k = decodeURIComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, " "));
        const v = decodeURIComponent((eq < 0 ? "" : part.slice(eq + 1)).replace(/\+/g, " "));
        if (method.args.includes(k) && v !== "") args.set(k, { kind: "uri", text: v });
      }
    } catch {
      return respond(500, {
        jsonrpc: "2.0",
        id: -1,
        error: {
          code: -32602,
          message: "Invalid params",
          data: "error converting http params to arguments: invalid URL escape",
        },
      });
    }
    const r = await this.#call(method, new Args(args, "http"));
    return r.ok
      ? respond(200, { jsonrpc: "2.0", id: -1, result: r.value })
      : respond(500, { jsonrpc: "2.0", id: -1, error: r.error });
  }

  async #jsonRpc(path: string, body: string): Promise<RpcHttpResponse> {
    if (body.trim() === "") return this.#endpoints();
    if (exceedsJsonDepth(body)) return parseError("error unmarshaling request: exceeded max depth");
    let parsed: Json;
    try {
      parsed = JSON.parse(body);
    } catch (e) {
      return parseError(`error unmarshaling request: ${e instanceof Error ? e.message : String(e)}`);
    }
    const batch = Array.isArray(parsed);
    const requests = batch ? (parsed as Json[]) : [parsed];
    if (requests.length > MAX_BATCH)
      return parseError(`error unmarshaling request: batch of ${requests.length} requests exceeds ${MAX_BATCH}`);
    for (const r of requests) {
      const bad = requestShapeError(r);
      if (bad !== undefined) return parseError(`error unmarshaling request: ${bad}`);
    }
    const responses: Json[] = [];
    for (const r of requests as Record<string, Json>[]) {
      if (!("id" in r) || r.id === null) continue;
      const id = r.id as Id;
      const fail = (error: RpcErrorObj) => responses.push({ jsonrpc: "2.0", id, error });
      if (path.length > 1) {
        fail({ code: -32600, message: "Invalid Request", data: `path ${path} is invalid` });
        continue;
      }
      const method = typeof r.method === "string" ? this.#methods.get(r.method) : undefined;
      if (method === undefined) {
        fail({ code: -32601, message: "Method not found" });
        continue;
      }
      const args = new Map<string, Arg>();
      const params = r.params;
      if (Array.isArray(params)) {
        if (params.length > method.args.length) {
          fail({
            code: -32602,
            message: "Invalid params",
            data: `error converting json params to arguments: expected ${method.args.length} parameters (${JSON.stringify(method.args)}), got ${params.length} (${JSON.stringify(params).slice(0, 200)})`,
          });
          continue;
        }
        params.forEach((v, i) => {
          args.set(method.args[i]!, { kind: "json", value: v });
        });
      } else if (params !== null && typeof params === "object") {
        for (const n of method.args)
          if (n in params) args.set(n, { kind: "json", value: (params as Record<string, Json>)[n] });
      } else if (params !== undefined && params !== null) {
        fail({
          code: -32602,
          message: "Invalid params",
          data: "error converting json params to arguments: params must be an object or an array",
        });
        continue;
      }
      const out = await this.#call(method, new Args(args, "json"));
      responses.push(out.ok ? { jsonrpc: "2.0", id, result: out.value } : { jsonrpc: "2.0", id, error: out.error });
    }
    if (responses.length === 0) return { status: 200, contentType: "application/json", body: "" };
    return respond(200, batch ? responses : responses[0]);
  }
}

/** Why a JSON value is not a JSON-RPC request object (CometBFT fails to unmarshal it), or undefined. */
function requestShapeError(r: Json): string | undefined {
  if (r === null || typeof r !== "object" || Array.isArray(r))
    return "json: cannot unmarshal into Go value of type types.RPCRequest";
  const o = r as Record<string, Json>;
  if ("id" in o && o.id !== null && typeof o.id !== "string" && typeof o.id !== "number")
    return `JSON-RPC ID (${JSON.stringify(o.id)}) is of unknown type`;
  if ("method" in o && typeof o.method !== "string")
    return "json: cannot unmarshal method into Go struct field of type string";
  return undefined;
}

const respond = (status: number, value: Json): RpcHttpResponse => ({
  status,
  contentType: "application/json",
  body: JSON.stringify(value, null, 2),
});

const parseError = (data: string): RpcHttpResponse =>
  respond(500, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error", data } });
