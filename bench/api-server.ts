// Child process of bench/api.bench.ts: the REST server of a simulated node (the library scenario
// query-upgrade-history run to height UNCACHED_HEIGHTS) and a bare node:http server answering the same requests with
// the same bytes: the cached requests (bench/api-requests.ts), and each uncached route at every height
// first..UNCACHED_HEIGHTS (more distinct requests than the gateway's response cache holds).
// GET CPU_PATH on the bare server answers the process's CPU time (process.cpuUsage()).
// Prints {"real": port, "bare": port, "uncached": [{bench, path, first}]} (paths with their address filled in) on
// stdout once both listen on loopback; exits on SIGTERM.
import http from "node:http";
import type net from "node:net";
import { NODE_JSON } from "../src/api/node-backend.js";
import { addressOfName } from "../src/core/address.js";
import { startApiServers } from "../src/server/server.js";
import { loopbackConfig } from "../test/kit/api.js";
import { simulatedNode } from "../test/kit/node-fixture.js";
import { CACHED_REQUESTS, CPU_PATH, UNCACHED_HEIGHTS, UNCACHED_ROUTES } from "./api-requests.js";

const node = simulatedNode({ untilHeight: UNCACHED_HEIGHTS });
const real = await startApiServers(loopbackConfig("max-open-connections = 0", "enable = false"), node.backend, {
  json: NODE_JSON,
});
if (!real.ok) throw new Error(real.error.message);
const restUrl = real.value.restUrl!;

const canned = new Map<string, { status: number; headers: [string, string][]; body: Buffer }>();
const val1 = addressOfName("val1", node.sim.cfg.bech32Prefix);
const routes = UNCACHED_ROUTES.map((r) => ({ ...r, path: r.path.replace("{val1}", val1) }));
const uncached = routes.flatMap((r) =>
  Array.from({ length: UNCACHED_HEIGHTS - r.first + 1 }, (_, i) => ({ path: r.path, height: String(r.first + i) })),
);
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
  // The process's CPU time so far (both servers share this process; the bench loads one at a time).
  if (req.url === CPU_PATH) {
    res.end(JSON.stringify(process.cpuUsage()));
    return;
  }
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
  `${JSON.stringify({ real: Number(new URL(restUrl).port), bare: (bare.address() as net.AddressInfo).port, uncached: routes })}\n`,
);
process.on("SIGTERM", () => {
  bare.close();
  void real.value.close().then(() => process.exit(0));
});
