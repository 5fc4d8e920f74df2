import { afterAll, describe, expect, it } from "vitest";
import { loopbackConfig } from "../../test/kit/api.js";
import { rawRequest } from "../../test/kit/http.js";
import { simulatedNode } from "../../test/kit/node-fixture.js";
import { type ApiServers, startApiServers } from "../server/server.js";
import { PRUNE_EVERYTHING } from "../store/pruning.js";
import { inProcessQuery } from "./in-process.js";
import { NODE_JSON, nodeBackend } from "./node-backend.js";

const node = simulatedNode({ untilHeight: 45 });

function get(path: string, height?: number) {
  const r = inProcessQuery(node.backend, { path, ...(height === undefined ? {} : { height }) });
  if (!r.ok) throw new Error(r.error);
  return { status: r.value.status, body: JSON.parse(r.value.body) as Record<string, unknown> };
}

const UP = "/chain/upgrade/v1beta1";

describe("nodeBackend: a simulated node's state at every retained height", () => {
  it("serves the plan before the upgrade, not before the vote ended, and not after the upgrade", () => {
    expect(get(`${UP}/current_plan`, 20).body).toEqual({
      plan: {
        name: "v2",
        time: "0001-01-01T00:00:00Z",
        height: "30",
        info: '{"binaries":{"any":"file:///bin/v2"}}',
        upgraded_client_state: null,
      },
    });
    expect(get(`${UP}/current_plan`, 11).body).toEqual({ plan: null });
    expect(get(`${UP}/current_plan`).body).toEqual({ plan: null });
  });

  it("serves applied heights and module versions as of each height", () => {
    expect(get(`${UP}/applied_plan/v2`).body).toEqual({ height: "30" });
    expect(get(`${UP}/applied_plan/v2`, 29).body).toEqual({ height: "0" });
    expect(get(`${UP}/module_versions?module_name=foo`, 29).body).toEqual({
      module_versions: [{ name: "foo", version: "1" }],
    });
    expect(get(`${UP}/module_versions?module_name=foo`, 30).body).toEqual({
      module_versions: [{ name: "foo", version: "2" }],
    });
  });

  it("renders proposals with their upgrade messages as Any, and gov errors with their gRPC codes", () => {
    const p = get("/chain/gov/v1/proposals/1");
    expect(p.status).toBe(200);
    const proposal = p.body.proposal as Record<string, unknown>;
    expect(proposal.status).toBe("PROPOSAL_STATUS_PASSED");
    expect(proposal.messages).toEqual([
      {
        "@type": "/chain.upgrade.v1beta1.MsgSoftwareUpgrade",
        authority: "chain10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax",
        plan: {
          name: "v2",
          time: "0001-01-01T00:00:00Z",
          height: "30",
          info: '{"binaries":{"any":"file:///bin/v2"}}',
          upgraded_client_state: null,
        },
      },
    ]);
    // Before the proposal was submitted (block 2) there is none.
    expect(get("/chain/gov/v1/proposals/1", 1)).toEqual({
      status: 404,
      body: { code: 5, message: "proposal 1 doesn't exist", details: [] },
    });
    expect(get("/chain/gov/v1/proposals/0")).toEqual({
      status: 400,
      body: { code: 3, message: "proposal id can not be 0", details: [] },
    });
    expect(get("/chain/gov/v1/proposals").body.proposals).toHaveLength(1);
    // Votes are deleted when the tally runs (block 12); during the voting period they are there.
    expect(get("/chain/gov/v1/proposals/1/votes").body.votes).toEqual([]);
    expect(get("/chain/gov/v1/proposals/1/votes", 10).body.votes).toHaveLength(2);
    expect(get("/chain/gov/v1/params/voting").body.voting_params).toEqual({ voting_period: "60s" });
    const tally = get("/chain/gov/v1/proposals/1/tally").body.tally as Record<string, string>;
    expect(tally.yes_count).toBe("200");
  });

  it("paginates the gov list queries as CollectionPaginate does: a total without a request, limit, key, reverse", () => {
    expect(get("/chain/gov/v1/proposals").body.pagination).toEqual({ next_key: null, total: "1" });
    expect(get("/chain/gov/v1/proposals/1/deposits", 10).body.pagination).toEqual({ next_key: null, total: "1" });
    const all = get("/chain/gov/v1/proposals/1/votes", 10).body;
    expect(all.pagination).toEqual({ next_key: null, total: "2" });
    const voters = (all.votes as { voter: string }[]).map((v) => v.voter);
    const first = get("/chain/gov/v1/proposals/1/votes?pagination.limit=1", 10).body;
    expect((first.votes as { voter: string }[]).map((v) => v.voter)).toEqual([voters[0]]);
    // next_key is the length-prefixed address of the second voter (sdk.LengthPrefixedAddressKey), base64
    const nextKey = (first.pagination as { next_key: string }).next_key;
    expect(Buffer.from(nextKey, "base64")[0]).toBe(20);
    expect(first.pagination).toEqual({ next_key: nextKey, total: "0" });
    const second = get(`/chain/gov/v1/proposals/1/votes?pagination.key=${encodeURIComponent(nextKey)}`, 10).body;
    expect((second.votes as { voter: string }[]).map((v) => v.voter)).toEqual([voters[1]]);
    const reversed = get("/chain/gov/v1/proposals/1/votes?pagination.reverse=true&pagination.count_total=true", 10);
    expect((reversed.body.votes as { voter: string }[]).map((v) => v.voter)).toEqual([...voters].reverse());
    expect(get("/chain/gov/v1/proposals?pagination.offset=1&pagination.count_total=true").body).toEqual({
      proposals: [],
      pagination: { next_key: null, total: "1" },
    });
    expect(get(`/chain/gov/v1/proposals?pagination.offset=1&pagination.key=AQ%3D%3D`)).toEqual({
      status: 500,
      body: { code: 13, message: "invalid request, either offset or key is expected, got both", details: [] },
    });
  });

  it("counts the current votes of a proposal in its voting period with the scenario's validators", () => {
    const voting = simulatedNode({ untilHeight: 8 });
    const r = inProcessQuery(voting.backend, { path: "/chain/gov/v1/proposals/1/tally" });
    expect(r.ok && JSON.parse(r.value.body)).toEqual({
      tally: { yes_count: "200", abstain_count: "0", no_count: "0", no_with_veto_count: "0" },
    });
  });

  it("serves blocks only up to the node's own height, with node info naming the chain and the binary", () => {
    const b = get("/chain/base/tendermint/v1beta1/blocks/30");
    expect(b.status).toBe(200);
    const header = (b.body.block as { header: Record<string, unknown> }).header;
    expect(header.height).toBe("30");
    expect(header.chain_id).toBe("chain-sim-1");
    const info = get("/chain/base/tendermint/v1beta1/node_info").body;
    expect((info.default_node_info as Record<string, unknown>).network).toBe("chain-sim-1");
    expect((info.default_node_info as Record<string, unknown>).moniker).toBe("val1");
    expect((info.application_version as Record<string, unknown>).version).toBe("v2");
    expect(get("/chain/base/tendermint/v1beta1/syncing").body).toEqual({ syncing: false });
  });

  it("knows no block beyond the node's height", () => {
    const s = simulatedNode({ untilHeight: 20 });
    const r = inProcessQuery(s.backend, { path: "/chain/base/tendermint/v1beta1/blocks/latest" });
    expect(r.ok && (JSON.parse(r.value.body).block.header.height as string)).toBe("20");
    const beyond = inProcessQuery(s.backend, { path: "/chain/base/tendermint/v1beta1/blocks/21" });
    expect(beyond.ok && beyond.value.status).toBe(400);
  });

  it("applies the node's pruning: pruned heights fail with the store error", () => {
    const pruned = simulatedNode({ untilHeight: 45, pruning: PRUNE_EVERYTHING });
    expect(pruned.backend.earliestHeight()).toBe(38);
    const r = inProcessQuery(pruned.backend, { path: `${UP}/current_plan`, height: 37 });
    expect(r.ok && r.value.status).toBe(500);
    expect(r.ok && JSON.parse(r.value.body).message).toBe(
      "codespace sdk code 38: not found: failed to load state at height 37; version mismatch on immutable IAVL tree; version does not exist. Version has either been pruned, or is for a future block height (latest height: 45)",
    );
    const kept = inProcessQuery(pruned.backend, { path: `${UP}/applied_plan/v2`, height: 38 });
    expect(kept.ok && kept.value.body).toBe('{"height":"30"}');
  });

  it("rejects an unknown node", () => {
    expect(nodeBackend(node.sim, "nobody")).toEqual({
      ok: false,
      error: { kind: "plain", message: 'unknown node "nobody"' },
    });
  });
});

