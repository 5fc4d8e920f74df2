import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loopbackConfig, standardBackend } from "../../../test/kit/api.js";
import { header, type RawRequest, type RawResponse, rawRequest } from "../../../test/kit/http.js";
import { type ApiServers, startApiServers } from "../../server/server.js";
import { httpStatusOf } from "../status.js";

let servers: ApiServers;
let port: number;

beforeAll(async () => {
  const r = await startApiServers(
    loopbackConfig("swagger = true\nenabled-unsafe-cors = true\nmax-open-connections = 0", "enable = false"),
    standardBackend(),
  );
  if (!r.ok) throw new Error(r.error.message);
  servers = r.value;
  port = Number(new URL(r.value.restUrl!).port);
});
afterAll(async () => {
  await servers.close();
});

// Printable ASCII without space: what node's strict parser accepts in a request target.
const targetChar = fc.constantFrom(..."abcxyz019_-.~:;@!$&'()*+,=%/?#[]{}|^`<>\"\\");
const randomText = (max: number) => fc.string({ unit: targetChar, maxLength: max });
const segment = fc.oneof(
  fc.constantFrom(
    "chain",
    "upgrade",
    "v1beta1",
    "current_plan",
    "applied_plan",
    "module_versions",
    "authority",
    "upgraded_consensus_state",
    "base",
    "tendermint",
    "blocks",
    "latest",
    "syncing",
    "swagger",
    "swagger.yaml",
    "",
    ".",
    "..",
    ":x",
    "v2:",
    "v2:rc1",
    "%2F",
    "%zz",
    "%",
    "%76%32",
    "0x1f",
    "-1",
    "9",
    "abc",
  ),
  randomText(6),
);
const path = fc.oneof(
  fc.array(segment, { minLength: 1, maxLength: 7 }).map((s) => `/${s.join("/")}`),
  fc
    .tuple(
      fc.constantFrom("current_plan", "applied_plan/v2", "module_versions", "authority", "upgraded_consensus_state/5"),
      fc.boolean(),
    )
    .map(([p, slash]) => `${slash ? "/" : ""}/chain/upgrade/v1beta1/${p}`),
);
const queryValue = fc.oneof(fc.constantFrom("bank", "auth", "foo", "", "%zz", "a;b", "ba+nk", "%62"), randomText(5));
const queryKey = fc.constantFrom("module_name", "moduleName", "name", "x", "module_name.x", "", "%zz");
const query = fc.option(
  fc
    .array(fc.tuple(queryKey, queryValue), { maxLength: 4 })
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`),
  { nil: "" },
);
const headerValue = fc.oneof(
  fc.constantFrom("0", "3", "6", "7", "-1", "abc", "", "0x10", "99999999999999999999", "5, 6", "+2", "caf\u00e9"),
  fc.string({ unit: fc.constantFrom(..."0123456789-+ab \u00ff"), maxLength: 8 }),
);
const headerEntry = fc.oneof(
  headerValue.map((v) => ["x-chain-block-height", v] as const),
  headerValue.map((v) => ["Grpc-Metadata-X-Chain-Block-Height", v] as const),
  fc.constantFrom("https://a.example", "").map((v) => ["Origin", v] as const),
  fc.constantFrom("GET", "PUT", "get", "").map((v) => ["Access-Control-Request-Method", v] as const),
  fc
    .constantFrom("content-type", "x-chain-block-height", "accept, origin", ",")
    .map((v) => ["Access-Control-Request-Headers", v] as const),
  fc.constantFrom("1S", "-1S", "abc", "0n", "9999999999999999999H").map((v) => ["Grpc-Timeout", v] as const),
  fc.constantFrom("application/x-www-form-urlencoded", "text/plain").map((v) => ["Content-Type", v] as const),
  fc.constantFrom("GET", "delete", "").map((v) => ["X-HTTP-Method-Override", v] as const),
  fc.constantFrom("AQI=", "!!", "AQ").map((v) => ["Grpc-Metadata-Foo-Bin", v] as const),
  fc.constantFrom("ok", "caf\u00e9").map((v) => ["User-Agent", v] as const),
);
const request: fc.Arbitrary<RawRequest> = fc
  .record({
    method: fc.constantFrom("GET", "GET", "GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE"),
    target: fc.tuple(path, query).map(([p, q]) => p + q),
    headers: fc.array(headerEntry, { maxLength: 4 }),
    body: fc.option(fc.oneof(fc.constantFrom("module_name=bank", "a=%zz", "x;y"), randomText(12)), { nil: undefined }),
  })
  .map((r) =>
    r.method === "POST" ? { ...r, body: r.body ?? "" } : { method: r.method, target: r.target, headers: r.headers },
  );

/** Every response is one of the shapes the contract allows. */
function checkShape(req: RawRequest, r: RawResponse): void {
  expect([200, 301, 400, 403, 404, 405, 500, 501, 504]).toContain(r.status);
  const ct = header(r, "content-type");
  if (req.method === "HEAD") {
    expect(r.body).toBe("");
    return;
  }
  if (r.status === 301) {
    expect(header(r, "location")).toMatch(/^\//);
    expect(r.body).toBe("");
    return;
  }
  if (ct === "application/json") {
    const body = JSON.parse(r.body);
    if (r.status !== 200) {
      expect(Object.keys(body)).toEqual(["code", "message", "details"]);
      expect(Number.isInteger(body.code)).toBe(true);
      expect(typeof body.message).toBe("string");
      expect(body.details).toEqual([]);
      expect(httpStatusOf(body.code)).toBe(r.status);
    } else {
      expect(typeof body).toBe("object");
    }
    return;
  }
  if (ct === "text/plain; charset=utf-8") {
    expect(["400 Bad Request", "404 page not found\n"]).toContain(r.body);
    return;
  }
  if (ct === "text/html; charset=utf-8" || ct === "application/yaml") {
    expect(r.status).toBe(200);
    return;
  }
  // CORS answers and `OPTIONS` without an origin: empty bodies.
  expect(ct).toBeUndefined();
  expect(r.body).toBe("");
}

describe("REST fuzz", () => {
  it("answers thousands of random requests with well-formed responses and keeps serving", async () => {
    const samples = fc.sample(request, { numRuns: 3000, seed: 20261122 });
    const batch = 32;
    for (let i = 0; i < samples.length; i += batch) {
      const group = samples.slice(i, i + batch);
      const responses = await Promise.all(group.map((req) => rawRequest(port, req)));
      group.forEach((req, j) => {
        try {
          checkShape(req, responses[j]!);
        } catch (e) {
          throw new Error(`${JSON.stringify(req)} → ${JSON.stringify(responses[j])}: ${String(e)}`);
        }
      });
    }
    const after = await rawRequest(port, { target: "/chain/upgrade/v1beta1/authority" });
    expect(after.status).toBe(200);
    expect(after.body).toBe('{"address":"chain10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax"}');
  });
});
