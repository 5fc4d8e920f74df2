import { describe, expect, it } from "vitest";
import { backendOf, ctxAt, newKeeper, upgradeChain } from "../../../test/kit/api.js";
import { makePlan } from "../../upgrade/plan.js";
import { Gateway } from "./gateway.js";

const get = (g: Gateway, target: string, headers: string[] = []) =>
  g.handleWithoutBody({ method: "GET", target, rawHeaders: ["Host", "x", ...headers] })!;

describe("the gateway's response cache", () => {
  it("returns what the pipeline computes, and follows new commits (the latest height is part of the key)", () => {
    const state = upgradeChain(6);
    const created = Gateway.create(backendOf(state), { swagger: false, cors: false });
    if (!created.ok) throw new Error(created.error);
    const g = created.value;
    const first = get(g, "/chain/upgrade/v1beta1/current_plan");
    expect(get(g, "/chain/upgrade/v1beta1/current_plan")).toBe(first); // the cached object
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
});
