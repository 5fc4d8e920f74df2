import { spawn } from "node:child_process";
import autocannon from "autocannon";
import { CACHED_REQUESTS, UNCACHED_HEIGHTS, UNCACHED_PATH } from "./api-requests.js";
import { type BenchResult, result } from "./bench.js";

/**
 * REST throughput and tail latency of a served simulated node: `current_plan` and `module_versions`, each with a
 * height header (historical state), on the real gateway vs a bare node:http server returning the same bytes. Both
 * servers run in one child process (so the load generator does not share their event loop), on loopback only; each
 * measurement is bounded (DURATION_S seconds, CONNECTIONS connections), bare and real measured in the same run.
 * Two kinds of load:
 * - cached: the same request over and over (the gateway's response cache answers all but the first);
 * - uncached: `module_versions` at 1,500 heights in turn (bench/api-requests.ts), which the 1,024-entry cache never
 *   answers, at UNCACHED_CONNECTIONS connections, with the p99 latency.
 * Target: real ≥ 70% of bare requests/s, uncached too.
 */
export const name = "api";

const DURATION_S = 3;
const WARMUP_S = 1;
const CONNECTIONS = 10;
const UNCACHED_CONNECTIONS = 50;

async function startServers(): Promise<{ real: number; bare: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/api-server.ts"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const ports = await new Promise<{ real: number; bare: number }>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as { real: number; bare: number });
    });
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    ...ports,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function load(port: number, path: string, height: string, durationS: number) {
  const r = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections: CONNECTIONS,
    duration: durationS,
    headers: { "x-chain-block-height": height },
  });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99Ms: r.latency.p99 };
}

/** `module_versions` at heights 1..UNCACHED_HEIGHTS in turn (one counter shared by all connections). */
async function loadUncached(port: number, durationS: number) {
  let next = 0;
  const r = await autocannon({
    url: `http://127.0.0.1:${port}${UNCACHED_PATH}`,
    connections: UNCACHED_CONNECTIONS,
    duration: durationS,
    requests: [
      {
        setupRequest: (req) => {
          next = (next % UNCACHED_HEIGHTS) + 1;
          return { ...req, path: UNCACHED_PATH, headers: { ...req.headers, "x-chain-block-height": String(next) } };
        },
      },
    ],
  });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`uncached: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99Ms: r.latency.p99 };
}

export async function run(): Promise<BenchResult[]> {
  const servers = await startServers();
  const out: BenchResult[] = [];
  try {
    await loadUncached(servers.bare, WARMUP_S);
    await loadUncached(servers.real, WARMUP_S);
    const bareU = await loadUncached(servers.bare, DURATION_S);
    const realU = await loadUncached(servers.real, DURATION_S);
    process.stderr.write(
      `api uncached module_versions (${UNCACHED_CONNECTIONS} connections): real ${realU.rps.toFixed(0)} req/s p99 ${realU.p99Ms} ms; bare ${bareU.rps.toFixed(0)} req/s p99 ${bareU.p99Ms} ms (${((100 * realU.rps) / bareU.rps).toFixed(1)}% of bare)\n`,
    );
    out.push(result("api.uncached_module_versions.throughput", realU.rps, "req/s", bareU.rps));
    out.push(result("api.uncached_module_versions.p99_latency", realU.p99Ms, "ms", bareU.p99Ms));
    for (const q of CACHED_REQUESTS) {
      await load(servers.bare, q.path, q.height, WARMUP_S);
      await load(servers.real, q.path, q.height, WARMUP_S);
      const bare = await load(servers.bare, q.path, q.height, DURATION_S);
      const real = await load(servers.real, q.path, q.height, DURATION_S);
      process.stderr.write(
        `api ${q.bench}: real ${real.rps.toFixed(0)} req/s p99 ${real.p99Ms} ms; bare ${bare.rps.toFixed(0)} req/s p99 ${bare.p99Ms} ms (${((100 * real.rps) / bare.rps).toFixed(1)}% of bare)\n`,
      );
      out.push(result(`api.${q.bench}.throughput`, real.rps, "req/s", bare.rps));
      out.push(result(`api.${q.bench}.p99_latency`, real.p99Ms, "ms", bare.p99Ms));
    }
  } finally {
    await servers.stop();
  }
  return out;
}
