// Child process of bench/api.bench.ts: the REST server of a simulated node (the library scenario
// query-upgrade-history at height 45) and a bare node:http server answering the same requests with the same bytes.
// Prints {"real": port, "bare": port} on stdout once both listen on loopback; exits on SIGTERM.
import http from "node:http";
import type net from "node:net";
import { NODE_JSON } from "../src/api/node-backend.js";
import { startApiServers } from "../src/server/server.js";
import { loopbackConfig } from "../test/kit/api.js";
import { simulatedNode } from "../test/kit/node-fixture.js";

export const BENCH_REQUESTS: readonly { readonly path: string; readonly height: string }[] = [
  { path: "/chain/upgrade/v1beta1/current_plan", height: "20" },
  { path: "/chain/upgrade/v1beta1/module_versions", height: "29" },
];

const node = simulatedNode({ untilHeight: 45 });
const real = await startApiServers(loopbackConfig("max-open-connections = 0", "enable = false"), node.backend, {
  json: NODE_JSON,
});
if (!real.ok) throw new Error(real.error.message);
const restUrl = real.value.restUrl!;

const canned = new Map<string, { status: number; headers: [string, string][]; body: Buffer }>();
for (const r of BENCH_REQUESTS) {
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
