import net from "node:net";
import { create } from "@bufbuild/protobuf";
import { anyPack } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backendOf,
  emptyBackend,
  loopbackConfig,
  newKeeper,
  prunedBackend,
  standardBackend,
  upgradeChain,
} from "../../../test/kit/api.js";
import { header, headerNames, type RawRequest, type RawResponse, rawRequest } from "../../../test/kit/http.js";
import { ok } from "../../core/errors.js";
import { Query, QueryCurrentPlanResponseSchema } from "../../gen/chain/upgrade/v1beta1/query_pb.js";
import { ModuleVersionSchema, PlanSchema } from "../../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { type ApiServers, startApiServers } from "../../server/server.js";
import { newQueryServer } from "../../upgrade/query-server.js";
import { type BoundService, bindService, type QueryBackend } from "../backend.js";
import { goHtmlEscape } from "../json-compiled.js";

type Headers = NonNullable<RawRequest["headers"]>;

const UP = "/chain/upgrade/v1beta1";
const NO_GRPC = "enable = false";

const running: ApiServers[] = [];
async function serve(backend: QueryBackend, api = "", grpc = NO_GRPC): Promise<number> {
  const r = await startApiServers(loopbackConfig(api, grpc), backend);
  if (!r.ok) throw new Error(r.error.message);
  running.push(r.value);
  return Number(new URL(r.value.restUrl!).port);
}

let main: number;
let pruned: number;
let empty: number;
let cors: number;
let limited: number;
let broken: number;

/** A backend whose upgrade handlers misbehave: AppliedPlan throws, CurrentPlan returns an unresolvable Any. */
function brokenBackend(): QueryBackend {
  const real = newQueryServer(newKeeper());
  const svc: BoundService = bindService(Query, {
    ...real,
    appliedPlan: () => {
      throw new Error("boom");
    },
    currentPlan: () => {
      const any = anyPack(ModuleVersionSchema, create(ModuleVersionSchema));
      any.typeUrl = "/x.Unknown";
      return ok(create(QueryCurrentPlanResponseSchema, { plan: create(PlanSchema, { upgradedClientState: any }) }));
    },
  });
  return { ...backendOf(upgradeChain(2)), services: [svc] };
}

beforeAll(async () => {
  main = await serve(standardBackend(), "swagger = true");
  pruned = await serve(prunedBackend());
  empty = await serve(emptyBackend());
  cors = await serve(standardBackend(), "enabled-unsafe-cors = true");
  limited = await serve(standardBackend(), "max-open-connections = 1\nrpc-read-timeout = 1\nrpc-max-body-bytes = 10");
  broken = await serve(brokenBackend());
});

afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
});

const get = (port: number, target: string, headers: Headers = []): Promise<RawResponse> =>
  rawRequest(port, { target, headers });

const SUCCESS_HEADERS = [
  "Content-Type",
  "Grpc-Metadata-Content-Type",
  "Grpc-Metadata-X-Chain-Block-Height",
  "X-Chain-Block-Height",
];
const HANDLER_ERROR_HEADERS = ["Content-Type", "Grpc-Metadata-Content-Type", "Grpc-Metadata-X-Chain-Block-Height"];

function expectOk(r: RawResponse, body: string, height: number): void {
  expect(r.status).toBe(200);
  expect(r.body).toBe(body);
  expect(headerNames(r)).toEqual(SUCCESS_HEADERS);
  expect(header(r, "content-type")).toBe("application/json");
  expect(header(r, "grpc-metadata-content-type")).toBe("application/grpc");
  expect(header(r, "x-chain-block-height")).toBe(String(height));
  expect(header(r, "grpc-metadata-x-chain-block-height")).toBe(String(height));
}

function expectError(r: RawResponse, http: number, code: number, message: string, headers = ["Content-Type"]): void {
  expect(r.status).toBe(http);
  expect(r.body).toBe(goHtmlEscape(JSON.stringify({ code, message, details: [] })));
  expect(headerNames(r)).toEqual(headers);
  expect(header(r, "content-type")).toBe("application/json");
}

