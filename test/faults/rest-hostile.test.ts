/**
 * Hostile peers on the REST listener: a body over the limit does not leave a keep-alive connection hanging, the
 * connections over `max-open-connections` keep the fds bounded, the response cache stays bounded in bytes under a
 * flood of huge distinct headers, and CONNECT / other HTTP versions get Go's answers.
 */
import { readdirSync } from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Gateway, type GatewayRequest, RESPONSE_CACHE_BYTES_MAX } from "../../src/api/gateway/gateway.js";
import { listenRest, type RestListener } from "../../src/server/rest.js";
import { standardBackend } from "../kit/api.js";

const fds = (): number => readdirSync("/proc/self/fd").length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function gateway(): Gateway {
  const g = Gateway.create(standardBackend(), { swagger: false, cors: false });
  if (!g.ok) throw new Error(g.error);
  return g.value;
}

/** The gateway plus a POST route that reads its body, as the devnet's tx endpoint does (413 over the limit). */
function withBodyRoute(g: Gateway): Gateway {
  return {
    handleWithoutBody: (req: Pick<GatewayRequest, "method" | "target">) =>
      req.method === "POST" && req.target === "/txs" ? undefined : g.handleWithoutBody(req as GatewayRequest),
    handle: async (req: GatewayRequest) => {
      if (req.method !== "POST" || req.target !== "/txs") return g.handle(req);
      const body = await req.readBody();
      return body.ok
        ? {
            status: 200,
            headers: [["Content-Type", "application/json"]],
            body: `{"n":${body.value.length}}`,
            close: false,
          }
        : { status: 413, headers: [["Content-Type", "application/json"]], body: `{"code":3}`, close: false };
    },
  } as unknown as Gateway;
}

async function listen(g: Gateway, limits: Partial<Parameters<typeof listenRest>[3]> = {}): Promise<RestListener> {
  const r = await listenRest(g, "127.0.0.1", 0, {
    maxOpenConnections: 0,
    readTimeoutMs: 10_000,
    writeTimeoutMs: 10_000,
    maxBodyBytes: 1000,
    ...limits,
  });
  if (!r.ok) throw r.error;
  return r.value;
}

/** Raw bytes in, everything the server sends until it closes (or `ms` passes). */
function exchange(port: number, text: string, ms = 3000): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1", () => s.write(text, "latin1"));
    let out = "";
    s.on("data", (d) => {
      out += d.toString("latin1");
    });
    s.on("error", () => {});
    s.on("close", () => resolve(out));
    setTimeout(() => {
      s.destroy();
      resolve(`${out}[still open]`);
    }, ms);
  });
}

describe("a body over the limit", () => {
  let rest: RestListener;
  beforeAll(async () => {
    rest = await listen(withBodyRoute(gateway()));
  });
  afterAll(() => rest.close());

  it("gets 413 with Connection: close, and Node fetch's next requests on its pool succeed", async () => {
    const url = `http://127.0.0.1:${rest.port}/txs`;
    for (let i = 0; i < 3; i++) {
      const big = await fetch(url, { method: "POST", body: "x".repeat(1 << 20) });
      expect(big.status).toBe(413);
      expect(big.headers.get("connection")).toBe("close");
      expect(await big.text()).toBe(`{"code":3}`);
      const small = await fetch(url, { method: "POST", body: "abc" });
      expect(await small.text()).toBe(`{"n":3}`);
    }
  });

  it("on a raw keep-alive connection: the server answers, then closes instead of hanging", async () => {
    const out = await exchange(
      rest.port,
      `POST /txs HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n${"y".repeat(2000)}`,
    );
    expect(out).toMatch(/^HTTP\/1\.1 413 /);
    expect(out).toMatch(/\r\nConnection: close\r\n/i);
    expect(out).not.toContain("[still open]");
  });
});

