import { Code as GrpcCode } from "@connectrpc/connect";
import type { Gateway, GatewayRequest, GatewayResponse } from "../api/gateway/gateway.js";
import { gatewayJson } from "../api/json.js";
import { gatewayBodyFromJson } from "../api/json-body.js";
import { goHtmlEscape } from "../api/json-compiled.js";
import { NODE_JSON } from "../api/node-backend.js";
import { grpcMessage } from "../core/errors.js";
import { parseRequestTarget } from "../core/go/url.js";
import { type Namespace, namesOf } from "../core/namespace.js";
import {
  BroadcastMode,
  BroadcastTxRequestSchema,
  BroadcastTxResponseSchema,
  SimulateRequestSchema,
  SimulateResponseSchema,
} from "../gen/chain/tx/v1beta1/service_pb.js";
import type { DevnetChain } from "./chain.js";
import { TxErrors } from "./tx.js";
import { broadcastResponseOf, modeName } from "./tx-service.js";

/**
 * The devnet's REST front: the routes the query gateway does not serve (it serves GET rules only), in front of the
 * gateway, on the same listener (`api.address`, with app.toml's limits):
 *
 * | route | answer |
 * |---|---|
 * | `POST /chain/tx/v1beta1/txs` | `{tx_bytes: base64 TxRaw, mode: "BROADCAST_MODE_SYNC"\|"BROADCAST_MODE_ASYNC"}` → `{"tx_response": TxResponse}` (CheckTx; code 0 = queued) |
 * | `POST /chain/tx/v1beta1/simulate` | `{tx_bytes}` → `{"gas_info","result"}` |
 * | `GET /chain/devnet/v1/block_meta/{height}` | the block meta `query upgrade applied` prints, or 404 |
 * | `GET /chain/devnet/v1/status` | `{"chain_id","binary","latest_block_height","latest_block_time","mempool_size"}` |
 *
 * `GET /chain/tx/v1beta1/txs/{hash}` (GetTxResponse) and `GET /chain/auth/v1beta1/accounts/{address}` are the
 * gateway's own routes of the bound services (tx-service.ts). Errors use the gateway's body `{"code","message",
 * "details":[]}`; a body over `api.rpc-max-body-bytes` → 413.
 */
export const TXS_PATH = "/chain/tx/v1beta1/txs";
export const SIMULATE_PATH = "/chain/tx/v1beta1/simulate";
const BLOCK_META_PREFIX = "/chain/devnet/v1/block_meta/";
export const STATUS_PATH = "/chain/devnet/v1/status";

const JSON_HEADERS: readonly (readonly [string, string])[] = [["Content-Type", "application/json"]];

const json = (status: number, value: unknown): GatewayResponse => ({
  status,
  headers: JSON_HEADERS,
  body: goHtmlEscape(JSON.stringify(value)),
  close: false,
});
const raw = (status: number, body: string): GatewayResponse => ({ status, headers: JSON_HEADERS, body, close: false });
const status = (http: number, code: number, message: string): GatewayResponse =>
  json(http, { code, message, details: [] });

/** The devnet GET routes (synchronous); undefined when the request is not one of them. */
function getRoute(chain: DevnetChain, method: string, path: string): GatewayResponse | undefined {
  if (method !== "GET") return undefined;
  if (path.startsWith(BLOCK_META_PREFIX)) {
    const text = path.slice(BLOCK_META_PREFIX.length);
    const h = /^[0-9]{1,15}$/.test(text) ? Number(text) : Number.NaN;
    if (Number.isNaN(h)) return status(400, 3, `invalid height ${JSON.stringify(text)}`);
    const meta = h <= chain.durableHeight ? chain.blocks.meta(h) : undefined;
    return meta === undefined ? status(404, 5, `no headers returned for height ${h}`) : json(200, meta);
  }
  if (path === STATUS_PATH) {
    const h = chain.durableHeight;
    const t = chain.blocks.timeMs(h);
    return json(200, {
      chain_id: chain.chainId,
      binary: chain.binary,
      latest_block_height: String(h),
      latest_block_time: t === undefined ? "" : new Date(t).toISOString(),
      mempool_size: String(chain.mempoolSize),
    });
  }
  return undefined;
}