const notImplemented = (r: RawResponse) => expectError(r, 501, 12, "Not Implemented");
const sdk = (cs: string, n: number, desc: string, wrap: string) => `codespace ${cs} code ${n}: ${desc}: ${wrap}`;
const FUTURE = sdk(
  "sdk",
  26,
  "invalid height",
  "cannot query with height in the future; please provide a valid height",
);
const NEGATIVE = sdk("sdk", 18, "invalid request", "cannot query with height < 0; please provide a valid height");
const badHeight = (quoted: string, why = "invalid syntax") =>
  sdk(
    "sdk",
    18,
    "invalid request",
    `Baseapp.RegisterGRPCServer: invalid height header "x-chain-block-height": strconv.ParseInt: parsing ${quoted}: ${why}`,
  );

describe("upgrade endpoints", () => {
  it("CurrentPlan: none at latest, the scheduled plan at heights 2..4", async () => {
    expectOk(await get(main, `${UP}/current_plan`), '{"plan":null}', 6);
    expectOk(
      await get(main, `${UP}/current_plan`, [["x-chain-block-height", "3"]]),
      '{"plan":{"name":"v2","time":"0001-01-01T00:00:00Z","height":"5","info":"","upgraded_client_state":null}}',
      3,
    );
    expectOk(await get(main, `${UP}/current_plan`, [["x-chain-block-height", "1"]]), '{"plan":null}', 1);
  });

  it("AppliedPlan: the done height, 0 for unknown names and before the upgrade", async () => {
    expectOk(await get(main, `${UP}/applied_plan/v2`), '{"height":"5"}', 6);
    expectOk(await get(main, `${UP}/applied_plan/v2`, [["x-chain-block-height", "4"]]), '{"height":"0"}', 4);
    expectOk(await get(main, `${UP}/applied_plan/nope`), '{"height":"0"}', 6);
    expectOk(await get(main, `${UP}/applied_plan/`), '{"height":"0"}', 6);
  });

  it("AppliedPlan: the name is one decoded segment; verbs are glued back, a trailing colon dropped", async () => {
    expectOk(await get(main, `${UP}/applied_plan/%76%32`), '{"height":"5"}', 6);
    expectOk(await get(main, `${UP}/applied_plan/v2:`), '{"height":"5"}', 6);
    expectOk(await get(main, `${UP}/applied_plan/v2:rc1`), '{"height":"0"}', 6);
    notImplemented(await get(main, `${UP}/applied_plan/v2%2Fx`));
    notImplemented(await get(main, `${UP}/applied_plan/:x`));
  });

  it("AppliedPlan ignores the query string, even a malformed one", async () => {
    expectOk(await get(main, `${UP}/applied_plan/v2?name=foo`), '{"height":"5"}', 6);
    expectOk(await get(main, `${UP}/applied_plan/v2?%zz;x`), '{"height":"5"}', 6);
    expectOk(await get(main, `${UP}/current_plan?%zz`), '{"plan":null}', 6);
  });

  it("UpgradedConsensusState: empty response, Go base-0 int64 path parameter", async () => {
    for (const h of ["5", "0x10", "0o7", "017", "0b11", "1_000", "-3", "+2"]) {
      expectOk(await get(main, `${UP}/upgraded_consensus_state/${h}`), '{"upgraded_consensus_state":null}', 6);
    }
    expectError(
      await get(main, `${UP}/upgraded_consensus_state/abc`),
      400,
      3,
      'type mismatch, parameter: last_height, error: strconv.ParseInt: parsing "abc": invalid syntax',
    );
    expectError(
      await get(main, `${UP}/upgraded_consensus_state/99999999999999999999`),
      400,
      3,
      'type mismatch, parameter: last_height, error: strconv.ParseInt: parsing "99999999999999999999": value out of range',
    );
    expectError(
      await get(main, `${UP}/upgraded_consensus_state/`),
      400,
      3,
      'type mismatch, parameter: last_height, error: strconv.ParseInt: parsing "": invalid syntax',
    );
  });

  it("ModuleVersions: all in byte order, by name, by JSON name, first value wins", async () => {
    const all = '{"module_versions":[{"name":"auth","version":"5"},{"name":"bank","version":"5"}]}';
    expectOk(await get(main, `${UP}/module_versions`), all, 6);
    expectOk(await get(main, `${UP}/module_versions?module_name=`), all, 6);
    expectOk(
      await get(main, `${UP}/module_versions`, [["x-chain-block-height", "1"]]),
      '{"module_versions":[{"name":"auth","version":"5"},{"name":"bank","version":"4"}]}',
      1,
    );
    const bank = '{"module_versions":[{"name":"bank","version":"5"}]}';
    const auth = '{"module_versions":[{"name":"auth","version":"5"}]}';
    expectOk(await get(main, `${UP}/module_versions?module_name=bank`), bank, 6);
    expectOk(await get(main, `${UP}/module_versions?moduleName=auth`), auth, 6);
    expectOk(await get(main, `${UP}/module_versions?module_name=bank&module_name=auth`), bank, 6);
    expectOk(await get(main, `${UP}/module_versions?module_name=bank&moduleName=auth`), bank, 6);
    expectOk(await get(main, `${UP}/module_versions?moduleName=auth&module_name=bank`), bank, 6);
    expectOk(await get(main, `${UP}/module_versions?unknown=1&module_name=%62ank`), bank, 6);
  });

  it("ModuleVersions: an unknown module is a handler error (500, metadata headers, no plain height header)", async () => {
    const r = await get(main, `${UP}/module_versions?module_name=foo`);
    expectError(
      r,
      500,
      2,
      "codespace upgrade code 2: module version not found: x/upgrade: QueryModuleVersions module foo not found",
      HANDLER_ERROR_HEADERS,
    );
    expect(header(r, "grpc-metadata-x-chain-block-height")).toBe("6");
    expect(r.body).toBe(
      '{"code":2,"message":"codespace upgrade code 2: module version not found: x/upgrade: QueryModuleVersions module foo not found","details":[]}',
    );
    const plus = await get(main, `${UP}/module_versions?module_name=ba+nk`);
    expect(JSON.parse(plus.body).message).toContain("module ba nk not found");
  });

  it("ModuleVersions: Go url.ParseQuery and field-path errors are 400 code 3", async () => {
    expectError(
      await get(main, `${UP}/module_versions?module_name=a;b`),
      400,
      3,
      "invalid semicolon separator in query",
    );
    expectError(await get(main, `${UP}/module_versions?module_name=%zz`), 400, 3, 'invalid URL escape "%zz"');
    expectError(
      await get(main, `${UP}/module_versions?module_name.x=1`),
      400,
      3,
      "unexpected type string in *types.QueryModuleVersionsRequest",
    );
  });

  it("Authority: the gov module address", async () => {
    expectOk(await get(main, `${UP}/authority`), '{"address":"chain10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax"}', 6);
  });
});

