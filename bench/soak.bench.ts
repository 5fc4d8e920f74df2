// `npm run bench -- soak` (not part of the default run, not in CI): the hostile-input faults at full size, as JSON
// lines. Each `baseline` is measured in the same run: the fd count or RSS before the flood, or the linear
// extrapolation of a smaller run for the validation time.
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import { Gateway } from "../src/api/gateway/gateway.js";
import { parseScenario } from "../src/scenario/load.js";
import { listenRest, type RestListener } from "../src/server/rest.js";
import { startApiServers } from "../src/server/server.js";
import { loopbackConfig, standardBackend } from "../test/kit/api.js";
import { type BenchResult, result } from "./bench.js";

export const name = "soak";

const fds = (): number => readdirSync("/proc/self/fd").length;
const rssMb = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function frame(type: number, stream: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(9);
  h.writeUIntBE(payload.length, 0, 3);
  h[3] = type;
  h.writeUInt32BE(stream, 5);
  return Buffer.concat([h, payload]);
}
const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
const SETTINGS = frame(4, 0, Buffer.alloc(0));
const BAD_H2 = [
  Buffer.concat([PREFACE, SETTINGS, frame(0, 1, Buffer.from("x"))]),
  Buffer.concat([PREFACE, SETTINGS, frame(0, 1, Buffer.alloc(20_000))]),
  Buffer.concat([PREFACE, SETTINGS, frame(6, 0, Buffer.alloc(9))]),
  Buffer.concat([PREFACE, frame(4, 0, Buffer.alloc(5))]),
];

/** 300 h2c connections ending in protocol errors, the peers half-open then gone: server fds after vs before. */
async function h2Leak(): Promise<BenchResult> {
  const r = await startApiServers(loopbackConfig(), standardBackend());
  if (!r.ok) throw new Error(r.error.message);
  const port = Number(r.value.grpcAddress!.split(":")[1]);
  const base = fds();
  const peers: net.Socket[] = [];
  for (let i = 0; i < 300; i++) {
    const s = net.connect(port, "127.0.0.1", () => s.write(BAD_H2[i % BAD_H2.length]!));
    s.on("error", () => {});
    s.resume();
    peers.push(s);
  }
  await sleep(3000);
  for (const p of peers) p.destroy();
  await sleep(1000);
  const after = fds();
  await r.value.close();
  return result("soak.h2-protocol-errors.fds-after-300", after, "fds", base);
}

/** A REST listener over the standard backend with max-open-connections = 1000 (app.toml's default). */
async function restListener(timeoutMs: number): Promise<{ value: RestListener }> {
  const g = Gateway.create(standardBackend(), { swagger: false, cors: false });
  if (!g.ok) throw new Error(g.error);
  const rest = await listenRest(g.value, "127.0.0.1", 0, {
    maxOpenConnections: 1000,
    readTimeoutMs: timeoutMs,
    writeTimeoutMs: timeoutMs,
    maxBodyBytes: 1 << 20,
  });
  if (!rest.ok) throw rest.error;
  return rest;
}

/** 1,100 distinct GETs with 900 KB forwarded headers: RSS after (forced GC when exposed) vs before. */
async function headerFlood(): Promise<BenchResult> {
  const rest = await restListener(10_000);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = rssMb();
  const pad = "a".repeat(900_000);
  for (let i = 0; i < 1100; i++) {
    const res = await fetch(`http://127.0.0.1:${rest.value.port}/chain/upgrade/v1beta1/current_plan`, {
      headers: { "User-Agent": `${i}-${pad}` },
    });
    await res.text();
  }
  gc?.();
  await sleep(500);
  const after = rssMb();
  await rest.value.close();
  return result("soak.header-flood.rss-after-1100x900KB", after, "MB", before);
}

/** 3,000 idle connections against max-open-connections = 1000: fds the server holds for them. */
async function idleConnections(): Promise<BenchResult> {
  const rest = await restListener(0);
  const base = fds();
  const clients: net.Socket[] = [];
  for (let i = 0; i < 3000; i++) {
    const s = net.connect(rest.value.port, "127.0.0.1");
    s.on("error", () => {});
    s.on("end", () => s.destroy());
    s.resume();
    clients.push(s);
    if (i % 200 === 199) await sleep(50);
  }
  await sleep(2000);
  const clientFds = clients.filter((s) => !s.destroyed).length;
  const serverFds = fds() - base - clientFds;
  for (const s of clients) s.destroy();
  await rest.value.close();
  return result("soak.idle-3000-cap-1000.server-fds", serverFds, "fds", 3000);
}

/** Validation time of one map with 8,000 unknown keys, against 8 × the time for 1,000 (linear). */
function validation(): BenchResult {
  const time = (n: number) => {
    const doc: Record<string, number> = {};
    for (let i = 0; i < n; i++) doc[`k${i}`] = 1;
    const text = JSON.stringify(doc);
    parseScenario("warm.json", text);
    const t0 = performance.now();
    parseScenario("keys.json", text);
    return performance.now() - t0;
  };
  const small = time(1000);
  return result("soak.validation-8000-unknown-keys", time(8000), "ms", small * 8);
}

export async function run(): Promise<BenchResult[]> {
  return [await h2Leak(), await headerFlood(), await idleConnections(), validation()];
}
