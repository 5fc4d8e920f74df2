import { createHash } from "node:crypto";
import net from "node:net";
import type { QueryBackend } from "../../src/api/backend.js";
import { Gateway } from "../../src/api/gateway/gateway.js";
import { NODE_JSON } from "../../src/api/node-backend.js";
import { addressOfName } from "../../src/core/address.js";
import { ok } from "../../src/core/errors.js";
import { startApiServers } from "../../src/server/server.js";
import { loopbackConfig } from "./api.js";
import { type SimulatedNode, simulatedNode } from "./node-fixture.js";

/**
 * The gateway's answers, byte for byte, over many routes, heights and header variants: what the uncached REST path
 * must keep while it gets faster (docs/performance.md, "The REST gateway"). `test/golden/gateway-responses.json` pins
 * a digest of each answer as the gateway gave it before the uncached path was optimised; `npm run golden:update`
 * rewrites it (review the diff: a changed digest is a changed response).
 *
 * - in process: status, headers (names as emitted), body and close flag of `Gateway.handleRead`;
 * - over HTTP: the raw response bytes on a keep-alive connection to `chainsim serve`'s REST listener (status line,
 *   header lines in wire order, body), with the Date header's value masked.
 */
export const GATEWAY_GOLDEN_FILE = "test/golden/gateway-responses.json";

/** The fixture: the library scenario query-upgrade-history (upgrade v2 applied at 30) run to height 60. */
export const GOLDEN_HEIGHT = 60;
export const goldenNode = (): SimulatedNode => simulatedNode({ untilHeight: GOLDEN_HEIGHT });

export interface GoldenRequest {
  readonly target: string;
  /** Header lines after Host, in order. */
  readonly headers: readonly (readonly [string, string])[];
}

const HEIGHTS = [
  "0",
  "1",
  "2",
  "3",
  "4",
  "12",
  "20",
  "29",
  "30",
  "31",
  "45",
  "60",
  "61",
  "-1",
  "x",
  "99999999999999999999",
];

function targets(prefix: string): string[] {
  const [v1, v2] = [addressOfName("val1", prefix), addressOfName("val2", prefix)];
  return [
    ...["current_plan", "applied_plan/v2", "applied_plan/none", "module_versions", "module_versions?module_name=foo"]
      .concat(["authority", "upgraded_consensus_state/5"])
      .map((p) => `/chain/upgrade/v1beta1/${p}`),
    ...["proposals/1", "proposals/7", "proposals", "proposals?proposal_status=PROPOSAL_STATUS_PASSED"]
      .concat(["proposals/1/votes", `proposals/1/votes/${v1}`, `proposals/1/votes/${v2}`, "proposals/1/deposits"])
      .concat([`proposals/1/deposits/${v1}`, "proposals/1/tally", "params/voting", "params/tallying", "params/deposit"])
      .concat(["proposals/abc", "proposals?pagination.limit=1&pagination.count_total=true"])
      .map((p) => `/chain/gov/v1/${p}`),
    ...[`balances/${v1}`, `balances/${v2}/by_denom?denom=stake`, `spendable_balances/${v1}`, "supply", "params"]
      .concat(["supply/by_denom?denom=stake", "balances/notanaddress"])
      .map((p) => `/chain/bank/v1beta1/${p}`),
    ...["blocks/5", "blocks/latest", "node_info", "syncing"].map((p) => `/chain/base/tendermint/v1beta1/${p}`),
    "/chain/nope",
    "/chain/upgrade/v1beta1/module_versions/",
    "//chain/upgrade/v1beta1/current_plan",
  ];
}

/** Every target at every height (and without a height header), then header variants at height 12. */
export function goldenRequests(prefix: string): GoldenRequest[] {
  const out: GoldenRequest[] = [];
  for (const target of targets(prefix)) {
    out.push({ target, headers: [] });
    for (const h of HEIGHTS) out.push({ target, headers: [["x-chain-block-height", h]] });
  }
  const variants: (readonly (readonly [string, string])[])[] = [
    [["Grpc-Metadata-X-Chain-Block-Height", "12"]],
    [
      ["x-chain-block-height", "12"],
      ["X-Chain-Block-Height", "29"],
    ],
    [
      ["x-chain-block-height", "12"],
      ["Grpc-Timeout", "1S"],
    ],
    [
      ["x-chain-block-height", "12"],
      ["Grpc-Timeout", "bad"],
    ],
    [
      ["x-chain-block-height", "12"],
      ["X-Foo-Bin", "!!!"],
    ],
    [
      ["x-chain-block-height", "12"],
      ["Authorization", "Bearer t"],
      ["Grpc-Metadata-Trace", "a\u00e9b"],
    ],
  ];
  for (const target of targets(prefix).slice(0, 12)) for (const headers of variants) out.push({ target, headers });
  return out;
}

