import type net from "node:net";
import { Duplex } from "node:stream";

/**
 * Limits shared by the network listeners (REST gateway, gRPC, and any other server of the node): bounded file
 * descriptors whatever the peers do.
 *
 * - `connectionGate`: Go's `netutil.LimitListener` semantics for `max-open-connections`. Node cannot stop
 *   accepting while keeping its listen socket, so the excess waits in a bounded, deadlined queue of accepted but
 *   unserved sockets (`queueMax`, `queueWaitMs`); beyond that queue a connection is closed at once. Open fds stay
 *   at most `max + queueMax` per listener.
 * - `guardH2Socket`: an HTTP/2 connection whose session ended in a protocol error must release its socket. Node's
 *   http2 (v20) sends nghttp2's GOAWAY for a bad frame (DATA on an idle stream, a frame over the size limit, an
 *   oversize PING or SETTINGS) but neither emits an event nor closes the socket, which then sits in CLOSE-WAIT for
 *   ever. The guard sits between the socket and the session, watches the frames the server writes, and after a
 *   GOAWAY with a non-zero error code ends the socket (and destroys it `GOAWAY_GRACE_MS` later if the peer does
 *   not close). It also passes the peer's close on to the session, which a natively consumed socket never saw.
 */

/** Time a peer gets to read an error GOAWAY before its connection is destroyed. */
export const GOAWAY_GRACE_MS = 1000;

const FRAME_HEADER_BYTES = 9;
const GOAWAY = 7;

/**
 * Feeds the bytes a server writes on an HTTP/2 connection (a sequence of frames) and calls `onErrorGoaway` once,
 * at the first GOAWAY frame whose error code is not NO_ERROR (a graceful shutdown's GOAWAY is code 0).
 */
export function goawayWatcher(onErrorGoaway: (code: number) => void): (chunk: Uint8Array) => void {
  const header = new Uint8Array(FRAME_HEADER_BYTES);
  let headerFill = 0;
  let payloadLeft = 0;
  let inGoaway = false;
  const goawayHead = new Uint8Array(8);
  let goawayFill = 0;
  let fired = false;
  return (chunk) => {
    let i = 0;
    while (i < chunk.length && !fired) {
      if (payloadLeft === 0 && headerFill < FRAME_HEADER_BYTES) {
        const n = Math.min(FRAME_HEADER_BYTES - headerFill, chunk.length - i);
        header.set(chunk.subarray(i, i + n), headerFill);
        headerFill += n;
        i += n;
        if (headerFill < FRAME_HEADER_BYTES) return;
        payloadLeft = (header[0]! << 16) | (header[1]! << 8) | header[2]!;
        inGoaway = header[3] === GOAWAY;
        goawayFill = 0;
        headerFill = payloadLeft === 0 ? 0 : FRAME_HEADER_BYTES;
        continue;
      }
      const n = Math.min(payloadLeft, chunk.length - i);
      if (inGoaway && goawayFill < 8) {
        const m = Math.min(8 - goawayFill, n);
        goawayHead.set(chunk.subarray(i, i + m), goawayFill);
        goawayFill += m;
        if (goawayFill === 8) {
          const code = ((goawayHead[4]! << 24) | (goawayHead[5]! << 16) | (goawayHead[6]! << 8) | goawayHead[7]!) >>> 0;
          if (code !== 0) {
            fired = true;
            onErrorGoaway(code);
          }
        }
      }
      payloadLeft -= n;
      i += n;
      if (payloadLeft === 0) headerFill = 0;
    }
  };
}

/**
 * The socket as a stream the http2 server can take (`server.emit("connection", guarded)`): every byte passes
 * through, an error GOAWAY closes the connection (see the module contract), the peer's end or an error destroys
 * it.
 */
