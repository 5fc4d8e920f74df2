import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { UNCACHED_HEIGHTS, UNCACHED_ROUTES } from "../bench/api-requests.js";
import { Gateway } from "../src/api/gateway/gateway.js";
import { runQuery } from "../src/api/height.js";
import { gatewayJsonReference } from "../src/api/json.js";
import { NODE_JSON, nodeBackend } from "../src/api/node-backend.js";
import { addressOfName } from "../src/core/address.js";
import { MemBackend } from "../src/store/mem-backend.js";
import { VersionedMultiStore } from "../src/store/versioned.js";
import { simulatedNode } from "./kit/node-fixture.js";
import { PlainBackend } from "./kit/plain-backend.js";

/**
 * The bench's uncached REST requests (bench/api-requests.ts: module_versions, gov's proposal 1 and proposals list,
 * bank's balances of val1) at every height of the bench's fixture chain: the body the gateway answers (the store's latin1 scan, the
 * lazily mounted view, the compiled JSON writers) equals the body of the path they replaced: the same query over
 * the store's byte-array path (the content behind the bare backend interface) rendered by the reflective renderer.
 */

const METHODS: Record<string, { readonly method: string; readonly request: (val1: string) => object }> = {
  uncached_module_versions: { method: "ModuleVersions", request: () => ({}) },
  uncached_gov_proposal: { method: "Proposal", request: () => ({ proposalId: 1n }) },
  uncached_gov_proposals: { method: "Proposals", request: () => ({}) },
  uncached_bank_balances: { method: "AllBalances", request: (val1) => ({ address: val1 }) },
};

describe("uncached REST answers at every height of the bench's fixture", () => {
  it("equal the byte-array store read rendered by the reflective renderer", () => {
    const node = simulatedNode({ untilHeight: UNCACHED_HEIGHTS });
    const gw = Gateway.create(node.backend, { cors: false, swagger: false, json: NODE_JSON });
    if (!gw.ok) throw new Error(gw.error);
    const val1 = addressOfName("val1", node.sim.cfg.bech32Prefix);
    const fast = new Map<string, string>();
    for (const r of UNCACHED_ROUTES) {
      const path = r.path.replace("{val1}", val1);
      for (let h = r.first; h <= UNCACHED_HEIGHTS; h++) {
        const res = gw.value.handleWithoutBody({
          method: "GET",
          target: path,
          rawHeaders: ["X-Chain-Block-Height", String(h)],
        });
        expect(res?.status).toBe(200);
        fast.set(`${r.bench}@${h}`, String(res!.body));
      }
    }
    // The same node with its store's content behind the bare backend interface (the byte-array read path).
    const state = node.sim.nodeState("val1")!;
    const snap = state.store.snapshot();
    state.store = new VersionedMultiStore({
      storeNames: snap.mounted,
      pruning: snap.pruning,
      backend: new PlainBackend(MemBackend.fromImage(snap.tree)),
    });
    const slow = nodeBackend(node.sim, "val1", { validators: node.scenario.chain.validators });
    if (!slow.ok) throw new Error(slow.error.message);
    let compared = 0;
    for (const r of UNCACHED_ROUTES) {
      const route = gw.value.routes.find((x) => x.method.name === METHODS[r.bench]!.method && x.httpMethod === "GET")!;
      const handler = slow.value.services
        .find((s) => s.service.typeName === route.service.typeName)!
        .handlers.get(route.method.name)!;
      for (let h = r.first; h <= UNCACHED_HEIGHTS; h++) {
        const request = create(route.method.input, METHODS[r.bench]!.request(val1) as never);
        const out = runQuery(slow.value, handler, request, [String(h)]);
        if (!out.ok) throw new Error(`${r.bench}@${h}: ${out.status.message}`);
        expect(fast.get(`${r.bench}@${h}`), `${r.bench}@${h}`).toBe(
          gatewayJsonReference(route.method.output, out.response, NODE_JSON),
        );
        compared++;
      }
    }
    expect(compared).toBe(4 * UNCACHED_HEIGHTS - 1);
  }, 120_000);
});
