import { execFile } from "node:child_process";
import { promisify } from "node:util";
import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loopbackConfig } from "../../test/kit/api.js";
import { simulatedNode } from "../../test/kit/node-fixture.js";
import { type ApiServers, startApiServers } from "../server/server.js";
import { NODE_JSON } from "./node-backend.js";
import { RpcHandler } from "./rpc/handler.js";
import { simRpcSource } from "./rpc/sim-source.js";
import { wireBackend } from "./wire.js";

// The `cosmos` wire namespace on `chainsim serve`'s servers (docs/node-api.md §0): the reference's service names,
// reflection, REST paths, height header, Swagger and type URLs inside Any, from the one set of generated code.
const run = promisify(execFile);
const BUF = "node_modules/.bin/buf";

let servers: ApiServers;
let grpc: string;
let rest: string;
let rpc: RpcHandler;
beforeAll(async () => {
  const node = simulatedNode({ untilHeight: 45 });
  const backend = wireBackend(node.backend, "cosmos");
  const r = await startApiServers({ ...loopbackConfig("swagger = true"), namespace: "cosmos" }, backend, {
    json: NODE_JSON,
  });
  if (!r.ok) throw new Error(r.error.message);
  servers = r.value;
  grpc = `http://${r.value.grpcAddress}`;
  rest = r.value.restUrl!;
  rpc = new RpcHandler(simRpcSource(node.sim, "val1", backend, [], ""));
});
afterAll(async () => {
  await servers.close();
});

const curl = (...args: string[]) =>
  run(BUF, ["curl", "--protocol", "grpc", "--http2-prior-knowledge", ...args], { timeout: 60_000 });

describe("cosmos namespace: gRPC and reflection (buf curl)", () => {
  it("lists the reference's service names only", async () => {
    const methods = (await curl("--list-methods", grpc)).stdout.trim().split("\n");
    expect(methods).toContain("cosmos.upgrade.v1beta1.Query/CurrentPlan");
    expect(methods).toContain("cosmos.gov.v1.Query/Proposal");
    expect(methods).toContain("cosmos.bank.v1beta1.Query/AllBalances");
    expect(methods).toContain("cosmos.base.tendermint.v1beta1.Service/GetBlockByHeight");
    expect(methods.filter((m) => m.startsWith("chain."))).toEqual([]);
  });

  it("honours x-cosmos-block-height, and prints a gov Proposal with /cosmos type URLs inside Any", async () => {
    const at20 = await curl("-H", "x-cosmos-block-height: 20", `${grpc}/cosmos.upgrade.v1beta1.Query/CurrentPlan`);
    expect(JSON.parse(at20.stdout).plan).toMatchObject({ name: "v2", height: "30" });
    const { stdout } = await curl("-d", '{"proposal_id":"1"}', `${grpc}/cosmos.gov.v1.Query/Proposal`);
    expect(JSON.parse(stdout).proposal.messages[0]).toMatchObject({
      "@type": "/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade",
      plan: { name: "v2", height: "30" },
    });
  });

  it("every listed method resolves through reflection alone: each answers protojson or a gRPC status", async () => {
    const methods = (await curl("--list-methods", grpc)).stdout.trim().split("\n");
    const queries = methods.filter((m) => m.startsWith("cosmos."));
    expect(queries.length).toBeGreaterThan(20);
    const outcomes: { m: string; ok: boolean; out: string }[] = [];
    const call = (m: string) =>
      curl("-d", "{}", `${grpc}/${m}`).then(
        (r) => ({ m, ok: true, out: r.stdout }),
        (e: { stderr?: string }) => ({ m, ok: false, out: e.stderr ?? "" }),
      );
    // Four buf processes at a time (a bound on the work the shared machine runs at once).
    for (let i = 0; i < queries.length; i += 4)
      outcomes.push(...(await Promise.all(queries.slice(i, i + 4).map(call))));
    for (const o of outcomes) {
      // A failure is the server's status (InvalidArgument for an empty request, ...), never a reflection gap.
      if (o.ok) expect(() => JSON.parse(o.out), o.m).not.toThrow();
      else expect(o.out, o.m).toMatch(/^\{\s*"code":/);
    }
  });

  it("a chain name is an unknown service", async () => {
    await expect(curl(`${grpc}/chain.upgrade.v1beta1.Query/CurrentPlan`)).rejects.toThrow(
      /failed to find service named "chain.upgrade.v1beta1.Query"/,
    );
  });
});

describe("cosmos namespace: REST, Swagger and abci_query", () => {
  it("serves /cosmos/... with X-Cosmos-Block-Height and /cosmos type URLs; /chain/... is not a route", async () => {
    const res = await fetch(`${rest}/cosmos/gov/v1/proposals/1`, { headers: { "x-cosmos-block-height": "25" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-cosmos-block-height")).toBe("25");
    expect(res.headers.get("grpc-metadata-x-cosmos-block-height")).toBe("25");
    const body = (await res.json()) as { proposal: { messages: { "@type": string }[] } };
    expect(body.proposal.messages[0]!["@type"]).toBe("/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade");
    expect((await fetch(`${rest}/chain/gov/v1/proposals/1`)).status).toBe(501);
    const bad = await fetch(`${rest}/cosmos/upgrade/v1beta1/current_plan`, {
      headers: { "x-cosmos-block-height": "x" },
    });
    expect(((await bad.json()) as { message: string }).message).toContain(
      'invalid height header "x-cosmos-block-height"',
    );
  });

  it("the Swagger document names the cosmos paths and validates", async () => {
    const doc = parse(await (await fetch(`${rest}/swagger/swagger.yaml`)).text()) as { paths: object };
    const api = await SwaggerParser.validate(structuredClone(doc) as never);
    expect(api.info.title).toBe("Cosmos SDK - gRPC Gateway docs");
    const paths = Object.keys(doc.paths);
    expect(paths).toContain("/cosmos/upgrade/v1beta1/current_plan");
    expect(paths).toContain("/cosmos/bank/v1beta1/balances/{address}");
    expect(paths.filter((p) => !p.startsWith("/cosmos/"))).toEqual([]);
  });

  it("abci_query takes the cosmos method paths; the chain ones are unknown", async () => {
    const ask = async (path: string) => {
      const r = await rpc.handle({
        method: "POST",
        target: "/",
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "abci_query", params: { path, data: "" } }),
      });
      return JSON.parse(r.body).result.response as { code: number; value: string | null };
    };
    const plan = await ask("/cosmos.upgrade.v1beta1.Query/Authority");
    expect(plan.code).toBe(0);
    expect(Buffer.from(plan.value!, "base64").toString("latin1")).toContain(
      "chain10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax",
    );
    expect((await ask("/chain.upgrade.v1beta1.Query/Authority")).code).toBe(6);
  });
});
