import http2 from "node:http2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loopbackConfig } from "../../../test/kit/api.js";
import { simulatedNode } from "../../../test/kit/node-fixture.js";
import { type ApiServers, startApiServers } from "../../server/server.js";
import { NODE_JSON } from "../node-backend.js";

// Wire compatibility of the gRPC responses, checked with an independent protobuf reader written here from the
// reference field numbers (x/upgrade query.proto / upgrade.proto), never with the generated code:
//   Plan{name=1 string, time=2 Timestamp, height=3 int64, info=4 string, upgraded_client_state=5 Any}
//   QueryCurrentPlanResponse{plan=1}, QueryAppliedPlanRequest{name=1}, QueryAppliedPlanResponse{height=1 int64}
//   QueryModuleVersionsRequest{module_name=1}, QueryModuleVersionsResponse{module_versions=1 repeated}
//   ModuleVersion{name=1 string, version=2 uint64}

interface Field {
  readonly no: number;
  readonly wire: number;
  readonly varint?: bigint;
  readonly bytes?: Uint8Array;
}

/** Walks the tags of one message: (field number, wire type, value); only varint and length-delimited occur here. */
function readFields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint => {
    let shift = 0n;
    let v = 0n;
    for (;;) {
      const b = buf[i++];
      if (b === undefined) throw new Error("truncated varint");
      v |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return v;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const tag = Number(varint());
    const no = tag >>> 3;
    const wire = tag & 7;
    if (wire === 0) out.push({ no, wire, varint: varint() });
    else if (wire === 2) {
      const len = Number(varint());
      out.push({ no, wire, bytes: buf.slice(i, i + len) });
      i += len;
    } else throw new Error(`unexpected wire type ${wire} for field ${no}`);
  }
  return out;
}

const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);
/** int64 from its two's-complement varint. */
const int64 = (v: bigint | undefined) => BigInt.asIntN(64, v ?? 0n);

/** A string field as protobuf bytes (field 1 only is needed for the requests). */
function stringField(no: number, s: string): Uint8Array {
  const b = new TextEncoder().encode(s);
  if (b.length > 127) throw new Error("test strings are short");
  return Uint8Array.from([(no << 3) | 2, b.length, ...b]);
}

/** One unary gRPC call over raw HTTP/2: returns the response message bytes, headers and trailers. */
function rawCall(
  address: string,
  path: string,
  request: Uint8Array,
  headers: Record<string, string> = {},
): Promise<{ message: Uint8Array; headers: http2.IncomingHttpHeaders; trailers: http2.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const client = http2.connect(`http://${address}`);
    client.on("error", reject);
    const req = client.request({
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers",
      ...headers,
    });
    const frame = new Uint8Array(5 + request.length);
    new DataView(frame.buffer).setUint32(1, request.length);
    frame.set(request, 5);
    let resHeaders: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    req.on("response", (h) => (resHeaders = h));
    req.on("trailers", (t) => (trailers = t));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      client.close();
      const all = Buffer.concat(chunks);
      if (all.length === 0) return resolve({ message: new Uint8Array(), headers: resHeaders, trailers });
      expect(all[0]).toBe(0); // not compressed
      const len = all.readUInt32BE(1);
      expect(all.length).toBe(5 + len); // exactly one message
      resolve({ message: new Uint8Array(all.subarray(5, 5 + len)), headers: resHeaders, trailers });
    });
    req.on("error", reject);
    req.end(frame);
  });
}

let servers: ApiServers;
let address: string;
beforeAll(async () => {
  const node = simulatedNode({ untilHeight: 45 });
  const r = await startApiServers(loopbackConfig(), node.backend, { json: NODE_JSON });
  if (!r.ok) throw new Error(r.error.message);
  servers = r.value;
  address = r.value.grpcAddress!;
});
afterAll(async () => {
  await servers.close();
});

const Q = "/chain.upgrade.v1beta1.Query";

