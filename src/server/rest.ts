import http from "node:http";
import net from "node:net";
import type { Gateway, GatewayRequest, GatewayResponse } from "../api/gateway/gateway.js";
import { ok, type Result } from "../core/errors.js";
import type { ByteString } from "../core/go/url.js";
import { ConnectionGate, gateDefaults } from "./bounded-listen.js";

/**
 * The REST listener (docs/node-api.md §1.1, §2.1): HTTP/1.1 in front of the gateway, with the reference server's limits.
 * - `maxOpenConnections` (0 = unlimited): like Go's `netutil.LimitListener`, a connection beyond the cap waits until
 *   another one closes, in a bounded queue with a deadline (bounded-listen.ts `ConnectionGate`); beyond the queue it
 *   is closed at once, so the fds stay bounded.
 * - `readTimeoutMs` (0 = none): time to read one whole request, also the idle time between keep-alive requests (Go's
 *   ReadTimeout with IdleTimeout unset); on expiry the connection is closed.
 * - `writeTimeoutMs` (0 = none): time from the end of the request headers to the end of the response.
 * - `maxBodyBytes`: cap on request bodies that are read (only the POST form fallback reads one); a request whose
 *   body went over it closes its connection after the response (`Connection: close`, bounded drain).
 * - Request lines of another HTTP version (`HTTP/2.0`, `HTTP/0.9`) get Go's 505; CONNECT is routed like Go does.
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
function bodyReader(
  req: http.IncomingMessage,
  max: number,
  onTooLarge: () => void,
): () => Promise<Result<ByteString, "too-large">> {
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
          onTooLarge();
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

/**
 * After a request whose body was left unread (over `maxBodyBytes`), the connection cannot carry another request:
 * like Go's server (`requestTooLarge`, then `closeWriteAndWait`), the response says `Connection: close`, the
 * server sends FIN after it, discards what the client still sends for at most `UNREAD_DRAIN_MS` /
 * `UNREAD_DRAIN_BYTES` (closing a socket with unread data would reset it and could destroy the response before
 * the client reads it), then closes.
 */
const UNREAD_DRAIN_MS = 500;
const UNREAD_DRAIN_BYTES = 1 << 20;

function closeAfterUnreadBody(res: http.ServerResponse): void {
  res.once("finish", () => {
    const socket = res.socket;
    if (socket === null || socket.destroyed) return;
    let drained = 0;
    socket.removeAllListeners("data");
    socket.on("data", (c: Buffer) => {
      drained += c.length;
      if (drained > UNREAD_DRAIN_BYTES) socket.destroy();
    });
    socket.resume();
    socket.end();
    setTimeout(() => socket.destroy(), UNREAD_DRAIN_MS).unref();
  });
}

function writeResponse(res: http.ServerResponse, r: GatewayResponse, bodyUnread = false): void {
  if (res.headersSent || res.destroyed) return;
  try {
    res.statusCode = r.status;
    // appendHeader validates a header and then, for a name not set yet, calls setHeader, which validates it again:
    // setHeader directly for a first occurrence (the same header list on the wire).
    for (const [k, v] of r.headers) {
      if (res.hasHeader(k)) res.appendHeader(k, v);
      else res.setHeader(k, v);
    }
    if (r.close || bodyUnread) res.shouldKeepAlive = false;
    if (bodyUnread) {
      if (!res.hasHeader("Connection")) res.setHeader("Connection", "close");
      closeAfterUnreadBody(res);
    }
    res.end(r.body);
  } catch {
    res.destroy();
  }
}

/**
 * Go's `statusError` answer for an unsupported protocol version, byte for byte (net/http `conn.serve`: the reason
 * phrase carries the text, no Content-Length, then the connection closes).
 */
const VERSION_NOT_SUPPORTED =
  "HTTP/1.1 505 HTTP Version Not Supported: unsupported protocol version\r\nContent-Type: text/plain; charset=utf-8\r\n" +
  "Connection: close\r\n\r\n505 HTTP Version Not Supported: unsupported protocol version";

/** Writes a whole HTTP/1.1 response on the raw socket and closes the connection after it. */
function writeRaw(socket: net.Socket, r: GatewayResponse | string): void {
  if (socket.destroyed) return;
  if (typeof r === "string") socket.end(r, "latin1");
  else {
    const reason = http.STATUS_CODES[r.status] ?? "";
    const head = [`HTTP/1.1 ${r.status} ${reason}`, ...r.headers.map(([k, v]) => `${k}: ${v}`)];
    head.push(`Content-Length: ${Buffer.byteLength(r.body)}`, "Connection: close");
    socket.end(`${head.join("\r\n")}\r\n\r\n${r.body}`);
  }
  setTimeout(() => socket.destroy(), UNREAD_DRAIN_MS).unref();
}

const INTERNAL: GatewayResponse = {
  status: 500,
  headers: [["Content-Type", "application/json"]],
  body: `{"code":13,"message":"internal error","details":[]}`,
  close: false,
};

/**
 * Per-connection read deadlines (Go's ReadTimeout with IdleTimeout unset): one timer per connection, re-armed with
 * refresh(), because allocating a timer per request costs throughput. A disarmed deadline may still fire; it then
 * does nothing. `gen` counts the armings, so a request's end disarms only the deadline it ran under.
 */
class ReadDeadlines {
  readonly #timers = new Map<net.Socket, { timer: NodeJS.Timeout; armed: boolean; gen: number }>();

  constructor(private readonly timeoutMs: number) {}