describe("routing", () => {
  it("answers 501 for unknown, partial, longer and case-changed paths", async () => {
    for (const p of ["/", "/chain", `${UP}/current_plan/`, `${UP}/Current_Plan`, `${UP}/current_plan/x`, "/swagger/"]) {
      notImplemented(await get(pruned, p));
    }
  });

  it("answers 501 for other methods, HEAD and OPTIONS (without CORS)", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      notImplemented(await rawRequest(main, { method, target: `${UP}/authority`, body: "" }));
    }
    const head = await rawRequest(main, { method: "HEAD", target: `${UP}/authority` });
    expect(head.status).toBe(501);
    expect(head.body).toBe("");
    notImplemented(
      await rawRequest(main, {
        method: "POST",
        target: `${UP}/authority`,
        headers: [["Content-Type", "application/x-www-form-urlencoded; charset=utf-8"]],
        body: "",
      }),
    );
  });

  it("runs the GET handler for a POST form, reading body before query", async () => {
    const form: Headers = [["Content-Type", "application/x-www-form-urlencoded"]];
    expectOk(
      await rawRequest(main, { method: "POST", target: `${UP}/authority`, headers: form, body: "" }),
      '{"address":"chain10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax"}',
      6,
    );
    expectOk(
      await rawRequest(main, {
        method: "POST",
        target: `${UP}/module_versions?module_name=auth`,
        headers: form,
        body: "module_name=bank",
      }),
      '{"module_versions":[{"name":"bank","version":"5"}]}',
      6,
    );
    expectError(
      await rawRequest(main, { method: "POST", target: `${UP}/current_plan`, headers: form, body: "a=%zz" }),
      400,
      3,
      'invalid URL escape "%zz"',
    );
    expectError(
      await rawRequest(main, { method: "POST", target: `${UP}/current_plan?a;b`, headers: form, body: "" }),
      400,
      3,
      "invalid semicolon separator in query",
    );
  });

  it("honours X-HTTP-Method-Override on a POST form", async () => {
    const form = (o: string): Headers => [
      ["Content-Type", "application/x-www-form-urlencoded"],
      ["X-HTTP-Method-Override", o],
    ];
    expectOk(
      await rawRequest(main, { method: "POST", target: `${UP}/applied_plan/v2`, headers: form("get"), body: "" }),
      '{"height":"5"}',
      6,
    );
    notImplemented(
      await rawRequest(main, { method: "POST", target: `${UP}/applied_plan/v2`, headers: form("DELETE"), body: "" }),
    );
  });

  it("redirects uncleaned paths with 301, keeping the query and a trailing slash", async () => {
    const cases: [string, string][] = [
      [`/${UP}/authority?x=1`, `${UP}/authority?x=1`],
      [`${UP}/./x/../authority`, `${UP}/authority`],
      [`${UP}//authority/`, `${UP}/authority/`],
      ["/a//b?", "/a/b?"],
      ["//a%20b*", "/a%20b%2A"],
      ["/..", "/"],
    ];
    for (const [from, to] of cases) {
      const r = await get(main, from);
      expect(r.status).toBe(301);
      expect(header(r, "location")).toBe(to);
      expect(r.body).toBe("");
      expect(header(r, "content-type")).toBeUndefined();
    }
  });

  it("rejects malformed percent-escapes in the path before anything else", async () => {
    for (const p of [`${UP}/applied_plan/%zz`, "/%", "//%2"]) {
      const r = await get(main, p);
      expect(r.status).toBe(400);
      expect(header(r, "content-type")).toBe("text/plain; charset=utf-8");
      expect(r.body).toBe("400 Bad Request");
    }
    const withOrigin = await get(cors, "/%zz", [["Origin", "https://x"]]);
    expect(withOrigin.status).toBe(400);
    expect(header(withOrigin, "access-control-allow-origin")).toBeUndefined();
  });
});

