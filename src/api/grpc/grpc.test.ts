import http2 from "node:http2";
import { create, createFileRegistry, fromBinary, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyBackend, prunedBackend, standardBackend } from "../../../test/kit/api.js";
import { Service } from "../../gen/chain/base/tendermint/v1beta1/query_pb.js";
import { Query, QueryAuthorityRequestSchema } from "../../gen/chain/upgrade/v1beta1/query_pb.js";
import {
  ServerReflection as ReflectionV1,
  type ServerReflectionRequest,
  ServerReflectionRequestSchema,
  type ServerReflectionResponse,
} from "../../gen/grpc/reflection/v1/reflection_pb.js";
import {
  ServerReflection as ReflectionV1alpha,
  ServerReflectionRequestSchema as RequestV1alphaSchema,
} from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { parseAppToml } from "../../server/config.js";
import { type ApiServers, startApiServers } from "../../server/server.js";
import type { QueryBackend } from "../backend.js";

const running: ApiServers[] = [];
async function serveGrpc(backend: QueryBackend, extra = ""): Promise<string> {
  const cfg = parseAppToml(`[grpc]\naddress = "127.0.0.1:0"\n${extra}\n`);
  if (!cfg.ok) throw new Error(cfg.error.message);
  const r = await startApiServers(cfg.value, backend);
  if (!r.ok) throw new Error(r.error.message);
  running.push(r.value);
  expect(r.value.restUrl).toBeUndefined();
  return `http://${r.value.grpcAddress!}`;
}

let main: string;
let pruned: string;
let empty: string;
let small: string;

beforeAll(async () => {
  main = await serveGrpc(standardBackend());
  pruned = await serveGrpc(prunedBackend());
  empty = await serveGrpc(emptyBackend());
  small = await serveGrpc(standardBackend(), "max-recv-msg-size = 64");
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
});

const query = (url: string) => createClient(Query, createGrpcTransport({ baseUrl: url }));

async function failure(p: Promise<unknown>): Promise<ConnectError> {
  try {
    await p;
  } catch (e) {
    return ConnectError.from(e);
  }
  throw new Error("expected the call to fail");
}

const atHeight = (h: string) => ({ headers: { "x-chain-block-height": h } });

