import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../../../test/kit/http.js";
import { simulatedNode } from "../../../test/kit/node-fixture.js";
import type { RestListener } from "../../server/rest.js";
import { listenRpc } from "../../server/rpc.js";
import { RpcHandler } from "./handler.js";
import { simRpcSource } from "./sim-source.js";

// The CometBFT RPC listener under random JSON-RPC bodies and URI requests: every answer is a well-formed JSON-RPC
// response (or 404 / the endpoint list), and the server keeps serving.
let listener: RestListener;
let port: number;

beforeAll(async () => {
  const { scenario, sim, backend } = simulatedNode();
  const source = simRpcSource(sim, "val1", backend, scenario.chain.validators, "");
  const r = await listenRpc(new RpcHandler(source), "127.0.0.1", 0, {
    maxOpenConnections: 0,
    maxBodyBytes: 4096,
    readTimeoutMs: 5000,
    writeTimeoutMs: 5000,
  });
  if (!r.ok) throw r.error;
  listener = r.value;
  port = r.value.port;
});
afterAll(async () => {
  await listener.close();
});

const METHODS = [
  "health",
  "status",
  "block",
  "block_by_hash",
  "block_results",
  "blockchain",
  "header",
  "commit",
  "validators",
  "genesis",
  "abci_info",
  "abci_query",
  "tx",
  "tx_search",
  "num_unconfirmed_txs",
  "net_info",
  "broadcast_tx_sync",
  "nope",
  "",
];
const scalar = fc.oneof(
  fc.constantFrom(
    "1",
    "0",
    "-1",
    "3",
    "99999999999999999999",
    "abc",
    "",
    "0x0a",
    "AAEC",
    "/chain.upgrade.v1beta1.Query/CurrentPlan",
    "tx.height=2",
    "message.action='x' AND tx.height>1",
    "asc",
    "desc",
  ),
  fc.integer({ min: -5, max: 50 }),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 8 }),
);
const params = fc.oneof(
  fc.dictionary(
    fc.constantFrom(
      "height",
      "hash",
      "path",
      "data",
      "query",
      "page",
      "per_page",
      "order_by",
      "minHeight",
      "maxHeight",
      "tx",
      "prove",
      "x",
    ),
    scalar,
    { maxKeys: 4 },
  ),
  fc.array(scalar, { maxLength: 6 }),
  scalar,
);
const requestObj = fc.record(
  {
    jsonrpc: fc.constantFrom("2.0", "1.0"),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null), fc.constant({})),
    method: fc.oneof(fc.constantFrom(...METHODS), fc.integer()),
    params,
  },
  { requiredKeys: ["jsonrpc", "method"] },
);
const body = fc.oneof(
  requestObj.map((r) => JSON.stringify(r)),
  requestObj.map((r) => JSON.stringify(r)),
  fc.array(requestObj, { maxLength: 4 }).map((a) => JSON.stringify(a)),
  fc.constantFrom("{", "[", "null", "1", '"x"', "[]", "{}", "x".repeat(5000)),
  fc.string({ maxLength: 40 }),
);
const uriValue = fc.oneof(
  fc.constantFrom("1", "-1", '"x"', "0x00", "0xzz", "%zz", '"/chain.upgrade.v1beta1.Query/CurrentPlan"', "abc", ""),
  fc.string({ unit: fc.constantFrom(...'abc01"%x=&'), maxLength: 6 }),
);
const uri = fc
  .tuple(
    fc.constantFrom(...METHODS, "x/y"),
    fc.array(fc.tuple(fc.constantFrom("height", "hash", "path", "data", "query", "page"), uriValue), { maxLength: 3 }),
  )
  .map(([m, args]) => `/${m}${args.length === 0 ? "" : `?${args.map(([k, v]) => `${k}=${v}`).join("&")}`}`);
const request = fc.oneof(
  body.map((b) => ({ method: "POST", target: "/", headers: [["Content-Type", "application/json"] as const], body: b })),
  uri.map((t) => ({ method: "GET", target: t, headers: [] })),
);

const CODES = new Set([-32700, -32600, -32601, -32602, -32603]);

function checkResponse(one: unknown): string {
  expect(typeof one).toBe("object");
  const r = one as Record<string, unknown>;
  expect(r.jsonrpc).toBe("2.0");
  expect("result" in r !== "error" in r).toBe(true);
  if ("error" in r) {
    const e = r.error as { code: number; message: string; data?: string };
    expect(CODES.has(e.code)).toBe(true);
    expect(typeof e.message).toBe("string");
    return String(e.code);
  }
  return "result";
}

describe("CometBFT RPC fuzz", () => {
  it("answers thousands of random JSON-RPC and URI requests with well-formed responses and keeps serving", async () => {
    const samples = fc.sample(request, { numRuns: 2000, seed: 20261124 });
    const outcomes = new Map<string, number>();
    const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    for (let i = 0; i < samples.length; i += 32) {
      const group = samples.slice(i, i + 32);
      const responses = await Promise.all(group.map((req) => rawRequest(port, req)));
      group.forEach((req, j) => {
        const res = responses[j]!;
        try {
          expect([200, 404, 500]).toContain(res.status);
          if (res.status === 404) count("404");
          else if (res.body === "") count("notification");
          else if (res.body.startsWith("<html>")) count("endpoints");
          else {
            const parsed = JSON.parse(res.body) as unknown;
            for (const one of Array.isArray(parsed) ? parsed : [parsed]) count(checkResponse(one));
          }
        } catch (e) {
          throw new Error(`${JSON.stringify(req)} → ${JSON.stringify(res)}: ${String(e)}`);
        }
      });
    }
    // Every JSON-RPC error code and successes were seen; the server still answers.
    for (const k of ["result", "-32700", "-32600", "-32601", "-32602", "-32603"])
      expect(outcomes.get(k) ?? 0).toBeGreaterThan(0);
    const after = await rawRequest(port, { method: "GET", target: "/health" });
    expect(JSON.parse(after.body)).toEqual({ jsonrpc: "2.0", id: -1, result: {} });
    console.log(
      `rpc fuzz: ${samples.length} requests, outcomes ${JSON.stringify(Object.fromEntries([...outcomes].sort()))}`,
    );
  }, 120_000);
});
