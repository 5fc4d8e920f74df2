// Child process of bench/api.bench.ts: the REST server of a simulated node (the library scenario
// query-upgrade-history run to height UNCACHED_HEIGHTS) and a bare node:http server answering the same requests with
// the same bytes: the cached requests (bench/api-requests.ts), and `module_versions` at every height 1..UNCACHED_HEIGHTS
// (more distinct requests than the gateway's response cache holds, for the uncached measurement).
// Prints {"real": port, "bare": port} on stdout once both listen on loopback; exits on SIGTERM.
import http from "node:http";
import type net from "node:net";
import { NODE_JSON } from "../src/api/node-backend.js";
import { startApiServers } from "../src/server/server.js";
import { loopbackConfig } from "../test/kit/api.js";
import { simulatedNode } from "../test/kit/node-fixture.js";
import { CACHED_REQUESTS, UNCACHED_HEIGHTS, UNCACHED_PATH } from "./api-requests.js";

const node = simulatedNode({ untilHeight: UNCACHED_HEIGHTS });
const real = await startApiServers(loopbackConfig("max-open-connections = 0", "enable = false"), node.backend, {
  json: NODE_JSON,
});
if (!real.ok) throw new Error(real.error.message);
const restUrl = real.value.restUrl!;

const canned = new Map<string, { status: number; headers: [string, string][]; body: Buffer }>();
const uncached = Array.from({ length: UNCACHED_HEIGHTS }, (_, i) => ({ path: UNCACHED_PATH, height: String(i + 1) }));
for (const r of [...CACHED_REQUESTS, ...uncached]) {
  const res = await fetch(restUrl + r.path, { headers: { "x-chain-block-height": r.height } });
  if (res.status !== 200) throw new Error(`${r.path}: HTTP ${res.status}`);
  const headers: [string, string][] = [];
  res.headers.forEach((v, k) => {
    if (!["date", "connection", "keep-alive", "content-length"].includes(k)) headers.push([k, v]);
  });
  canned.set(`${r.path}|${r.height}`, { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) });
}

const bare = http.createServer((req, res) => {
  const c = canned.get(`${req.url}|${req.headers["x-chain-block-height"]}`);
  if (c === undefined) {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.statusCode = c.status;
  for (const [k, v] of c.headers) res.setHeader(k, v);
  res.end(c.body);
});
await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));

process.stdout.write(
  `${JSON.stringify({ real: Number(new URL(restUrl).port), bare: (bare.address() as net.AddressInfo).port })}\n`,
);
process.on("SIGTERM", () => {
  bare.close();
  void real.value.close().then(() => process.exit(0));
});
