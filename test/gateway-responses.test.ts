import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nodeBackend } from "../src/api/node-backend.js";
import { MemBackend } from "../src/store/mem-backend.js";
import { VersionedMultiStore } from "../src/store/versioned.js";
import {
  GATEWAY_GOLDEN_FILE,
  gatewayGolden,
  goldenNode,
  goldenRequests,
  inProcessDigests,
} from "./kit/gateway-responses.js";
import { PlainBackend } from "./kit/plain-backend.js";

/**
 * The REST gateway answers byte for byte as before its uncached path was optimised (docs/performance.md, "The REST
 * gateway"): in process and over HTTP, over every route, 16 heights (past, upgrade boundary, latest, future,
 * malformed) and header variants. And the store's latin1 read path (the in-memory backend) answers exactly as its
 * byte-array path does, through the whole gateway.
 */

describe("the gateway's answers", () => {
  it("equal the pinned digests, in process and over HTTP", async () => {
    const golden = JSON.parse(readFileSync(GATEWAY_GOLDEN_FILE, "utf8")) as Awaited<ReturnType<typeof gatewayGolden>>;
    const now = await gatewayGolden();
    expect(Object.keys(now.inProcess).length).toBeGreaterThan(600);
    expect(now.inProcess).toEqual(golden.inProcess);
    expect(now.http).toEqual(golden.http);
  }, 60_000);

  it("are the same read through the store's latin1 path and its byte-array path", () => {
    const node = goldenNode();
    const requests = goldenRequests(node.sim.cfg.bech32Prefix);
    const fast = inProcessDigests(node.backend, requests);
    // The same node with its store's content behind the bare backend interface.
    const state = node.sim.nodeState("val1")!;
    const snap = state.store.snapshot();
    const plain = new VersionedMultiStore({
      storeNames: snap.mounted,
      pruning: snap.pruning,
      backend: new PlainBackend(MemBackend.fromImage(snap.tree)),
    });
    expect(plain.latestVersion()).toBe(state.store.latestVersion());
    state.store = plain;
    const slow = nodeBackend(node.sim, "val1", { validators: node.scenario.chain.validators });
    if (!slow.ok) throw new Error(slow.error.message);
    expect(inProcessDigests(slow.value, requests)).toEqual(fast);
  });
});
