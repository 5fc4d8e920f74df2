import { spawn } from "node:child_process";
import autocannon from "autocannon";
import { CACHED_REQUESTS, CPU_PATH, UNCACHED_HEIGHTS } from "./api-requests.js";
import { type BenchResult, median, result } from "./bench.js";
import { bundleForBench } from "./bundle.js";

/**
 * REST throughput and tail latency of a served simulated node: `current_plan` and `module_versions`, each with a
 * height header (historical state), on the real gateway vs a bare node:http server returning the same bytes. Both
 * servers run in one child process (so the load generator does not share their event loop), on loopback only; each
 * measurement is bounded (DURATION_S seconds, CONNECTIONS connections), bare and real measured in the same run.
 * Two kinds of load:
 * - cached: the same request over and over (the gateway's response cache answers all but the first two);
 * - uncached: `module_versions`, gov's proposal 1 and bank's balances of val1, each at up to 1,500 heights in turn
 *   (bench/api-requests.ts), which the 1,024-entry cache never answers, at UNCACHED_CONNECTIONS connections, in
 *   alternating rounds: req/s, the p99 latency and the server's CPU time per request (process.cpuUsage() of the
 *   server process around each round; only one server is loaded at a time), for both servers.
 * The child runs the servers as users run `chainsim serve`: bundled by esbuild as the CLI's build is
 * (scripts/build-cli.mjs; into node_modules/.cache, where the external packages resolve), not through tsx, whose
 * transform wraps every named function created at run time in a `__name` call the built CLI does not make (about 8%
 * of an uncached gov request's CPU in process).
 * Target: real ≥ 70% of bare requests/s, uncached too. The bare server is bound by the load generator (its CPU
 * per request is a fraction of what the generator spends), so the CPU per request says more on a loaded machine.
 */
export const name = "api";

const DURATION_S = 3;
const WARMUP_S = 1;
const CONNECTIONS = 10;
const UNCACHED_CONNECTIONS = 50;
/** Uncached routes: alternating rounds of ROUND_S seconds per server. */
const ROUNDS = 3;
const ROUND_S = 2;
/**
 * Uncached routes: each server's warm-up (the same for both). After 1 s the first round was still the slow one, for
 * the gateway's gov route above all (40–61 µs of CPU a request against 31–38 µs in the later rounds, before and after
 * docs/performance.md's session 13): the server is not yet in its steady state.
 */
const UNCACHED_WARMUP_S = 3;

interface UncachedRoute {
  readonly bench: string;
  readonly path: string;
  readonly first: number;
}
interface Servers {
  readonly real: number;
  readonly bare: number;
  readonly uncached: readonly UncachedRoute[];
  readonly stop: () => Promise<void>;
}

async function startServers(): Promise<Servers> {
  const child = spawn(process.execPath, [await bundleForBench("bench/api-server.ts", "api-server")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const ports = await new Promise<Omit<Servers, "stop">>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as Omit<Servers, "stop">);
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

/** CPU time (µs) the server process has used so far. */
async function cpuUs(bare: number): Promise<number> {
  const u = (await (await fetch(`http://127.0.0.1:${bare}${CPU_PATH}`)).json()) as { user: number; system: number };
  return u.user + u.system;
}

/** `route` at heights first..UNCACHED_HEIGHTS in turn (one counter shared by all connections). */
async function loadUncached(ports: Servers, port: number, route: UncachedRoute, durationS: number) {
  let next = route.first - 1;
  const cpu0 = await cpuUs(ports.bare);
  const r = await autocannon({
    url: `http://127.0.0.1:${port}${route.path}`,
    connections: UNCACHED_CONNECTIONS,
    duration: durationS,
    requests: [
      {
        setupRequest: (req) => {
          next = next >= UNCACHED_HEIGHTS ? route.first : next + 1;
          return { ...req, path: route.path, headers: { ...req.headers, "x-chain-block-height": String(next) } };
        },
      },
    ],
  });
  const cpu = (await cpuUs(ports.bare)) - cpu0;
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${route.bench}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99Ms: r.latency.p99, cpuUsPerRequest: cpu / r.requests.total };
}

type Round = Awaited<ReturnType<typeof loadUncached>>;

/**
 * One uncached route: a warm-up of each server, then ROUNDS rounds of bare then real (alternating, so that a change
 * of the machine's load falls on both); per server the mean req/s, the median p99 and the median CPU per request.
 */
async function measureUncached(servers: Servers, route: UncachedRoute): Promise<BenchResult[]> {
  await loadUncached(servers, servers.bare, route, UNCACHED_WARMUP_S);
  await loadUncached(servers, servers.real, route, UNCACHED_WARMUP_S);
  const rounds: { bare: Round; real: Round }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const bare = await loadUncached(servers, servers.bare, route, ROUND_S);
    rounds.push({ bare, real: await loadUncached(servers, servers.real, route, ROUND_S) });
  }
  const summary = (side: "bare" | "real") => ({
    rps: rounds.reduce((s, r) => s + r[side].rps, 0) / rounds.length,
    p99Ms: median(rounds.map((r) => r[side].p99Ms)),
    cpuUs: median(rounds.map((r) => r[side].cpuUsPerRequest)),
  });
  const [bare, real] = [summary("bare"), summary("real")];
  // Each round too (real / bare req/s and CPU per request): the first round after the warm-up can be the slow one.
  const each = rounds.map(
    (r) =>
      `${r.real.rps.toFixed(0)}/${r.bare.rps.toFixed(0)} req/s ${r.real.cpuUsPerRequest.toFixed(0)}/${r.bare.cpuUsPerRequest.toFixed(0)} µs`,
  );
  process.stderr.write(`api ${route.bench} rounds, real/bare: ${each.join("; ")}\n`);
  process.stderr.write(
    `api ${route.bench} (${UNCACHED_CONNECTIONS} connections): real ${real.rps.toFixed(0)} req/s p99 ${real.p99Ms} ms ${real.cpuUs.toFixed(0)} µs CPU/req; bare ${bare.rps.toFixed(0)} req/s p99 ${bare.p99Ms} ms ${bare.cpuUs.toFixed(0)} µs CPU/req (${((100 * real.rps) / bare.rps).toFixed(1)}% of bare)\n`,
  );
  return [
    result(`api.${route.bench}.throughput`, real.rps, "req/s", bare.rps),
    result(`api.${route.bench}.p99_latency`, real.p99Ms, "ms", bare.p99Ms),
    result(`api.${route.bench}.cpu_per_request`, real.cpuUs, "us", bare.cpuUs),
  ];
}

export async function run(): Promise<BenchResult[]> {
  const servers = await startServers();
  const out: BenchResult[] = [];
  try {
    for (const route of servers.uncached) out.push(...(await measureUncached(servers, route)));
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
