/**
 * Hostile peers on the gRPC port (h2c). A connection that ends in an HTTP/2 protocol error must release its socket
 * (the fd count returns to its baseline); an oversize or malformed request gets a gRPC status and leaves the session
 * usable; a non-gRPC content type gets grpc-go's 415 answer.
 */
import { readdirSync } from "node:fs";
import http2 from "node:http2";
import net from "node:net";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOAWAY_GRACE_MS } from "../../src/server/bounded-listen.js";
import { type ApiServers, startApiServers } from "../../src/server/server.js";
import { loopbackConfig, standardBackend } from "../kit/api.js";

const fds = (): number => readdirSync("/proc/self/fd").length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
function frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(9);
  h.writeUIntBE(payload.length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(stream, 5);
  return Buffer.concat([h, payload]);
}
const SETTINGS = frame(4, 0, 0, Buffer.alloc(0));

/** Connections that each end in a protocol error (the audit's variants). */
const BAD: Record<string, Buffer> = {
  "DATA on a stream never opened": Buffer.concat([PREFACE, SETTINGS, frame(0, 0, 1, Buffer.from("x"))]),
  "a frame over the size limit": Buffer.concat([PREFACE, SETTINGS, frame(0, 0, 1, Buffer.alloc(20_000))]),
  "an oversize PING": Buffer.concat([PREFACE, SETTINGS, frame(6, 0, 0, Buffer.alloc(9))]),
  "an oversize SETTINGS": Buffer.concat([PREFACE, frame(4, 0, 0, Buffer.alloc(5))]),
  "SETTINGS on a stream": Buffer.concat([PREFACE, frame(4, 0, 3, Buffer.alloc(0))]),
  "WINDOW_UPDATE of 0": Buffer.concat([PREFACE, SETTINGS, frame(8, 0, 0, Buffer.alloc(4))]),
  "garbage after the preface": Buffer.concat([PREFACE, Buffer.from("garbage garbage garbage garbage")]),
};
const PER_VARIANT = 10;

let servers: ApiServers;
let port: number;
beforeAll(async () => {
  const r = await startApiServers(loopbackConfig(), standardBackend());
  if (!r.ok) throw new Error(r.error.message);
  servers = r.value;
  port = Number(servers.grpcAddress!.split(":")[1]);
});
afterAll(() => servers.close());

/** Sends `bytes` and then stays silent with its side open (a half-open peer), until `release`. */
function badPeer(bytes: Buffer): Promise<net.Socket> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1", () => {
      s.write(bytes);
      resolve(s);
    });
    s.on("data", () => {});
    s.on("error", () => {});
  });
}

describe("HTTP/2 protocol errors release their sockets", () => {
  for (const [name, bytes] of Object.entries(BAD)) {
    it(`${PER_VARIANT} connections with ${name}: the server closes each, fds back to baseline`, async () => {
      const base = fds();
      const peers = await Promise.all(Array.from({ length: PER_VARIANT }, () => badPeer(bytes)));
      // The server ends each connection itself (the peers never close): wait for every peer to see the end.
      const ended = (p: net.Socket) =>
        new Promise<void>((r) => (p.readableEnded || p.destroyed ? r() : p.once("close", r).once("end", r)));
      await Promise.race([Promise.all(peers.map(ended)), sleep(GOAWAY_GRACE_MS * 5)]);
      for (const p of peers) p.destroy();
      for (let i = 0; i < 50 && fds() > base; i++) await sleep(50);
      expect(fds()).toBeLessThanOrEqual(base);
    });
  }
});

/** One raw gRPC unary call on an existing session: status, message, HTTP status. */
function call(
  session: http2.ClientHttp2Session,
  body: Buffer,
  contentType = "application/grpc",
): Promise<{ http: number | undefined; status: string | undefined; message: string | undefined; rst: number }> {
  return new Promise((resolve) => {
    const st = session.request({
      ":method": "POST",
      ":path": "/chain.upgrade.v1beta1.Query/CurrentPlan",
      "content-type": contentType,
      te: "trailers",
    });
    let http: number | undefined;
    let status: string | undefined;
    let message: string | undefined;
    st.on("response", (h) => {
      http = Number(h[":status"]);
      status = h["grpc-status"] as string | undefined;
      message = h["grpc-message"] as string | undefined;
    });
    st.on("trailers", (t) => {
      status = t["grpc-status"] as string | undefined;
      message = t["grpc-message"] as string | undefined;
    });
    st.on("data", () => {});
    st.on("error", () => {});
    st.on("close", () => resolve({ http, status, message, rst: st.rstCode ?? 0 }));
    st.end(body);
  });
}
function message(p: Buffer): Buffer {
  const h = Buffer.alloc(5);
  h.writeUInt32BE(p.length, 1);
  return Buffer.concat([h, p]);
}

describe("oversize and malformed requests get a status; the session stays usable", () => {
  it("a 16 MiB request: RESOURCE_EXHAUSTED (8), then the same session answers OK", async () => {
    // A client with room for the whole request, so that only the server can refuse it.
    const session = http2.connect(`http://${servers.grpcAddress}`, { maxSessionMemory: 256 });
    session.on("error", () => {});
    try {
      expect((await call(session, message(Buffer.alloc(0)))).status).toBe("0");
      const big = await call(session, message(Buffer.alloc(16 << 20, 1)));
      expect(big.status).toBe("8");
      expect(big.rst).toBe(0);
      const after = await call(session, message(Buffer.alloc(0)));
      expect(after).toMatchObject({ http: 200, status: "0", rst: 0 });
    } finally {
      session.close();
    }
  });

  it("a malformed protobuf message: INTERNAL (13) as grpc-go answers an unmarshal failure", async () => {
    const session = http2.connect(`http://${servers.grpcAddress}`);
    session.on("error", () => {});
    try {
      const bad = await call(session, message(Buffer.from([0xff, 0xff, 0xff])));
      expect(bad).toMatchObject({ http: 200, status: "13" });
      expect((await call(session, message(Buffer.alloc(0)))).status).toBe("0");
    } finally {
      session.close();
    }
  });

  it("an application/proto body (the Connect protocol): 415 with INVALID_ARGUMENT, never HTTP 500", async () => {
    const session = http2.connect(`http://${servers.grpcAddress}`);
    session.on("error", () => {});
    try {
      const r = await call(session, Buffer.from([0xff, 0xff, 0xff]), "application/proto");
      expect(r).toMatchObject({ http: 415, status: "3" });
      expect(decodeURIComponent(r.message ?? "")).toBe('invalid gRPC request content-type "application/proto"');
      expect((await call(session, message(Buffer.alloc(0)))).status).toBe("0");
    } finally {
      session.close();
    }
  });

  it("@grpc/grpc-js: 16 MiB is RESOURCE_EXHAUSTED and the channel keeps working", async () => {
    const client = new grpc.Client(servers.grpcAddress!, grpc.credentials.createInsecure(), {
      "grpc.max_send_message_length": -1,
    });
    const unary = (b: Buffer) =>
      new Promise<number>((resolve) =>
        client.makeUnaryRequest(
          "/chain.upgrade.v1beta1.Query/CurrentPlan",
          (x: Buffer) => x,
          (x: Buffer) => x,
          b,
          (e) => resolve(e === null ? 0 : e.code),
        ),
      );
    try {
      expect(await unary(Buffer.alloc(16 << 20, 1))).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(await unary(Buffer.alloc(0))).toBe(grpc.status.OK);
    } finally {
      client.close();
    }
  });
});