describe("protocol deviations get Go's answers", () => {
  let rest: RestListener;
  beforeAll(async () => {
    rest = await listen(gateway());
  });
  afterAll(() => rest.close());

  const GO_505 =
    "HTTP/1.1 505 HTTP Version Not Supported: unsupported protocol version\r\nContent-Type: text/plain; charset=utf-8\r\n" +
    "Connection: close\r\n\r\n505 HTTP Version Not Supported: unsupported protocol version";

  it("HTTP/2.0 and HTTP/0.9 request lines: 505, byte for byte, then close", async () => {
    for (const v of ["HTTP/2.0", "HTTP/0.9"]) {
      expect(await exchange(rest.port, `GET /chain/upgrade/v1beta1/current_plan ${v}\r\nHost: x\r\n\r\n`)).toBe(GO_505);
    }
  });

  it("CONNECT to a served path: 501 Not Implemented (grpc-gateway's method mismatch), then close", async () => {
    const out = await exchange(rest.port, "CONNECT /chain/upgrade/v1beta1/current_plan HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(out).toMatch(/^HTTP\/1\.1 501 Not Implemented\r\n/);
    expect(out).toContain(`{"code":12,"message":"Not Implemented","details":[]}`);
    expect(out).not.toContain("[still open]");
  });
});

describe("connections over max-open-connections", () => {
  it("200 idle connections against a cap of 4: fds stay bounded; a waiting one is served when a slot frees", async () => {
    const rest = await listen(gateway(), { maxOpenConnections: 4 });
    const clients: net.Socket[] = [];
    try {
      const base = fds();
      for (let i = 0; i < 200; i++) {
        const s = net.connect(rest.port, "127.0.0.1");
        s.on("error", () => {});
        s.on("end", () => s.destroy());
        clients.push(s);
      }
      await Promise.all(clients.map((s) => new Promise((r) => (s.connecting ? s.once("connect", r) : r(null)))));
      for (const s of clients) s.resume();
      const open = () => clients.filter((s) => !s.destroyed && !s.readableEnded).length;
      for (let i = 0; i < 60 && open() > 4 + 16; i++) await sleep(50);
      // 200 client fds in this process; the server side holds at most 4 served + 16 waiting.
      expect(fds() - base).toBeLessThanOrEqual(200 + 4 + 16);
      const closed = clients.filter((s) => s.destroyed || s.readableEnded).length;
      expect(closed).toBeGreaterThanOrEqual(200 - 4 - 16);
      // Free a served slot: a waiting connection is served.
      const waiting = clients.filter((s) => !s.destroyed && !s.readableEnded);
      waiting.slice(0, 4).forEach((s) => {
        s.destroy();
      });
      const next = waiting[4]!;
      next.resume();
      const answer = new Promise<string>((r) => next.once("data", (d) => r(d.toString())));
      next.write("GET /chain/upgrade/v1beta1/authority HTTP/1.1\r\nHost: x\r\n\r\n");
      expect(await answer).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      for (const s of clients) s.destroy();
      await rest.close();
    }
  });
});

describe("the response cache", () => {
  it("a flood of distinct 200 KB headers leaves it within its byte bound; irrelevant headers share an entry", () => {
    const g = gateway();
    const get = (headers: string[]) =>
      g.handleWithoutBody({
        method: "GET",
        target: "/chain/upgrade/v1beta1/current_plan",
        rawHeaders: ["Host", "x", ...headers],
      })!;
    get(["X-Trace", "1"]);
    // Stored at its second miss (response-cache.ts, admission), then answered from the cache: a padding or tracing
    // header is not part of the key.
    const stored = get(["X-Trace", "2"]);
    expect(get(["X-Trace", "3"])).toBe(stored);
    // Each request twice in a row, so that the doorkeeper admits it.
    for (let i = 0; i < 300; i++) {
      // User-Agent is forwarded as metadata, so it is part of the key: every pair is distinct.
      const ua = `${i}-${"a".repeat(200_000)}`;
      get(["User-Agent", ua]);
      expect(get(["User-Agent", ua]).status).toBe(200);
      expect(g.cacheBytes).toBeLessThanOrEqual(RESPONSE_CACHE_BYTES_MAX);
    }
    expect(g.cacheBytes).toBeGreaterThan(RESPONSE_CACHE_BYTES_MAX / 2);
    for (let i = 0; i < 2000; i++) {
      get(["User-Agent", `ua-${i}-${"b".repeat(10_000)}`]);
      get(["User-Agent", `ua-${i}-${"b".repeat(10_000)}`]);
    }
    expect(g.cacheBytes).toBeLessThanOrEqual(RESPONSE_CACHE_BYTES_MAX);
    expect(g.cacheBytes).toBeGreaterThan(0);
  });
});