describe("height header", () => {
  const cp = `${UP}/current_plan`;
  it("means latest when absent, 0, -0, +0, or given more than once", async () => {
    for (const v of ["0", "-0", "+0"]) expectOk(await get(main, cp, [["x-chain-block-height", v]]), '{"plan":null}', 6);
    expectOk(
      await get(main, cp, [
        ["x-chain-block-height", "2"],
        ["x-chain-block-height", "3"],
      ]),
      '{"plan":null}',
      6,
    );
    expectOk(
      await get(main, cp, [
        ["x-chain-block-height", "2"],
        ["Grpc-Metadata-X-Chain-Block-Height", "2"],
      ]),
      '{"plan":null}',
      6,
    );
  });

  it("accepts any case and the Grpc-Metadata- form", async () => {
    const plan =
      '{"plan":{"name":"v2","time":"0001-01-01T00:00:00Z","height":"5","info":"","upgraded_client_state":null}}';
    expectOk(await get(main, cp, [["X-CHAIN-BLOCK-HEIGHT", "2"]]), plan, 2);
    expectOk(await get(main, cp, [["grpc-metadata-x-chain-block-height", "2"]]), plan, 2);
  });

  it("reports unparseable values with Go quoting", async () => {
    expectError(await get(main, cp, [["x-chain-block-height", "abc"]]), 500, 2, badHeight('"abc"'));
    expectError(await get(main, cp, [["x-chain-block-height", "5, 6"]]), 500, 2, badHeight('"5, 6"'));
    expectError(await get(main, cp, [["x-chain-block-height", "0x5"]]), 500, 2, badHeight('"0x5"'));
    expectError(await get(main, cp, [["x-chain-block-height", ""]]), 500, 2, badHeight('""'));
    expectError(
      await get(main, cp, [["x-chain-block-height", "99999999999999999999"]]),
      500,
      2,
      badHeight('"99999999999999999999"', "value out of range"),
    );
    expectError(await get(main, cp, [["x-chain-block-height", 'a"b\\']]), 500, 2, badHeight('"a\\"b\\\\"'));
    // Non-printable bytes never reach the interceptor over REST: the gateway's gRPC client refuses them.
    expectError(
      await get(main, cp, [["x-chain-block-height", "\u00ff1"]]),
      500,
      13,
      'header key "x-chain-block-height" contains value with non-printable ASCII characters',
    );
  });

  it("rejects negative and future heights", async () => {
    expectError(await get(main, cp, [["x-chain-block-height", "-1"]]), 500, 2, NEGATIVE);
    expectError(await get(main, cp, [["x-chain-block-height", "7"]]), 500, 2, FUTURE);
    expect((await get(main, cp, [["x-chain-block-height", "7"]])).body).toBe(
      '{"code":2,"message":"codespace sdk code 26: invalid height: cannot query with height in the future; please provide a valid height","details":[]}',
    );
  });

  it("reports pruned heights with the store error and the latest height", async () => {
    expectError(
      await get(pruned, cp, [["x-chain-block-height", "5"]]),
      500,
      2,
      sdk(
        "sdk",
        38,
        "not found",
        "failed to load state at height 5; version mismatch on immutable IAVL tree; version does not exist. Version has either been pruned, or is for a future block height (latest height: 20)",
      ),
    );
    expect(JSON.parse((await get(pruned, cp, [["x-chain-block-height", "17"]])).body).message).toContain(
      "failed to load state at height 17;",
    );
    expectOk(await get(pruned, cp, [["x-chain-block-height", "18"]]), '{"plan":null}', 18);
    expectOk(await get(pruned, `${UP}/applied_plan/v2`), '{"height":"5"}', 20);
    expectError(await get(pruned, cp, [["x-chain-block-height", "21"]]), 500, 2, FUTURE);
  });

  it("reports a node without blocks as not ready, whatever the request", async () => {
    const notReady = sdk("sdk", 26, "invalid height", "SimApp is not ready; please wait for first block");
    expectError(await get(empty, cp), 500, 2, notReady);
    expectError(await get(empty, `${UP}/module_versions?module_name=foo`), 500, 2, notReady);
    expectError(await get(empty, cp, [["x-chain-block-height", "3"]]), 500, 2, notReady);
  });

  it("applies precedence: route, parameters, header parse and sign, query context, handler", async () => {
    notImplemented(await get(empty, `${UP}/nope`, [["x-chain-block-height", "abc"]]));
    expect((await get(empty, `${UP}/upgraded_consensus_state/x`, [["x-chain-block-height", "abc"]])).status).toBe(400);
    expectError(await get(empty, cp, [["x-chain-block-height", "abc"]]), 500, 2, badHeight('"abc"'));
    expectError(await get(empty, cp, [["x-chain-block-height", "-1"]]), 500, 2, NEGATIVE);
    expectError(
      await get(main, `${UP}/module_versions?module_name=foo`, [["x-chain-block-height", "9"]]),
      500,
      2,
      FUTURE,
    );
  });
});

