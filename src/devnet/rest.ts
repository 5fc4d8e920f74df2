import { base64 } from "@scure/base";
import type { Gateway, GatewayRequest, GatewayResponse } from "../api/gateway/gateway.js";
import { goHtmlEscape } from "../api/json.js";
import { parseRequestTarget } from "../core/go/url.js";
import type { DevnetChain } from "./chain.js";
import { PUBKEY_TYPE } from "./keyring.js";

/**
 * The devnet's REST front: a few routes the query gateway does not have (it serves GET query services only), in
 * front of the gateway, on the same listener (`api.address`, with app.toml's limits):
 *
 * | route | answer |
 * |---|---|
 * | `POST /chain/tx/v1beta1/txs` | CheckTx of the body (a signed tx, tx.ts); 200 `{"tx_response":{txhash,height,code,codespace,raw_log}}`, code 0 = queued; a body over `api.rpc-max-body-bytes` → 413 |
 * | `GET /chain/tx/v1beta1/txs/{hash}` | the durable result `{"tx_response":{...,"height","index"}}`, or 404 `tx not found: <hash>` |
 * | `GET /chain/auth/v1beta1/accounts/{address}` | `{"account":{"@type","address","pub_key","account_number","sequence"}}`, or 404 |
 * | `GET /chain/bank/v1beta1/balances/{address}` | `{"balances":[...],"pagination":{"next_key":null,"total"}}` |
 * | `GET /chain/devnet/v1/block_meta/{height}` | the block meta `query upgrade applied` prints, or 404 |
 * | `GET /chain/devnet/v1/status` | `{"chain_id","binary","latest_block_height","latest_block_time","mempool_size"}` |
 *
 * Errors use the gateway's body `{"code","message","details":[]}` (gRPC code 5 NotFound → 404, 3 → 400).
 */
export const TXS_PATH = "/chain/tx/v1beta1/txs";
const TX_PREFIX = `${TXS_PATH}/`;
const ACCOUNT_PREFIX = "/chain/auth/v1beta1/accounts/";
const BALANCES_PREFIX = "/chain/bank/v1beta1/balances/";
const BLOCK_META_PREFIX = "/chain/devnet/v1/block_meta/";
export const STATUS_PATH = "/chain/devnet/v1/status";

const JSON_HEADERS: readonly (readonly [string, string])[] = [["Content-Type", "application/json"]];

const json = (status: number, value: unknown): GatewayResponse => ({
  status,
  headers: JSON_HEADERS,
  body: goHtmlEscape(JSON.stringify(value)),
  close: false,
});
const status = (http: number, code: number, message: string): GatewayResponse =>
  json(http, { code, message, details: [] });

/** The devnet GET routes (synchronous); undefined when the request is not one of them. */
function getRoute(chain: DevnetChain, method: string, path: string): GatewayResponse | undefined {
  if (method !== "GET") return undefined;
  if (path.startsWith(TX_PREFIX)) {
    const hash = path.slice(TX_PREFIX.length);
    const r = chain.txResult(hash);
    return r === undefined ? status(404, 5, `tx not found: ${hash}`) : json(200, { tx_response: r });
  }
  if (path.startsWith(ACCOUNT_PREFIX)) {
    const address = path.slice(ACCOUNT_PREFIX.length);
    const a = chain.account(address);
    if (a === undefined) return status(404, 5, `account ${address} not found`);
    return json(200, {
      account: {
        "@type": "/chain.auth.v1beta1.BaseAccount",
        address,
        pub_key: { "@type": PUBKEY_TYPE, key: base64.encode(a.pubkey) },
        account_number: "0",
        sequence: a.sequence.toString(),
      },
    });
  }
  if (path.startsWith(BALANCES_PREFIX)) {
    const balances = chain.balances(path.slice(BALANCES_PREFIX.length));
    return json(200, {
      balances: balances.map((c) => ({ denom: c.denom, amount: c.amount.toString() })),
      pagination: { next_key: null, total: String(balances.length) },
    });
  }
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

const pathOf = (target: string): string | undefined => {
  const t = parseRequestTarget(target);
  return t.ok ? t.value.path : undefined;
};

/**
 * The REST handler: the query gateway with the devnet routes in front. It is the gateway itself behind a Proxy that
 * overrides the two request entry points (`handle`, and `handleWithoutBody`, the listener's synchronous fast path),
 * so that the REST listener keeps every other method of the gateway it may call.
 */
export function devnetRest(gateway: Gateway, chain: DevnetChain): Gateway {
  const handleWithoutBody = (req: Pick<GatewayRequest, "method" | "target" | "rawHeaders">) => {
    const path = pathOf(req.target);
    if (path === TXS_PATH && req.method === "POST") return undefined;
    try {
      const r = path === undefined ? undefined : getRoute(chain, req.method, path);
      return r ?? gateway.handleWithoutBody(req);
    } catch {
      return status(500, 13, "internal error");
    }
  };
  const handle = async (req: GatewayRequest): Promise<GatewayResponse> => {
    try {
      const path = pathOf(req.target);
      if (path === TXS_PATH && req.method === "POST") {
        const body = await req.readBody();
        if (!body.ok) return status(413, 3, "http: request body too large");
        return json(200, { tx_response: chain.checkTx(Buffer.from(body.value, "latin1").toString("utf8")) });
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
