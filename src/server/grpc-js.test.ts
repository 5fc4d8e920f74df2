import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http2 from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeGrpcMessage } from "./grpc.js";

// @grpc/grpc-js, Node's standard gRPC client, with stubs loaded by @grpc/proto-loader from the repository's protos,
// against a real `chainsim serve` process over loopback.

const PROTOS = ["chain/upgrade/v1beta1/query.proto", "chain/gov/v1/query.proto", "grpc/reflection/v1/reflection.proto"];
const definition = protoLoader.loadSync(PROTOS, {
  includeDirs: ["proto"],
  keepCase: true,
  longs: String,
  defaults: true,
  oneofs: true,
});
// biome-ignore lint/suspicious/noExplicitAny: grpc-js builds the package object at run time
const pkg = grpc.loadPackageDefinition(definition) as any;

let server: ChildProcess;
let address: string;
let dir: string;
const clients: grpc.Client[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chainsim-grpc-js-"));
  const config = join(dir, "app.toml");
  writeFileSync(config, '[api]\nenable = true\naddress = "tcp://127.0.0.1:0"\n[grpc]\naddress = "127.0.0.1:0"\n');
  server = spawn(
    process.execPath,
    ["bin/chainsim.js", "serve", "scenarios/query-upgrade-history.yaml", "--config", config],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  address = await new Promise<string>((resolve, reject) => {
    let out = "";
    server.stdout!.on("data", (b: Buffer) => {
      out += b.toString();
      const m = /gRPC {2}(\S+)/.exec(out);
      if (m !== null) resolve(m[1]!);
    });
    server.once("exit", (code) => reject(new Error(`chainsim serve exited ${code}: ${out}`)));
  });
}, 60_000);

afterAll(() => {
  for (const c of clients) c.close();
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

function client<T extends grpc.Client>(ctor: new (a: string, c: grpc.ChannelCredentials) => T): T {
  const c = new ctor(address, grpc.credentials.createInsecure());
  clients.push(c);
  return c;
}

interface Reply<T> {
  readonly error: grpc.ServiceError | null;
  readonly value: T | undefined;
  readonly header: grpc.Metadata | undefined;
}

/** One unary call with optional height metadata; resolves with the error or the value and the response header. */
function unary<T>(c: grpc.Client, method: string, request: object, height?: string): Promise<Reply<T>> {
  const md = new grpc.Metadata();
  if (height !== undefined) md.set("x-chain-block-height", height);
  return new Promise((resolve) => {
    let header: grpc.Metadata | undefined;
    // biome-ignore lint/suspicious/noExplicitAny: generated method by name
    const call = (c as any)[method](request, md, (error: grpc.ServiceError | null, value: T) =>
      resolve({ error, value, header }),
    ) as grpc.ClientUnaryCall;
    call.on("metadata", (m) => {
      header = m;
    });
  });
}

/** A unary call to any path with raw bytes (for services this server does not have). */
function rawUnary(path: string): Promise<grpc.ServiceError | null> {
  const c = new grpc.Client(address, grpc.credentials.createInsecure());
  clients.push(c);
  return new Promise((resolve) => {
    c.makeUnaryRequest(
      path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      Buffer.alloc(0),
      (e) => resolve(e),
    );
  });
}

describe("@grpc/grpc-js against chainsim serve", () => {
  it("calls the upgrade queries, honours the height metadata and returns it in the response header", async () => {
    const q = client(pkg.chain.upgrade.v1beta1.Query);
    const at20 = await unary<{ plan: { name: string; height: string } }>(q, "CurrentPlan", {}, "20");
    expect(at20.error).toBeNull();
    expect(at20.value?.plan).toMatchObject({ name: "v2", height: "30", info: '{"binaries":{"any":"file:///bin/v2"}}' });
    expect(at20.header?.get("x-chain-block-height")).toEqual(["20"]);
    const latest = await unary<{ plan: unknown }>(q, "CurrentPlan", {});
    expect(latest.value?.plan).toBeNull();
    expect(latest.header?.get("x-chain-block-height")).toEqual(["45"]);
    const foo = await unary<{ module_versions: unknown[] }>(q, "ModuleVersions", { module_name: "foo" }, "29");
    expect(foo.value?.module_versions).toEqual([{ name: "foo", version: "1" }]);
    const applied = await unary<{ height: string }>(q, "AppliedPlan", { name: "v2" });
    expect(applied.value?.height).toBe("30");
  });

  it("sees each error path with its code and the server's message", async () => {
    const q = client(pkg.chain.upgrade.v1beta1.Query);
    const gov = client(pkg.chain.gov.v1.Query);
    const unknownModule = await unary(q, "ModuleVersions", { module_name: "bar" });
    expect(unknownModule.error?.code).toBe(grpc.status.UNKNOWN);
    expect(unknownModule.error?.details).toContain("x/upgrade: QueryModuleVersions module bar not found");
    const future = await unary(q, "CurrentPlan", {}, "1000");
    expect(future.error).toMatchObject({
      code: grpc.status.UNKNOWN,
      details:
        "codespace sdk code 26: invalid height: cannot query with height in the future; please provide a valid height",
    });
    const badHeight = await unary(q, "CurrentPlan", {}, "abc");
    expect(badHeight.error).toMatchObject({
      code: grpc.status.UNKNOWN,
      details:
        'codespace sdk code 18: invalid request: Baseapp.RegisterGRPCServer: invalid height header "x-chain-block-height": strconv.ParseInt: parsing "abc": invalid syntax',
    });
    expect((await unary(gov, "Proposal", { proposal_id: "0" })).error).toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
      details: "proposal id can not be 0",
    });
    expect((await unary(gov, "Proposal", { proposal_id: "9" })).error).toMatchObject({
      code: grpc.status.NOT_FOUND,
      details: "proposal 9 doesn't exist",
    });
  });

  it("gets 12 UNIMPLEMENTED, not 13 INTERNAL, for an unknown service or method (trailers-only with END_STREAM)", async () => {
    expect(await rawUnary("/cosmos.upgrade.v1beta1.Query/CurrentPlan")).toMatchObject({
      code: grpc.status.UNIMPLEMENTED,
      details: "unknown service cosmos.upgrade.v1beta1.Query",
    });
    expect(await rawUnary("/chain.upgrade.v1beta1.Query/Nope")).toMatchObject({
      code: grpc.status.UNIMPLEMENTED,
      details: "unknown method Nope for service chain.upgrade.v1beta1.Query",
    });
  });

  it("paginates gov proposals with the reference's PageResponse", async () => {
    const gov = client(pkg.chain.gov.v1.Query);
    const all = await unary<{ proposals: unknown[]; pagination: { total: string } }>(gov, "Proposals", {});
    expect(all.value?.proposals).toHaveLength(1);
    expect(all.value?.pagination.total).toBe("1");
  });

  it("lists the served services through server reflection v1", async () => {
    const r = client(pkg.grpc.reflection.v1.ServerReflection);
    // biome-ignore lint/suspicious/noExplicitAny: generated bidi method
    const call = (r as any).ServerReflectionInfo() as grpc.ClientDuplexStream<object, any>;
    const services = await new Promise<string[]>((resolve, reject) => {
      call.on("data", (res: { list_services_response?: { service: { name: string }[] } }) => {
        resolve((res.list_services_response?.service ?? []).map((s) => s.name));
        call.end();
      });
      call.on("error", reject);
      call.write({ list_services: "" });
    });
    expect(services).toEqual(
      expect.arrayContaining([
        "chain.upgrade.v1beta1.Query",
        "chain.gov.v1.Query",
        "chain.base.tendermint.v1beta1.Service",
        "grpc.reflection.v1.ServerReflection",
      ]),
    );
  });
});