describe("request metadata", () => {
  const auth = `${UP}/authority`;
  it("validates Grpc-Timeout", async () => {
    expectError(await get(main, auth, [["Grpc-Timeout", "abc"]]), 400, 3, "invalid grpc-timeout: abc");
    expectError(await get(main, auth, [["Grpc-Timeout", "5"]]), 400, 3, "invalid grpc-timeout: 5");
    expect((await get(main, auth, [["Grpc-Timeout", "10S"]])).status).toBe(200);
    expect((await get(main, auth, [["Grpc-Timeout", "0S"]])).status).toBe(200);
    expectError(await get(main, auth, [["Grpc-Timeout", "-1S"]]), 504, 4, "context deadline exceeded");
  });

  it("fails like grpc-go on metadata it cannot send", async () => {
    expectError(
      await get(main, auth, [["User-Agent", "caf\u00e9"]]),
      500,
      13,
      'header key "grpcgateway-user-agent" contains value with non-printable ASCII characters',
    );
    expectError(
      await get(main, auth, [["Grpc-Metadata-A+b", "x"]]),
      500,
      13,
      'header key "a+b" contains illegal characters not in [0-9a-z-_.]',
    );
    expectError(
      await get(main, auth, [["Grpc-Metadata-Foo-Bin", "!!!!"]]),
      400,
      3,
      "invalid binary header Grpc-Metadata-Foo-Bin: illegal base64 data at input byte 0",
    );
    expect((await get(main, auth, [["Grpc-Metadata-Foo-Bin", "AQI"]])).status).toBe(200);
    expect((await get(main, auth, [["X-Other", "caf\u00e9"]])).status).toBe(200);
  });
});