export function guardH2Socket(socket: net.Socket): Duplex {
  let guarded: Duplex;
  const closeAfterGoaway = () => {
    socket.end();
    setTimeout(() => socket.destroy(), GOAWAY_GRACE_MS).unref();
  };
  const watch = goawayWatcher(() => {
    // The GOAWAY is in the chunk being written: end after it is flushed.
    setImmediate(closeAfterGoaway);
  });
  guarded = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, _enc, cb) {
      watch(chunk);
      if (socket.destroyed) return cb();
      socket.write(chunk, () => cb());
    },
    final(cb) {
      socket.end();
      cb();
    },
    destroy(e, cb) {
      socket.destroy();
      cb(e);
    },
  });
  Object.defineProperties(guarded, {
    remoteAddress: { get: () => socket.remoteAddress },
    remotePort: { get: () => socket.remotePort },
    remoteFamily: { get: () => socket.remoteFamily },
    localAddress: { get: () => socket.localAddress },
    localPort: { get: () => socket.localPort },
  });
  socket.on("data", (c: Buffer) => {
    if (!guarded.push(c)) socket.pause();
  });
  socket.on("end", () => {
    guarded.push(null);
    // A peer that closes its side is gone: nothing more can be answered usefully.
    guarded.destroy();
  });
  socket.on("error", () => socket.destroy());
  socket.on("close", () => guarded.destroy());
  return guarded;
}

export interface ConnectionGateOptions {
  /** 0 = unlimited (`max-open-connections = 0`). */
  readonly max: number;
  /** Accepted connections that may wait for a slot; beyond them a connection is closed at once. */
  readonly queueMax: number;
  /** A waiting connection is closed after this long without a slot (0 = no deadline). */
  readonly queueWaitMs: number;
}

/** Default queue for the listeners: as many waiting connections as served ones, at most 256; 30 s deadline. */
export const gateDefaults = (max: number): ConnectionGateOptions => ({
  max,
  queueMax: max === 0 ? 0 : Math.min(256, Math.max(16, max)),
  queueWaitMs: 30_000,
});

/** Admission of accepted sockets under `max` open ones (see the module contract). */
export class ConnectionGate {
  readonly #o: ConnectionGateOptions;
  readonly #serve: (socket: net.Socket) => void;
  readonly #open = new Set<net.Socket>();
  readonly #queue: { readonly socket: net.Socket; readonly timer: NodeJS.Timeout | undefined }[] = [];

  /** `serve` is called once per admitted socket (resumed by the caller if it was accepted paused). */
  constructor(o: ConnectionGateOptions, serve: (socket: net.Socket) => void) {
    this.#o = o;
    this.#serve = serve;
  }

  /** Served and waiting connections. */
  get openCount(): number {
    return this.#open.size;
  }
  get waitingCount(): number {
    return this.#queue.length;
  }

  /** A newly accepted socket: served, queued, or closed at once when the queue is full. */
  accept(socket: net.Socket): void {
    socket.on("error", () => socket.destroy());
    if (this.#o.max === 0 || this.#open.size < this.#o.max) {
      this.#admit(socket);
      return;
    }
    if (this.#queue.length >= this.#o.queueMax) {
      socket.destroy();
      return;
    }
    const timer = this.#o.queueWaitMs > 0 ? setTimeout(() => socket.destroy(), this.#o.queueWaitMs) : undefined;
    timer?.unref();
    const entry = { socket, timer };
    this.#queue.push(entry);
    socket.once("close", () => {
      clearTimeout(timer);
      const i = this.#queue.indexOf(entry);
      if (i >= 0) this.#queue.splice(i, 1);
    });
  }

  #admit(socket: net.Socket): void {
    this.#open.add(socket);
    socket.once("close", () => {
      this.#open.delete(socket);
      this.#next();
    });
    this.#serve(socket);
  }

  #next(): void {
    while (this.#queue.length > 0 && (this.#o.max === 0 || this.#open.size < this.#o.max)) {
      const entry = this.#queue.shift()!;
      clearTimeout(entry.timer);
      if (!entry.socket.destroyed) this.#admit(entry.socket);
    }
  }

  /** Destroys every served and waiting socket. */
  destroyAll(): void {
    for (const { socket, timer } of this.#queue.splice(0)) {
      clearTimeout(timer);
      socket.destroy();
    }
    for (const s of this.#open) s.destroy();
  }
}
