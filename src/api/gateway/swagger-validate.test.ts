import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loopbackConfig, standardBackend } from "../../../test/kit/api.js";
import { simulatedNode } from "../../../test/kit/node-fixture.js";
import { type ApiServers, startApiServers } from "../../server/server.js";
import { NODE_JSON } from "../node-backend.js";
import { buildRoutes } from "./routes.js";
import { swaggerDocument } from "./swagger.js";

const running: ApiServers[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
});

describe("Swagger 2.0 document (docs/node-api.md §3)", () => {
  it("the served swagger.yaml of a simulated node (upgrade, gov and block services) passes SwaggerParser.validate", async () => {
    const node = simulatedNode({ untilHeight: 15 });
    const r = await startApiServers(loopbackConfig("swagger = true", "enable = false"), node.backend, {
      json: NODE_JSON,
    });
    if (!r.ok) throw new Error(r.error.message);
    running.push(r.value);
    const res = await fetch(`${r.value.restUrl}/swagger/swagger.yaml`);
    expect(res.status).toBe(200);
    const doc = parse(await res.text()) as Record<string, unknown>;
    const api = await SwaggerParser.validate(structuredClone(doc) as never);
    expect(api.info.title).toBe("Chain SDK - gRPC Gateway docs");
    const paths = Object.keys(doc.paths as object);
    expect(paths).toContain("/chain/upgrade/v1beta1/current_plan");
    expect(paths).toContain("/chain/gov/v1/proposals/{proposal_id}");
    expect(paths).toContain("/chain/base/tendermint/v1beta1/blocks/{height}");
  });

  it("the upgrade-only document passes too, and a broken one does not (the validator is really checking)", async () => {
    const routes = buildRoutes(standardBackend().services);
    if (!routes.ok) throw new Error(routes.error);
    const doc = swaggerDocument(routes.value);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
    const broken = structuredClone(doc) as { paths: Record<string, { get: { parameters?: unknown[] } }> };
    // A path parameter that is not required is invalid Swagger 2.0.
    broken.paths["/chain/upgrade/v1beta1/applied_plan/{name}"]!.get.parameters = [
      { name: "name", in: "path", required: false, type: "string" },
    ];
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow();
  });
});