describe("block service routes", () => {
  const TM = "/chain/base/tendermint/v1beta1";
  it("serves the latest block and a block by height", async () => {
    const latest = await get(main, `${TM}/blocks/latest`);
    expect(latest.status).toBe(200);
    const body = JSON.parse(latest.body);
    expect(Object.keys(body)).toEqual(["block_id", "block", "sdk_block"]);
    expect(body.block.header.height).toBe("6");
    expect(body.sdk_block.header.proposer_address).toMatch(/^chainvalcons1/);
    expect(body.block.header.proposer_address).toBe("BwcHBwcHBwcHBwcHBwcHBwcHBwc=");
    const two = JSON.parse((await get(main, `${TM}/blocks/2`)).body);
    expect(two.block.data.txs).toEqual(["AQID"]);
    expect(two.block.last_commit.height).toBe("1");
  });

  it("reports heights beyond the chain as InvalidArgument and non-positive ones as CometBFT errors", async () => {
    expectError(
      await get(main, `${TM}/blocks/9`),
      400,
      3,
      "requested block height is bigger then the chain length",
      HANDLER_ERROR_HEADERS,
    );
    expectError(
      await get(main, `${TM}/blocks/0`),
      500,
      2,
      "height must be greater than 0, but got 0",
      HANDLER_ERROR_HEADERS,
    );
    expectError(
      await get(main, `${TM}/blocks/x`),
      400,
      3,
      'type mismatch, parameter: height, error: strconv.ParseInt: parsing "x": invalid syntax',
    );
  });

  it("serves syncing and node info", async () => {
    expectOk(await get(main, `${TM}/syncing`), '{"syncing":false}', 6);
    const info = JSON.parse((await get(main, `${TM}/node_info`)).body);
    expect(info.default_node_info.network).toBe("api-test");
    expect(info.application_version.cosmos_sdk_version).toBe("v0.50.10");
  });
});

describe("never crashing", () => {
  it("turns a throwing handler into 500 code 13", async () => {
    expectError(await get(broken, `${UP}/applied_plan/x`), 500, 13, "internal error", HANDLER_ERROR_HEADERS);
    expect((await get(broken, `${UP}/authority`)).status).toBe(200);
  });
  it("turns a response it cannot marshal into 500 code 2 after the success headers", async () => {
    const r = await get(broken, `${UP}/current_plan`);
    expect(r.status).toBe(500);
    expect(JSON.parse(r.body)).toEqual({ code: 2, message: "unable to resolve type URL /x.Unknown", details: [] });
    expect(header(r, "x-chain-block-height")).toBe("2");
  });
});

