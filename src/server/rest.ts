import http from "node:http";
import net from "node:net";
import type { Gateway, GatewayRequest, GatewayResponse } from "../api/gateway/gateway.js";
import { ok, type Result } from "../core/errors.js";
import type { ByteString } from "../core/go/url.js";

/**
 * The REST listener (docs/node-api.md §1.1, §2.1): HTTP/1.1 in front of the gateway, with the reference server's limits.
 * - `maxOpenConnections` (0 = unlimited): like Go's `netutil.LimitListener`, a connection beyond the cap is accepted
 *   by the kernel but not served until another one closes.
 * - `readTimeoutMs` (0 = none): time to read one whole request, also the idle time between keep-alive requests (Go's
 *   ReadTimeout with IdleTimeout unset); on expiry the connection is closed.
 * - `writeTimeoutMs` (0 = none): time from the end of the request headers to the end of the response.
 * - `maxBodyBytes`: cap on request bodies that are read (only the POST form fallback reads one).
 */
export interface RestLimits {
  readonly maxOpenConnections: number;
  readonly readTimeoutMs: number;
  readonly writeTimeoutMs: number;
  readonly maxBodyBytes: number;
}

export interface RestListener {
  readonly port: number;
  close(): Promise<void>;
}

/** Reads the request body up to `max` bytes (as a latin1 byte string). Memoized: bodies are read once. */
function bodyReader(req: http.IncomingMessage, max: number): () => Promise<Result<ByteString, "too-large">> {
  let p: Promise<Result<ByteString, "too-large">> | undefined;
  return () => {
    p ??= new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (r: Result<ByteString, "too-large">) => {
        if (done) return;
        done = true;
        resolve(r);
      };
      req.on("data", (c: Buffer) => {
        size += c.length;
        if (size > max) {
          req.pause();
          finish({ ok: false, error: "too-large" });
          return;
        }
        chunks.push(c);
      });
      req.on("end", () => finish(ok(Buffer.concat(chunks).toString("latin1"))));
      req.on("error", () => finish({ ok: false, error: "too-large" }));
      req.on("close", () => finish(ok(Buffer.concat(chunks).toString("latin1"))));
    });
    return p;
  };
}

function writeResponse(res: http.ServerResponse, r: GatewayResponse): void {
  if (res.headersSent || res.destroyed) return;
  try {
    res.statusCode = r.status;
    for (const [k, v] of r.headers) res.appendHeader(k, v);
    if (r.close) res.shouldKeepAlive = false;
    res.end(r.body);
  } catch {
    res.destroy();
  }
}

const INTERNAL: GatewayResponse = {
  status: 500,
  headers: [["Content-Type", "application/json"]],
  body: `{"code":13,"message":"internal error","details":[]}`,
  close: false,
};

/** Starts the REST listener on host:port (port 0 picks a free port). */
export function listenRest(
  gateway: Pick<Gateway, "handle" | "handleWithoutBody">,
  host: string,
  port: number,
  limits: RestLimits,
): Promise<Result<RestListener, Error>> {
  const sockets = new Set<net.Socket>();
  const queue: net.Socket[] = [];
  // One read-deadline timer per connection, re-armed with refresh(): allocating a timer per request costs
  // throughput. A disarmed deadline may still fire; it then does nothing. `gen` counts the armings.
  const readTimers = new Map<net.Socket, { timer: NodeJS.Timeout; armed: boolean; gen: number }>();

  const armRead = (socket: net.Socket) => {
    if (limits.readTimeoutMs <= 0) return;
    const d = readTimers.get(socket);
    if (d === undefined) {
      const fresh = {
        timer: setTimeout(() => {
          if (fresh.armed) socket.destroy();
        }, limits.readTimeoutMs),
        armed: true,
        gen: 0,
      };
      readTimers.set(socket, fresh);
      return;
    }
    d.armed = true;
    d.gen++;
    d.timer.refresh();
  };
  const clearRead = (socket: net.Socket) => {
    const d = readTimers.get(socket);
    if (d !== undefined) d.armed = false;
  };
  const dropRead = (socket: net.Socket) => {
    clearTimeout(readTimers.get(socket)?.timer);
    readTimers.delete(socket);
  };

  const server = http.createServer({ maxHeaderSize: 1 << 20, keepAliveTimeout: 0, requestTimeout: 0 }, (req, res) => {
    const socket = req.socket;
    // The read deadline covers this request until its body is read; a bodiless request is complete already.
    const requestGen = readTimers.get(socket)?.gen;
    if (req.complete) clearRead(socket);
    else
      req.once("end", () => {
        if (readTimers.get(socket)?.gen === requestGen) clearRead(socket);
      });
    let writeTimer: NodeJS.Timeout | undefined;
    if (limits.writeTimeoutMs > 0) {
      writeTimer = setTimeout(() => {
        if (!res.writableFinished) socket.destroy();
      }, limits.writeTimeoutMs);
    }
    res.once("finish", () => {
      clearTimeout(writeTimer);
      if (!socket.destroyed) armRead(socket);
    });
    res.once("close", () => clearTimeout(writeTimer));
    const gwReq: GatewayRequest = {
      method: req.method ?? "GET",
      target: req.url ?? "/",
      rawHeaders: req.rawHeaders,
      readBody: bodyReader(req, limits.maxBodyBytes),
    };
    const direct = gateway.handleWithoutBody(gwReq);
    if (direct !== undefined) {
      writeResponse(res, direct);
      return;
    }
    gateway.handle(gwReq).then(
      (r) => writeResponse(res, r),
      () => writeResponse(res, INTERNAL),
    );
  });

  const admit = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => {
      sockets.delete(socket);
      dropRead(socket);
      admitNext();
    });
    armRead(socket);
    server.emit("connection", socket);
    socket.resume();
  };
  const admitNext = () => {
    while (queue.length > 0 && (limits.maxOpenConnections === 0 || sockets.size < limits.maxOpenConnections)) {
      const next = queue.shift()!;
      if (!next.destroyed) admit(next);
    }
  };

  const front = net.createServer({ pauseOnConnect: true }, (socket) => {
    socket.on("error", () => socket.destroy());
    if (limits.maxOpenConnections === 0 || sockets.size < limits.maxOpenConnections) admit(socket);
    else {
      queue.push(socket);
      socket.once("close", () => {
        const i = queue.indexOf(socket);
        if (i >= 0) queue.splice(i, 1);
      });
    }
  });

  return new Promise((resolve) => {
    front.once("error", (e) => resolve({ ok: false, error: e }));
    front.listen(port, host === "" ? undefined : host, () => {
      front.removeAllListeners("error");
      front.on("error", () => {});
      const addr = front.address() as net.AddressInfo;
      resolve(
        ok({
          port: addr.port,
          close: () =>
            new Promise<void>((done) => {
              front.close(() => done());
              for (const s of queue.splice(0)) s.destroy();
              for (const s of sockets) s.destroy();
              for (const d of readTimers.values()) clearTimeout(d.timer);
              readTimers.clear();
            }),
        }),
      );
    });
  });
}
