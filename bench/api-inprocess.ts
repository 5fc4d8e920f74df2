// The in-process driver of docs/performance.md ("The REST gateway"): the gateway's pipeline without sockets
// (`Gateway.handleWithoutBody`) over the bench's uncached requests (bench/api-requests.ts: each route at every height
// of the fixture in turn, more distinct requests than the response cache holds), CPU time per request from
// process.cpuUsage() around rounds of 4 passes, after 3 warm-up passes.
// Run: node --import tsx bench/api-inprocess.ts [route substring, or =name for that route alone] [rounds]; prints the
// min and median per route.
import { Gateway } from "../src/api/gateway/gateway.js";
import { NODE_JSON } from "../src/api/node-backend.js";
import { addressOfName } from "../src/core/address.js";
import { simulatedNode } from "../test/kit/node-fixture.js";
import { UNCACHED_HEIGHTS, UNCACHED_ROUTES } from "./api-requests.js";

const WARMUP_PASSES = 3;
const PASSES_PER_ROUND = 4;

const node = simulatedNode({ untilHeight: UNCACHED_HEIGHTS });
const created = Gateway.create(node.backend, { cors: false, swagger: false, json: NODE_JSON });
if (!created.ok) throw new Error(created.error);
const gateway = created.value;
const val1 = addressOfName("val1", node.sim.cfg.bech32Prefix);
const only = process.argv[2] ?? "";
const rounds = Number(process.argv[3] ?? 7);

for (const r of UNCACHED_ROUTES) {
  if (only.startsWith("=") ? r.bench !== only.slice(1) : !r.bench.includes(only)) continue;
  const target = r.path.replace("{val1}", val1);
  const requests = Array.from({ length: UNCACHED_HEIGHTS - r.first + 1 }, (_, i) => ({
    method: "GET",
    target,
    rawHeaders: ["Host", "127.0.0.1", "x-chain-block-height", String(r.first + i)],
  }));
  const pass = () => {
    for (const q of requests) {
      const res = gateway.handleWithoutBody(q);
      if (res?.status !== 200) throw new Error(`${target}: HTTP ${res?.status}`);
    }
  };
  for (let i = 0; i < WARMUP_PASSES; i++) pass();
  const perRequestUs: number[] = [];
  for (let k = 0; k < rounds; k++) {
    const before = process.cpuUsage();
    for (let i = 0; i < PASSES_PER_ROUND; i++) pass();
    const used = process.cpuUsage(before);
    perRequestUs.push((used.user + used.system) / (PASSES_PER_ROUND * requests.length));
  }
  if (perRequestUs.length === 0) {
    process.stdout.write(`${r.bench}: warm-up only (0 rounds)\n`);
    continue;
  }
  perRequestUs.sort((a, b) => a - b);
  const min = perRequestUs[0]!.toFixed(1);
  const median = perRequestUs[perRequestUs.length >> 1]!.toFixed(1);
  process.stdout.write(`${r.bench}: CPU per request min ${min} µs, median ${median} µs (${rounds} rounds)\n`);
}