describe("Swagger", () => {
  it("serves the page and the 2.0 document only when enabled", async () => {
    for (const p of ["/swagger", "/swagger/"]) {
      const r = await get(main, p);
      expect(r.status).toBe(200);
      expect(header(r, "content-type")).toBe("text/html; charset=utf-8");
      expect(r.body).toContain("/swagger/swagger.yaml");
    }
    const missing = await get(main, "/swagger/nope.js");
    expect(missing.status).toBe(404);
    expect(header(missing, "content-type")).toBe("text/plain; charset=utf-8");
    expect(missing.body).toBe("404 page not found\n");
    notImplemented(await get(cors, "/swagger/swagger.yaml"));
  });

  it("documents every upgrade route from the descriptors", async () => {
    const { parse } = await import("yaml");
    const r = await get(main, "/swagger/swagger.yaml");
    expect(r.status).toBe(200);
    expect(header(r, "content-type")).toBe("application/yaml");
    const doc = parse(r.body);
    expect(doc.swagger).toBe("2.0");
    expect(doc.info).toEqual({
      title: "Chain SDK - gRPC Gateway docs",
      description: "A REST interface for state queries.",
      version: "1.0.0",
    });
    const op = (p: string) => doc.paths[p].get;
    expect(op(`${UP}/applied_plan/{name}`)).toMatchObject({
      operationId: "AppliedPlan",
      summary: "AppliedPlan queries a previously applied upgrade plan by its name.",
      tags: ["Query"],
      parameters: [{ name: "name", in: "path", required: true, type: "string" }],
    });
    expect(op(`${UP}/applied_plan/{name}`).responses["200"]).toEqual({
      description: "A successful response.",
      schema: { type: "object", properties: { height: { type: "string", format: "int64" } } },
    });
    expect(op(`${UP}/authority`).summary).toBe("Returns the account with authority to conduct upgrades");
    expect(op(`${UP}/authority`).parameters).toBeUndefined();
    const plan = op(`${UP}/current_plan`).responses["200"].schema.properties.plan.properties;
    expect(Object.keys(plan)).toEqual(["name", "time", "height", "info", "upgraded_client_state"]);
    expect(plan.time).toMatchObject({ type: "string", format: "date-time" });
    expect(plan.time.description).toMatch(/^Deprecated/);
    expect(plan.upgraded_client_state.properties).toEqual({
      type_url: { type: "string" },
      value: { type: "string", format: "byte" },
    });
    expect(op(`${UP}/module_versions`).parameters).toEqual([
      { name: "module_name", in: "query", required: false, type: "string" },
    ]);
    expect(
      op(`${UP}/module_versions`).responses["200"].schema.properties.module_versions.items.properties.version,
    ).toEqual({
      type: "string",
      format: "uint64",
    });
    const ucs = op(`${UP}/upgraded_consensus_state/{last_height}`);
    expect(ucs).toMatchObject({ operationId: "UpgradedConsensusState", deprecated: true });
    expect(ucs.parameters).toEqual([
      { name: "last_height", in: "path", required: true, type: "string", format: "int64" },
    ]);
    expect(ucs.responses.default.description).toBe("An unexpected error response.");
    expect(ucs.responses.default.schema.properties.details.items.properties.value).toEqual({
      type: "string",
      format: "byte",
    });
    expect(op(`${UP}/current_plan`).deprecated).toBeUndefined();
  });
});