function postRoute(chain: DevnetChain, path: string, body: string): GatewayResponse | undefined {
  if (path === TXS_PATH) {
    const req = gatewayBodyFromJson(BroadcastTxRequestSchema, body);
    if (!req.ok) return status(400, GrpcCode.InvalidArgument, req.error.message);
    if (req.value.txBytes.length === 0) return status(400, GrpcCode.InvalidArgument, "invalid empty tx");
    if (req.value.mode !== BroadcastMode.SYNC && req.value.mode !== BroadcastMode.ASYNC) {
      const e = {
        kind: "sdk" as const,
        base: TxErrors.ErrInvalidRequest,
        wraps: [`unsupported return type ${modeName(req.value.mode)}; supported types: sync, async`],
      };
      return status(500, GrpcCode.Unknown, grpcMessage(e));
    }
    const res = {
      $typeName: "chain.tx.v1beta1.BroadcastTxResponse" as const,
      txResponse: broadcastResponseOf(chain.checkTx(req.value.txBytes)),
    };
    return raw(200, gatewayJson(BroadcastTxResponseSchema, res, NODE_JSON));
  }
  if (path === SIMULATE_PATH) {
    const req = gatewayBodyFromJson(SimulateRequestSchema, body);
    if (!req.ok) return status(400, GrpcCode.InvalidArgument, req.error.message);
    const r = chain.simulate(req.value.txBytes);
    if (!r.ok) return status(400, GrpcCode.Unknown, grpcMessage(r.error));
    const res = {
      $typeName: "chain.tx.v1beta1.SimulateResponse" as const,
      gasInfo: {
        $typeName: "chain.base.abci.v1beta1.GasInfo" as const,
        gasWanted: r.value.gasWanted,
        gasUsed: r.value.gasUsed,
      },
      result: {
        $typeName: "chain.base.abci.v1beta1.Result" as const,
        data: new Uint8Array(),
        log: "",
        events: r.value.events.map((e) => ({
          $typeName: "chain.base.abci.v1beta1.Event" as const,
          type: e.type,
          attributes: e.attributes.map((a) => ({ $typeName: "chain.base.abci.v1beta1.EventAttribute" as const, ...a })),
        })),
        msgResponses: [],
      },
    };
    return raw(200, gatewayJson(SimulateResponseSchema, res, NODE_JSON));
  }
  return undefined;
}

/**
 * The request's path as the devnet routes above name it (`/chain/...`): in another namespace its own prefix
 * (`/cosmos/tx/v1beta1/txs`) is read as `/chain/`, and a `/chain/` path is no devnet route (undefined).
 */
const pathOf = (target: string, ns: Namespace): string | undefined => {
  const t = parseRequestTarget(target);
  if (!t.ok) return undefined;
  if (ns === "chain") return t.value.path;
  const prefix = namesOf(ns).rest("");
  return t.value.path.startsWith(prefix) ? namesOf("chain").rest(t.value.path.slice(prefix.length)) : undefined;
};

const isPost = (method: string, path: string | undefined) =>
  method === "POST" && (path === TXS_PATH || path === SIMULATE_PATH);

/**
 * The REST handler: the query gateway with the devnet routes in front. It is the gateway itself behind a Proxy that
 * overrides the two request entry points (`handle`, and `handleWithoutBody`, the listener's synchronous fast path),
 * so that the REST listener keeps every other method of the gateway it may call.
 */
export function devnetRest(gateway: Gateway, chain: DevnetChain): Gateway {
  const handleWithoutBody = (req: Pick<GatewayRequest, "method" | "target" | "rawHeaders">) => {
    const path = pathOf(req.target, chain.namespace);
    if (isPost(req.method, path)) return undefined;
    try {
      const r = path === undefined ? undefined : getRoute(chain, req.method, path);
      return r ?? gateway.handleWithoutBody(req);
    } catch {
      return status(500, 13, "internal error");
    }
  };
  const handle = async (req: GatewayRequest): Promise<GatewayResponse> => {
    try {
      const path = pathOf(req.target, chain.namespace);
      if (path !== undefined && isPost(req.method, path)) {
        const body = await req.readBody();
        if (!body.ok) return status(413, 3, "http: request body too large");
        return postRoute(chain, path, Buffer.from(body.value, "latin1").toString("utf8"))!;
      }
      const r = path === undefined ? undefined : getRoute(chain, req.method, path);
      return r ?? (await gateway.handle(req));
    } catch {
      return status(500, 13, "internal error");
    }
  };
  return new Proxy(gateway, {
    get(target, prop) {
      if (prop === "handle") return handle;
      if (prop === "handleWithoutBody") return handleWithoutBody;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