describe("gRPC query service", () => {
  it("serves the upgrade queries with the height response header", async () => {
    const q = query(main);
    let height: string | null = null;
    const none = await q.currentPlan({}, { onHeader: (h) => (height = h.get("x-chain-block-height")) });
    expect(none.plan).toBeUndefined();
    expect(height).toBe("6");
    const at3 = await q.currentPlan(
      {},
      { ...atHeight("3"), onHeader: (h) => (height = h.get("x-chain-block-height")) },
    );
    expect(at3.plan?.name).toBe("v2");
    expect(at3.plan?.height).toBe(5n);
    expect(height).toBe("3");
    expect((await q.appliedPlan({ name: "v2" })).height).toBe(5n);
    expect(
      (await q.moduleVersions({ moduleName: "bank" }, atHeight("1"))).moduleVersions.map((m) => m.version),
    ).toEqual([4n]);
    expect((await q.authority({})).address).toBe("chain10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax");
  });

  it("reports SDK errors as code Unknown with the gRPC message", async () => {
    const q = query(main);
    const e = await failure(q.moduleVersions({ moduleName: "foo" }));
    expect(e.code).toBe(Code.Unknown);
    expect(e.rawMessage).toBe(
      "codespace upgrade code 2: module version not found: x/upgrade: QueryModuleVersions module foo not found",
    );
  });

  it("applies the height metadata rules of the REST gateway", async () => {
    const q = query(main);
    const cases: [string, string][] = [
      [
        "abc",
        'codespace sdk code 18: invalid request: Baseapp.RegisterGRPCServer: invalid height header "x-chain-block-height": strconv.ParseInt: parsing "abc": invalid syntax',
      ],
      ["-1", "codespace sdk code 18: invalid request: cannot query with height < 0; please provide a valid height"],
      [
        "7",
        "codespace sdk code 26: invalid height: cannot query with height in the future; please provide a valid height",
      ],
    ];
    for (const [h, message] of cases) {
      const e = await failure(q.currentPlan({}, atHeight(h)));
      expect([e.code, e.rawMessage]).toEqual([Code.Unknown, message]);
    }
    const p = await failure(query(pruned).currentPlan({}, atHeight("3")));
    expect(p.rawMessage).toBe(
      "codespace sdk code 38: not found: failed to load state at height 3; version mismatch on immutable IAVL tree; version does not exist. Version has either been pruned, or is for a future block height (latest height: 20)",
    );
    const n = await failure(query(empty).authority({}));
    expect(n.rawMessage).toBe(
      "codespace sdk code 26: invalid height: SimApp is not ready; please wait for first block",
    );
  });

  it("ignores the height metadata when it occurs twice", async () => {
    const url = new URL(main);
    const session = http2.connect(url.origin);
    try {
      const body = toBinary(QueryAuthorityRequestSchema, create(QueryAuthorityRequestSchema));
      const frame = Buffer.concat([Buffer.from([0, 0, 0, 0, body.length]), Buffer.from(body)]);
      const req = session.request({
        ":method": "POST",
        ":path": "/chain.upgrade.v1beta1.Query/Authority",
        "content-type": "application/grpc",
        te: "trailers",
        "x-chain-block-height": ["2", "3"],
      });
      const headers = new Promise<http2.IncomingHttpHeaders>((r) => req.once("response", r));
      const trailers = new Promise<http2.IncomingHttpHeaders>((r) => req.once("trailers", r));
      req.end(frame);
      req.resume();
      expect((await headers)["x-chain-block-height"]).toBe("6");
      expect((await trailers)["grpc-status"]).toBe("0");
    } finally {
      session.close();
    }
  });

  it("answers unknown services and methods with UNIMPLEMENTED", async () => {
    const url = new URL(main);
    const session = http2.connect(url.origin);
    const call = (path: string) =>
      new Promise<http2.IncomingHttpHeaders>((resolve) => {
        const req = session.request({
          ":method": "POST",
          ":path": path,
          "content-type": "application/grpc",
          te: "trailers",
        });
        req.once("response", resolve);
        req.end(Buffer.from([0, 0, 0, 0, 0]));
        req.resume();
      });
    try {
      const svc = await call("/foo.Bar/Baz");
      expect([svc["grpc-status"], svc["grpc-message"]]).toEqual(["12", "unknown service foo.Bar"]);
      const m = await call("/chain.upgrade.v1beta1.Query/Nope");
      expect([m["grpc-status"], m["grpc-message"]]).toEqual([
        "12",
        "unknown method Nope for service chain.upgrade.v1beta1.Query",
      ]);
    } finally {
      session.close();
    }
  });

  it("rejects requests above max-recv-msg-size with RESOURCE_EXHAUSTED", async () => {
    const e = await failure(query(small).moduleVersions({ moduleName: "x".repeat(100) }));
    expect(e.code).toBe(Code.ResourceExhausted);
    expect((await query(small).authority({})).address).toMatch(/^chain1/);
  });

  it("serves the block service", async () => {
    const blocks = createClient(Service, createGrpcTransport({ baseUrl: main }));
    const latest = await blocks.getLatestBlock({});
    expect(latest.sdkBlock?.header?.height).toBe(6n);
    const e = await failure(blocks.getBlockByHeight({ height: 9n }));
    expect([e.code, e.rawMessage]).toEqual([
      Code.InvalidArgument,
      "requested block height is bigger then the chain length",
    ]);
  });
});

async function* requests(list: readonly ServerReflectionRequest[]) {
  for (const r of list) yield r;
}
const req = (messageRequest: NonNullable<MessageInitShape<typeof ServerReflectionRequestSchema>["messageRequest"]>) =>
  create(ServerReflectionRequestSchema, { host: "h", messageRequest });
const names = (files: readonly Uint8Array[]) => files.map((b) => fromBinary(FileDescriptorProtoSchema, b).name);