describe("gRPC wire format (independent decoder)", () => {
  it("CurrentPlan at a height: plan = field 1, Plan fields by the reference numbers and wire types", async () => {
    const r = await rawCall(address, `${Q}/CurrentPlan`, new Uint8Array(), { "x-chain-block-height": "20" });
    expect(r.trailers["grpc-status"] ?? r.headers["grpc-status"]).toBe("0");
    expect(r.headers["x-chain-block-height"]).toBe("20");
    const top = readFields(r.message);
    expect(top.map((f) => [f.no, f.wire])).toEqual([[1, 2]]);
    const plan = readFields(top[0]!.bytes!);
    const byNo = new Map(plan.map((f) => [f.no, f]));
    expect(plan.every((f) => ({ 1: 2, 2: 2, 3: 0, 4: 2, 5: 2 })[f.no] === f.wire)).toBe(true);
    expect(text(byNo.get(1)?.bytes)).toBe("v2");
    expect(int64(byNo.get(3)?.varint)).toBe(30n);
    expect(text(byNo.get(4)?.bytes)).toBe('{"binaries":{"any":"file:///bin/v2"}}');
    // time (2) is always written, as gogoproto's non-nullable field: Go's zero time, -62135596800 s, 0 ns.
    const ts = readFields(byNo.get(2)!.bytes!);
    expect(ts.map((f) => [f.no, int64(f.varint)])).toEqual([[1, -62135596800n]]);
    expect(plan.map((f) => f.no)).toEqual([1, 2, 3, 4]); // upgraded_client_state (5) is never set
  });

  it("CurrentPlan at the latest height: no plan is an empty message", async () => {
    const r = await rawCall(address, `${Q}/CurrentPlan`, new Uint8Array());
    expect(r.trailers["grpc-status"] ?? r.headers["grpc-status"]).toBe("0");
    expect(r.headers["x-chain-block-height"]).toBe("45");
    expect(r.message.length).toBe(0);
  });

  it("AppliedPlan: request name = field 1, response height = field 1 varint", async () => {
    const r = await rawCall(address, `${Q}/AppliedPlan`, stringField(1, "v2"));
    expect(readFields(r.message).map((f) => [f.no, f.wire, f.varint])).toEqual([[1, 0, 30n]]);
    const before = await rawCall(address, `${Q}/AppliedPlan`, stringField(1, "v2"), { "x-chain-block-height": "29" });
    expect(before.message.length).toBe(0); // height 0 is the default: not encoded
  });

  it("ModuleVersions: repeated field 1 of {name = 1, version = 2 varint}, ascending by name", async () => {
    const decode = (m: Uint8Array) =>
      readFields(m).map((f) => {
        expect([f.no, f.wire]).toEqual([1, 2]);
        const mv = readFields(f.bytes!);
        expect(mv.map((x) => [x.no, x.wire])).toEqual([
          [1, 2],
          [2, 0],
        ]);
        return [text(mv[0]!.bytes), mv[1]!.varint];
      });
    const all = await rawCall(address, `${Q}/ModuleVersions`, new Uint8Array());
    expect(decode(all.message)).toEqual([
      ["bank", 1n],
      ["foo", 2n],
      ["gov", 1n],
      ["upgrade", 1n],
    ]);
    const foo = await rawCall(address, `${Q}/ModuleVersions`, stringField(1, "foo"), { "x-chain-block-height": "29" });
    expect(decode(foo.message)).toEqual([["foo", 1n]]);
  });

  it("an SDK error is grpc-status 2 with the SDK message (percent-encoded where needed)", async () => {
    const r = await rawCall(address, `${Q}/ModuleVersions`, stringField(1, "bar"));
    expect(r.trailers["grpc-status"] ?? r.headers["grpc-status"]).toBe("2");
    expect(decodeURIComponent(String(r.trailers["grpc-message"] ?? r.headers["grpc-message"]))).toBe(
      "codespace upgrade code 2: module version not found: x/upgrade: QueryModuleVersions module bar not found",
    );
  });
});