describe("in-process queries use the HTTP pipeline", () => {
  const running: ApiServers[] = [];
  afterAll(async () => {
    await Promise.all(running.map((s) => s.close()));
  });

  it("answers exactly what the REST server answers (status, headers, body)", async () => {
    const r = await startApiServers(loopbackConfig("", "enable = false"), node.backend, { json: NODE_JSON });
    if (!r.ok) throw new Error(r.error.message);
    running.push(r.value);
    const port = Number(new URL(r.value.restUrl!).port);
    const cases: { path: string; headers: [string, string][] }[] = [
      { path: `${UP}/current_plan`, headers: [["x-chain-block-height", "20"]] },
      { path: `${UP}/module_versions?module_name=bar`, headers: [] },
      { path: `${UP}/current_plan`, headers: [["x-chain-block-height", "abc"]] },
      {
        path: `${UP}/current_plan`,
        headers: [
          ["x-chain-block-height", "3"],
          ["Grpc-Metadata-X-Chain-Block-Height", "20"],
        ],
      },
      { path: "/chain/gov/v1/proposals/1", headers: [] },
      { path: "/chain/gov/v1/proposals/x", headers: [] },
      { path: `${UP}//current_plan`, headers: [] },
      { path: "/nope", headers: [] },
    ];
    for (const c of cases) {
      const http = await rawRequest(port, { target: c.path, headers: c.headers });
      const local = inProcessQuery(node.backend, { path: c.path, headers: c.headers });
      if (!local.ok) throw new Error(local.error);
      expect({ path: c.path, status: local.value.status, body: local.value.body }).toEqual({
        path: c.path,
        status: http.status,
        body: http.body,
      });
      const names = (h: readonly (readonly [string, string])[]) =>
        h.filter(([k]) => !["date", "connection", "content-length", "keep-alive"].includes(k.toLowerCase()));
      expect(names(local.value.headers)).toEqual(names(http.headers));
    }
  });
});