describe("server reflection", () => {
  it("answers every request kind on one stream, sending each dependency once", async () => {
    const client = createClient(ReflectionV1, createGrpcTransport({ baseUrl: main }));
    const out: ServerReflectionResponse[] = [];
    for await (const res of client.serverReflectionInfo(
      requests([
        req({ case: "listServices", value: "*" }),
        req({ case: "fileContainingSymbol", value: "chain.upgrade.v1beta1.Query" }),
        req({ case: "fileContainingSymbol", value: "chain.upgrade.v1beta1.Query.CurrentPlan" }),
        req({ case: "fileContainingSymbol", value: "chain.upgrade.v1beta1.Plan.height" }),
        req({ case: "fileContainingSymbol", value: "google.protobuf.FieldDescriptorProto.TYPE_INT64" }),
        req({ case: "fileByFilename", value: "google/api/http.proto" }),
        req({ case: "fileContainingSymbol", value: "no.such.Symbol" }),
        req({ case: "fileByFilename", value: "no/such.proto" }),
        req({ case: "allExtensionNumbersOfType", value: "google.protobuf.MethodOptions" }),
        req({ case: "allExtensionNumbersOfType", value: "no.such.Type" }),
        req({
          case: "fileContainingExtension",
          value: { containingType: "google.protobuf.MethodOptions", extensionNumber: 72295728 },
        }),
      ]),
    )) {
      out.push(res);
    }
    expect(out).toHaveLength(11);
    expect(out[0]!.validHost).toBe("h");
    expect(out[0]!.originalRequest?.messageRequest.case).toBe("listServices");
    const list = out[0]!.messageResponse;
    expect(list.case === "listServicesResponse" && list.value.service.map((s) => s.name)).toEqual([
      "chain.base.tendermint.v1beta1.Service",
      "chain.upgrade.v1beta1.Query",
      "grpc.reflection.v1.ServerReflection",
      "grpc.reflection.v1alpha.ServerReflection",
    ]);
    const files = (i: number) => {
      const m = out[i]!.messageResponse;
      if (m.case !== "fileDescriptorResponse") throw new Error(`response ${i} is ${m.case}`);
      return m.value.fileDescriptorProto;
    };
    const first = names(files(1));
    expect(first[0]).toBe("chain/upgrade/v1beta1/query.proto");
    expect(first).toEqual(
      expect.arrayContaining([
        "chain/upgrade/v1beta1/upgrade.proto",
        "google/api/annotations.proto",
        "google/api/http.proto",
        "google/protobuf/descriptor.proto",
        "google/protobuf/any.proto",
        "google/protobuf/timestamp.proto",
      ]),
    );
    expect(new Set(first).size).toBe(first.length);
    expect(names(files(2))).toEqual(["chain/upgrade/v1beta1/query.proto"]);
    expect(names(files(3))).toEqual(["chain/upgrade/v1beta1/upgrade.proto"]);
    expect(names(files(4))).toEqual(["google/protobuf/descriptor.proto"]);
    expect(names(files(5))).toEqual(["google/api/http.proto"]);
    for (const i of [6, 7, 9]) {
      expect(out[i]!.messageResponse).toMatchObject({
        case: "errorResponse",
        value: { errorCode: 5, errorMessage: "proto: not found" },
      });
    }
    const ext = out[8]!.messageResponse;
    expect(ext.case === "allExtensionNumbersResponse" && ext.value.baseTypeName).toBe("google.protobuf.MethodOptions");
    expect(ext.case === "allExtensionNumbersResponse" && ext.value.extensionNumber).toContain(72295728);
    expect(names(files(10))).toEqual(["google/api/annotations.proto"]);

    // The descriptors are complete: a registry builds from them and resolves the http option.
    const protos = new Map(
      files(1)
        .map((b) => fromBinary(FileDescriptorProtoSchema, b))
        .map((f) => [f.name, f]),
    );
    const registry = createFileRegistry(protos.get("chain/upgrade/v1beta1/query.proto")!, (name) => protos.get(name));
    expect(registry.getService("chain.upgrade.v1beta1.Query")?.methods.map((m) => m.name)).toContain("ModuleVersions");
  });

  it("starts every stream with nothing sent", async () => {
    const client = createClient(ReflectionV1, createGrpcTransport({ baseUrl: main }));
    for (let i = 0; i < 2; i++) {
      for await (const res of client.serverReflectionInfo(
        requests([req({ case: "fileContainingSymbol", value: "chain.upgrade.v1beta1.Query" })]),
      )) {
        const m = res.messageResponse;
        expect(m.case === "fileDescriptorResponse" && m.value.fileDescriptorProto.length).toBeGreaterThan(3);
      }
    }
  });

  it("serves v1alpha with the same answers", async () => {
    const client = createClient(ReflectionV1alpha, createGrpcTransport({ baseUrl: main }));
    const out = [];
    for await (const res of client.serverReflectionInfo(
      (async function* () {
        yield create(RequestV1alphaSchema, { messageRequest: { case: "listServices", value: "" } });
      })(),
    )) {
      out.push(res);
    }
    const m = out[0]!.messageResponse;
    expect(m.case === "listServicesResponse" && m.value.service.length).toBe(4);
  });

  it("fails the stream on a request without a message", async () => {
    const client = createClient(ReflectionV1, createGrpcTransport({ baseUrl: main }));
    const e = await failure(
      (async () => {
        for await (const _ of client.serverReflectionInfo(requests([create(ServerReflectionRequestSchema)]))) {
          // drain
        }
      })(),
    );
    expect([e.code, e.rawMessage]).toEqual([Code.InvalidArgument, "invalid MessageRequest: <nil>"]);
  });
});