describe("CORS", () => {
  const auth = `${UP}/authority`;
  const preflight = (headers: Headers) =>
    rawRequest(cors, {
      method: "OPTIONS",
      target: auth,
      headers: [["Origin", "https://app.example"], ...(headers ?? [])],
    });

  it("adds Access-Control-Allow-Origin to every routed response with an Origin", async () => {
    expect(header(await get(cors, auth), "access-control-allow-origin")).toBeUndefined();
    const r = await get(cors, auth, [["Origin", "https://app.example"]]);
    expect(r.status).toBe(200);
    expect(header(r, "access-control-allow-origin")).toBe("*");
    expect(header(await get(cors, `${UP}/nope`, [["Origin", "x"]]), "access-control-allow-origin")).toBe("*");
    const redirect = await get(cors, `/${auth}`, [["Origin", "x"]]);
    expect(redirect.status).toBe(301);
    expect(header(redirect, "access-control-allow-origin")).toBe("*");
  });

  it("answers preflights per gorilla/handlers", async () => {
    const bare = await rawRequest(cors, { method: "OPTIONS", target: auth });
    expect([bare.status, bare.body, header(bare, "access-control-allow-origin")]).toEqual([200, "", undefined]);
    expect((await preflight([])).status).toBe(400);
    expect((await preflight([["Access-Control-Request-Method", "PUT"]])).status).toBe(405);
    expect((await preflight([["Access-Control-Request-Method", "get"]])).status).toBe(405);
    const blocked = await preflight([
      ["Access-Control-Request-Method", "GET"],
      ["Access-Control-Request-Headers", "x-chain-block-height"],
    ]);
    expect([blocked.status, blocked.body]).toEqual([403, ""]);
    const okHeaders = await preflight([
      ["Access-Control-Request-Method", "GET"],
      ["Access-Control-Request-Headers", "content-type, accept,,origin"],
    ]);
    expect(okHeaders.status).toBe(200);
    expect(okHeaders.body).toBe("");
    expect(header(okHeaders, "access-control-allow-headers")).toBe("Content-Type");
    expect(header(okHeaders, "access-control-allow-origin")).toBe("*");
    expect(header(okHeaders, "access-control-allow-methods")).toBeUndefined();
    const plain = await preflight([["Access-Control-Request-Method", "POST"]]);
    expect(plain.status).toBe(200);
    expect(header(plain, "access-control-allow-headers")).toBeUndefined();
  });

  it("is off by default: OPTIONS with an Origin reaches the gateway", async () => {
    const r = await rawRequest(main, {
      method: "OPTIONS",
      target: auth,
      headers: [
        ["Origin", "x"],
        ["Access-Control-Request-Method", "GET"],
      ],
    });
    notImplemented(r);
  });
});

describe("listener limits", () => {
  it("holds connections beyond max-open-connections until one closes", async () => {
    const first = net.connect(limited, "127.0.0.1");
    await new Promise((r) => first.once("connect", r));
    await new Promise((r) => setTimeout(r, 50));
    let answered = false;
    const second = rawRequest(limited, { target: `${UP}/authority` }).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    first.destroy();
    expect((await second).status).toBe(200);
  });

  it("closes a connection that does not send a whole request within rpc-read-timeout", async () => {
    const s = net.connect(limited, "127.0.0.1");
    const started = Date.now();
    s.on("connect", () => s.write("GET / HTTP/1.1\r\nHost: x\r\n"));
    s.on("error", () => {});
    await new Promise((r) => s.once("close", r));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(2500);
  });

  it("re-arms rpc-read-timeout after each response: an active keep-alive connection stays, an idle one closes", async () => {
    const s = net.connect(limited, "127.0.0.1");
    s.on("error", () => {});
    let text = "";
    s.on("data", (c: Buffer) => {
      text += c.toString("latin1");
    });
    const closed = new Promise((r) => s.once("close", r));
    await new Promise((r) => s.once("connect", r));
    // Five requests 400 ms apart: 1.6 s in all, longer than the 1 s deadline, which each response re-arms.
    const answers = () => text.split("HTTP/1.1 200 OK").length - 1;
    for (let i = 1; i <= 5; i++) {
      s.write(`GET ${UP}/authority HTTP/1.1\r\nHost: x\r\n\r\n`);
      const until = Date.now() + 2000;
      while (answers() < i && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      expect(answers()).toBe(i);
      if (i < 5) await new Promise((r) => setTimeout(r, 400));
    }
    // Then idle: closed one deadline after the last response.
    const idleFrom = Date.now();
    const outcome = await Promise.race([closed.then(() => "closed"), new Promise((r) => setTimeout(r, 3000, "open"))]);
    s.destroy();
    expect(outcome).toBe("closed");
    const idle = Date.now() - idleFrom;
    expect(idle).toBeGreaterThanOrEqual(900);
    expect(idle).toBeLessThan(2500);
  });

  it("caps bodies at rpc-max-body-bytes when the form fallback reads one", async () => {
    const form: Headers = [["Content-Type", "application/x-www-form-urlencoded"]];
    const r = await rawRequest(limited, {
      method: "POST",
      target: `${UP}/authority`,
      headers: form,
      body: "module_name=bank",
    });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({ code: 3, message: "http: request body too large", details: [] });
    expect(
      (await rawRequest(limited, { method: "POST", target: `${UP}/authority`, headers: form, body: "a=1" })).status,
    ).toBe(200);
  });
});