/** The raw status headers of one gRPC call, and whether the frame carrying grpc-status ended the stream. */
function rawStatus(path: string, headers: Record<string, string> = {}): Promise<{ status: string; message: string }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://${address}`);
    session.on("error", reject);
    const req = session.request({
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers",
      ...headers,
    });
    const done = (h: http2.IncomingHttpHeaders) => {
      if (h["grpc-status"] === undefined) return;
      resolve({ status: String(h["grpc-status"]), message: String(h["grpc-message"] ?? "") });
      session.close();
    };
    req.on("response", done);
    req.on("trailers", done);
    req.end(Buffer.from([0, 0, 0, 0, 0]));
  });
}

describe("grpc-message on the wire", () => {
  it("encodeGrpcMessage keeps printable ASCII and escapes every other UTF-8 byte and `%`", () => {
    expect(encodeGrpcMessage("code 26: invalid height: ~ok~")).toBe("code 26: invalid height: ~ok~");
    expect(encodeGrpcMessage("caf\u00e9 100%\n\t\u007f")).toBe("caf%C3%A9 100%25%0A%09%7F");
  });

  it("escapes only bytes outside printable ASCII and `%`, as grpc-go does, for handler errors and the fallback", async () => {
    const heightError = await rawStatus("/chain.upgrade.v1beta1.Query/CurrentPlan", {
      "x-chain-block-height": "1000",
    });
    expect(heightError).toEqual({
      status: "2",
      message:
        "codespace sdk code 26: invalid height: cannot query with height in the future; please provide a valid height",
    });
    // a height header with a non-ASCII byte and a `%`: echoed in the message, escaped byte by byte
    const echoed = await rawStatus("/chain.upgrade.v1beta1.Query/CurrentPlan", { "x-chain-block-height": "5%\u00e9" });
    expect(echoed.message).toContain('parsing "5%25\\xe9": invalid syntax');
    const module = await rawStatus("/chain.upgrade.v1beta1.Query/ModuleVersions");
    expect(module.message).not.toContain("%3A");
    const unknown = await rawStatus("/caf\u00e9%.Query/X".replace("\u00e9", "%C3%A9"));
    expect(unknown).toEqual({ status: "12", message: "unknown service caf%25C3%25A9%25.Query" });
  });
});