const keyOf = (r: GoldenRequest): string => `${r.target} ${r.headers.map(([k, v]) => `${k}: ${v}`).join("; ")}`;
const digest = (s: string | Buffer): string => createHash("sha256").update(s).digest("hex").slice(0, 16);

/** Digests of the gateway's in-process answers, keyed by request. */
export function inProcessDigests(backend: QueryBackend, requests: readonly GoldenRequest[]): Record<string, string> {
  const gw = Gateway.create(backend, { cors: false, swagger: false, json: NODE_JSON });
  if (!gw.ok) throw new Error(gw.error);
  const out: Record<string, string> = {};
  for (const r of requests) {
    const rawHeaders = ["Host", "127.0.0.1", ...r.headers.flat()];
    const res = gw.value.handleRead({ method: "GET", target: r.target, rawHeaders, body: ok("") });
    out[keyOf(r)] = digest(JSON.stringify([res.status, res.headers, res.body, res.close]));
  }
  return out;
}

/** Reads one whole response (headers, then Content-Length bytes) from the connection's buffered bytes. */
function takeResponse(buf: Buffer): { response: Buffer; rest: Buffer } | undefined {
  const end = buf.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const m = /\r\ncontent-length: *(\d+)/i.exec(buf.subarray(0, end).toString("latin1"));
  const length = end + 4 + (m === null ? 0 : Number(m[1]));
  return buf.length < length ? undefined : { response: buf.subarray(0, length), rest: buf.subarray(length) };
}

/** Digests of the raw HTTP answers of the REST listener serving `backend`, one keep-alive connection per request batch. */
export async function httpDigests(
  backend: QueryBackend,
  requests: readonly GoldenRequest[],
): Promise<Record<string, string>> {
  const servers = await startApiServers(loopbackConfig("", "enable = false"), backend, { json: NODE_JSON });
  if (!servers.ok) throw new Error(servers.error.message);
  const port = Number(new URL(servers.value.restUrl!).port);
  const out: Record<string, string> = {};
  try {
    let socket = net.connect(port, "127.0.0.1");
    let buf: Buffer = Buffer.alloc(0);
    let waiting: ((b: Buffer) => void) | undefined;
    const attach = (s: net.Socket) =>
      s.on("data", (c: Buffer) => {
        buf = Buffer.concat([buf, c]);
        const t = takeResponse(buf);
        if (t === undefined || waiting === undefined) return;
        buf = t.rest;
        const w = waiting;
        waiting = undefined;
        w(t.response);
      });
    attach(socket);
    for (const r of requests) {
      const head = [`GET ${r.target} HTTP/1.1`, "Host: 127.0.0.1", ...r.headers.map(([k, v]) => `${k}: ${v}`)];
      const raw = await new Promise<Buffer>((resolve) => {
        waiting = resolve;
        socket.write(Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"));
      });
      const text = raw.toString("latin1").replace(/\r\nDate: [^\r]*/, "\r\nDate: -");
      out[keyOf(r)] = digest(text);
      if (/\r\nConnection: close/i.test(text)) {
        socket.destroy();
        socket = net.connect(port, "127.0.0.1");
        buf = Buffer.alloc(0);
        attach(socket);
      }
    }
    socket.destroy();
  } finally {
    await servers.value.close();
  }
  return out;
}

/** The golden file's content: in-process and HTTP digests of every golden request. */
export async function gatewayGolden(): Promise<{ inProcess: Record<string, string>; http: Record<string, string> }> {
  const node = goldenNode();
  const requests = goldenRequests(node.sim.cfg.bech32Prefix);
  return { inProcess: inProcessDigests(node.backend, requests), http: await httpDigests(node.backend, requests) };
}