  /** Starts (or restarts) the deadline of `socket`; on expiry the connection is closed. */
  arm(socket: net.Socket): void {
    if (this.timeoutMs <= 0) return;
    const d = this.#timers.get(socket);
    if (d === undefined) {
      const fresh = {
        timer: setTimeout(() => {
          if (fresh.armed) socket.destroy();
        }, this.timeoutMs),
        armed: true,
        gen: 0,
      };
      this.#timers.set(socket, fresh);
      return;
    }
    d.armed = true;
    d.gen++;
    d.timer.refresh();
  }

  /** The arming count of `socket`'s deadline (undefined without one). */
  gen(socket: net.Socket): number | undefined {
    return this.#timers.get(socket)?.gen;
  }

  disarm(socket: net.Socket): void {
    const d = this.#timers.get(socket);
    if (d !== undefined) d.armed = false;
  }

  /** Forgets a closed connection. */
  drop(socket: net.Socket): void {
    clearTimeout(this.#timers.get(socket)?.timer);
    this.#timers.delete(socket);
  }

  dropAll(): void {
    for (const d of this.#timers.values()) clearTimeout(d.timer);
    this.#timers.clear();
  }
}

type RestGateway = Pick<Gateway, "handle" | "handleWithoutBody">;

/**
 * One HTTP request: 1. its read deadline lasts until its body is read; 2. the write deadline runs from here to the
 * end of the response, after which the connection's read (idle) deadline is re-armed; 3. a request line of another
 * HTTP version gets 505; 4. the gateway answers, synchronously when it needs no body.
 */
function serveRequest(
  gateway: RestGateway,
  limits: RestLimits,
  deadlines: ReadDeadlines,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): void {
  const socket = req.socket;
  // 1. The read deadline covers this request until its body is read; a bodiless request is complete already.
  const requestGen = deadlines.gen(socket);
  if (req.complete) deadlines.disarm(socket);
  else
    req.on("end", () => {
      if (deadlines.gen(socket) === requestGen) deadlines.disarm(socket);
    });
  // 2. The write deadline.
  let writeTimer: NodeJS.Timeout | undefined;
  if (limits.writeTimeoutMs > 0) {
    writeTimer = setTimeout(() => {
      if (!res.writableFinished) socket.destroy();
    }, limits.writeTimeoutMs);
    res.once("close", () => clearTimeout(writeTimer));
  }
  // "finish" (like the request's "end") is emitted once: `on` spares the `once` wrapper.
  res.on("finish", () => {
    clearTimeout(writeTimer);
    if (!socket.destroyed) deadlines.arm(socket);
  });
  // 3. Go's server answers only HTTP/1.x (and the HTTP/2 preface, which this listener does not serve) with a
  // handler; any other version in the request line gets 505 before routing (http1ServerSupportsRequest).
  if (req.httpVersionMajor !== 1) {
    writeRaw(socket, VERSION_NOT_SUPPORTED);
    return;
  }
  // 4. The gateway: synchronously when the request needs no body (no body reader is built for it).
  const head = { method: req.method ?? "GET", target: req.url ?? "/", rawHeaders: req.rawHeaders };
  const direct = gateway.handleWithoutBody(head);
  if (direct !== undefined) {
    writeResponse(res, direct);
    return;
  }
  let bodyUnread = false;
  const gwReq: GatewayRequest = {
    ...head,
    readBody: bodyReader(req, limits.maxBodyBytes, () => {
      bodyUnread = true;
    }),
  };
  gateway.handle(gwReq).then(
    (r) => writeResponse(res, r, bodyUnread),
    () => writeResponse(res, INTERNAL, bodyUnread),
  );
}

/**
 * Node hands CONNECT to a separate event and closes the socket when nobody listens. Go routes it like any method
 * (grpc-gateway: a known path answers 501 "Method Not Allowed", an unknown one 404); the connection is then closed.
 */
function answerConnect(gateway: RestGateway, req: http.IncomingMessage, socket: net.Socket): void {
  socket.on("error", () => socket.destroy());
  const r =
    req.httpVersionMajor !== 1
      ? undefined
      : gateway.handleWithoutBody({ method: "CONNECT", target: req.url ?? "", rawHeaders: req.rawHeaders });
  writeRaw(socket, r === undefined ? (req.httpVersionMajor !== 1 ? VERSION_NOT_SUPPORTED : INTERNAL) : r);
}

/** Starts the REST listener on host:port (port 0 picks a free port). */
export function listenRest(
  gateway: RestGateway,
  host: string,
  port: number,
  limits: RestLimits,
): Promise<Result<RestListener, Error>> {
  const deadlines = new ReadDeadlines(limits.readTimeoutMs);
  const server = http.createServer({ maxHeaderSize: 1 << 20, keepAliveTimeout: 0, requestTimeout: 0 }, (req, res) =>
    serveRequest(gateway, limits, deadlines, req, res),
  );
  server.on("connect", (req: http.IncomingMessage, socket: net.Socket) => answerConnect(gateway, req, socket));

  const gate = new ConnectionGate(gateDefaults(limits.maxOpenConnections), (socket) => {
    socket.once("close", () => deadlines.drop(socket));
    deadlines.arm(socket);
    server.emit("connection", socket);
    socket.resume();
  });
  const front = net.createServer({ pauseOnConnect: true }, (socket) => gate.accept(socket));

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
              gate.destroyAll();
              deadlines.dropAll();
            }),
        }),
      );
    });
  });
}
