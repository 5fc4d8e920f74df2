import { spawn } from "node:child_process";
import autocannon from "autocannon";
import { type BenchResult, result } from "./bench.js";

/**
 * REST throughput and tail latency of a served simulated node: `current_plan` and `module_versions`, each with a
 * height header (historical state), on the real gateway vs a bare node:http server returning the same bytes. Both
 * servers run in one child process (so the load generator does not share their event loop), on loopback only; each
 * measurement is bounded (DURATION_S seconds, CONNECTIONS connections), bare and real measured in the same run.
 * Target: real ≥ 70% of bare requests/s.
 */
export const name = "api";

const DURATION_S = 3;
const WARMUP_S = 1;
const CONNECTIONS = 10;
const REQUESTS = [
  { bench: "current_plan", path: "/chain/upgrade/v1beta1/current_plan", height: "20" },
  { bench: "module_versions", path: "/chain/upgrade/v1beta1/module_versions", height: "29" },
] as const;

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

export async function run(): Promise<BenchResult[]> {
  const servers = await startServers();
  const out: BenchResult[] = [];
  try {
    for (const q of REQUESTS) {
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
