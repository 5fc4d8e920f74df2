import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loopbackConfig } from "../../../test/kit/api.js";
import { simulatedNode } from "../../../test/kit/node-fixture.js";
import { type ApiServers, startApiServers } from "../../server/server.js";
import { NODE_JSON } from "../node-backend.js";

// docs/node-api.md §5 "Must work": buf curl (from node_modules/.bin, the pinned @bufbuild/buf) against a live server,
// using server reflection for the schema.
const run = promisify(execFile);
const BUF = "node_modules/.bin/buf";

let servers: ApiServers;
let base: string;
beforeAll(async () => {
  const node = simulatedNode({ untilHeight: 45 });
  const r = await startApiServers(loopbackConfig(), node.backend, { json: NODE_JSON });
  if (!r.ok) throw new Error(r.error.message);
  servers = r.value;
  base = `http://${r.value.grpcAddress}`;
});
afterAll(async () => {
  await servers.close();
});

const curl = (...args: string[]) =>
  run(BUF, ["curl", "--protocol", "grpc", "--http2-prior-knowledge", ...args], { timeout: 30_000 });

describe("buf curl against the gRPC server", () => {
  it("lists every served method through reflection", async () => {
    const { stdout } = await curl("--list-methods", base);
    const methods = stdout.trim().split("\n");
    expect(methods).toContain("chain.upgrade.v1beta1.Query/CurrentPlan");
    expect(methods).toContain("chain.upgrade.v1beta1.Query/ModuleVersions");
    expect(methods).toContain("chain.gov.v1.Query/Proposal");
    expect(methods).toContain("chain.base.tendermint.v1beta1.Service/GetBlockByHeight");
    expect(methods).toContain("grpc.reflection.v1.ServerReflection/ServerReflectionInfo");
  });

  it("calls CurrentPlan at a height given as x-chain-block-height and gets protojson back", async () => {
    const at20 = await curl("-H", "x-chain-block-height: 20", `${base}/chain.upgrade.v1beta1.Query/CurrentPlan`);
    expect(JSON.parse(at20.stdout)).toEqual({
      plan: { name: "v2", time: "0001-01-01T00:00:00Z", height: "30", info: '{"binaries":{"any":"file:///bin/v2"}}' },
    });
    const latest = await curl(`${base}/chain.upgrade.v1beta1.Query/CurrentPlan`);
    expect(JSON.parse(latest.stdout)).toEqual({});
  });

  it("prints a gov Proposal, whose messages are Anys, through reflection alone", async () => {
    const { stdout } = await curl("-d", '{"proposal_id":"1"}', `${base}/chain.gov.v1.Query/Proposal`);
    const proposal = JSON.parse(stdout).proposal;
    expect(proposal.messages[0]).toMatchObject({
      "@type": "/chain.upgrade.v1beta1.MsgSoftwareUpgrade",
      plan: { name: "v2", height: "30" },
    });
  });

  it("prints bank balances through reflection", async () => {
    const { stdout } = await curl("-d", '{"denom":"stake"}', `${base}/chain.bank.v1beta1.Query/SupplyOf`);
    expect(JSON.parse(stdout).amount.denom).toBe("stake");
  });

  it("reports an SDK error as code unknown with the SDK message", async () => {
    const failed = await curl("-d", '{"module_name":"bar"}', `${base}/chain.upgrade.v1beta1.Query/ModuleVersions`).then(
      () => undefined,
      (e: { stderr: string }) => e.stderr,
    );
    expect(failed).toContain("unknown");
    expect(failed).toContain("x/upgrade: QueryModuleVersions module bar not found");
  });
});
