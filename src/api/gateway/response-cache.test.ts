import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backendOf, ctxAt, newKeeper, upgradeChain } from "../../../test/kit/api.js";
import { makePlan } from "../../upgrade/plan.js";
import { Gateway } from "./gateway.js";

const get = (g: Gateway, target: string, headers: string[] = []) =>
  g.handleWithoutBody({ method: "GET", target, rawHeaders: ["Host", "x", ...headers] })!;

function gatewayOver(state: ReturnType<typeof upgradeChain>): Gateway {
  const created = Gateway.create(backendOf(state), { swagger: false, cors: false });
  if (!created.ok) throw new Error(created.error);
  return created.value;
}

describe("the gateway's response cache", () => {
  it("returns what the pipeline computes, and follows new commits (the latest height is part of the key)", () => {
    const state = upgradeChain(6);
    const g = gatewayOver(state);
    const first = get(g, "/chain/upgrade/v1beta1/current_plan");
    const second = get(g, "/chain/upgrade/v1beta1/current_plan");
    expect(second).not.toBe(first); // computed again: a first miss is not stored
    expect(second).toEqual(first);
    expect(get(g, "/chain/upgrade/v1beta1/current_plan")).toBe(second); // the cached object from the third on
    expect(first.body).toBe('{"plan":null}');
    // A new block schedules a plan: the latest height moves, so the same request is computed again.
    newKeeper().scheduleUpgrade(ctxAt(state, 7), makePlan({ name: "v3", height: 20n }));
    state.commit();
    const after = get(g, "/chain/upgrade/v1beta1/current_plan");
    expect(after.body).toContain('"name":"v3"');
    // Historical reads are unaffected and still exact.
    const old = get(g, "/chain/upgrade/v1beta1/current_plan", ["x-chain-block-height", "3"]);
    expect(old.body).toContain('"name":"v2"');
    expect(old.headers).toContainEqual(["X-Chain-Block-Height", "3"]);
  });

  it("stores an answer at its second miss within 1,024 misses: a sweep neither fills the cache nor evicts", () => {
    const g = gatewayOver(upgradeChain(6));
    const hot = "/chain/upgrade/v1beta1/module_versions";
    get(g, hot);
    const cached = get(g, hot);
    const bytesHot = g.cacheBytes;
    expect(bytesHot).toBeGreaterThan(0);
    // 1,100 distinct requests, each once (more than the cache holds; User-Agent is part of the key): none is
    // stored, the hot answer stays.
    const ua = (s: string) => ["User-Agent", s];
    for (let i = 0; i < 1100; i++) expect(get(g, hot, ua(`m${i}`)).status).toBe(200);
    expect(g.cacheBytes).toBe(bytesHot);
    expect(get(g, hot)).toBe(cached);
    // A request asked again within the window is stored at its second miss.
    const second = get(g, hot, ua("m1099"));
    expect(g.cacheBytes).toBeGreaterThan(bytesHot);
    expect(get(g, hot, ua("m1099"))).toBe(second);
    // One asked again after more than 1,024 other misses is not: its first miss has left the window.
    for (let i = 0; i < 1100; i++) get(g, hot, ua(`n${i}`));
    const bytes = g.cacheBytes;
    get(g, hot, ua("n0"));
    expect(g.cacheBytes).toBe(bytes);
  });

  it("answers every request exactly as the uncached pipeline does, whether it misses, is admitted or hits", () => {
    const g = gatewayOver(upgradeChain(6));
    const target = fc.constantFrom(
      "/chain/upgrade/v1beta1/current_plan",
      "/chain/upgrade/v1beta1/module_versions",
      "/chain/upgrade/v1beta1/module_versions?module_name=bank",
      "/chain/upgrade/v1beta1/module_versions?module_name=%zz",
      "/chain/upgrade/v1beta1/applied_plan/v2",
      "/chain/upgrade/v1beta1/applied_plan/v%32",
      "/chain/upgrade//v1beta1/authority",
      "/chain/upgrade/v1beta1/authority:get",
      "/chain/upgrade/v1beta1/nothing",
      "/chain/./upgrade/v1beta1/current_plan?",
    );
    const header = fc.constantFrom(
      ["x-chain-block-height", "3"],
      ["X-Chain-Block-Height", "5"],
      ["x-chain-block-height", "-1"],
      ["x-chain-block-height", "99"],
      ["Grpc-Metadata-X-Chain-Block-Height", "2"],
      ["User-Agent", "a"],
      ["User-Agent", "b\u00e9"],
      ["Grpc-Timeout", "1S"],
      ["Grpc-Timeout", "-1S"],
      ["Grpc-Metadata-Foo-Bin", "!!"],
      ["Grpc-Metadata-Bad Key", "x"],
      ["X-Trace", "1"],
    );
    const request = fc.record({ target, headers: fc.array(header, { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 30 }), (requests) => {
        for (const { target, headers } of requests) {
          const head = { method: "GET", target, rawHeaders: ["Host", "x", ...headers.flat()] };
          const expected = g.handleRead({ ...head, body: { ok: true, value: "" } });
          expect(g.handleWithoutBody(head)).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});
