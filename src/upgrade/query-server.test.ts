import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { newUpgradeEnv } from "../../test/kit/upgrade.js";
import { govAuthority } from "../core/address.js";
import { errorText, grpcMessage } from "../core/errors.js";
import {
  QueryAppliedPlanRequestSchema,
  QueryAuthorityRequestSchema,
  QueryCurrentPlanRequestSchema,
  QueryModuleVersionsRequestSchema,
  QueryUpgradedConsensusStateRequestSchema,
} from "../gen/chain/upgrade/v1beta1/query_pb.js";
import { makePlan } from "./plan.js";
import { newQueryServer } from "./query-server.js";

const setup = () => {
  const env = newUpgradeEnv();
  return { ...env, q: newQueryServer(env.keeper), ctx: env.ctxAt(20) };
};

describe("Query service (docs/fidelity.md §2.9)", () => {
  it("CurrentPlan: no plan gives an empty response, else the plan", () => {
    const { q, ctx, keeper } = setup();
    const empty = q.currentPlan(ctx, create(QueryCurrentPlanRequestSchema));
    expect(empty.ok && empty.value.plan).toBeUndefined();
    keeper.scheduleUpgrade(ctx, makePlan({ name: "v2", height: 30n, info: "i" }));
    const r = q.currentPlan(ctx, create(QueryCurrentPlanRequestSchema));
    expect(r.ok && [r.value.plan?.name, r.value.plan?.height, r.value.plan?.info]).toEqual(["v2", 30n, "i"]);
  });
  it("AppliedPlan: the done height, 0 for an unknown name", () => {
    const { q, keeper, ctxAt } = setup();
    keeper.setDone(ctxAt(11), "v2");
    const r = q.appliedPlan(ctxAt(20), create(QueryAppliedPlanRequestSchema, { name: "v2" }));
    expect(r.ok && r.value.height).toBe(11n);
    const u = q.appliedPlan(ctxAt(20), create(QueryAppliedPlanRequestSchema, { name: "nope" }));
    expect(u).toMatchObject({ ok: true, value: { height: 0n } });
  });
  it("UpgradedConsensusState: the bytes, or an empty response", () => {
    const { q, keeper, ctx } = setup();
    keeper.setUpgradedConsensusState(ctx, 7n, Uint8Array.of(9, 8));
    const r = q.upgradedConsensusState(ctx, create(QueryUpgradedConsensusStateRequestSchema, { lastHeight: 7n }));
    expect(r.ok && r.value.upgradedConsensusState).toEqual(Uint8Array.of(9, 8));
    const e = q.upgradedConsensusState(ctx, create(QueryUpgradedConsensusStateRequestSchema, { lastHeight: 8n }));
    expect(e.ok && e.value.upgradedConsensusState).toEqual(new Uint8Array());
  });
  it("ModuleVersions: all in byte order, an empty list, or one named module", () => {
    const { q, keeper, ctx } = setup();
    const none = q.moduleVersions(ctx, create(QueryModuleVersionsRequestSchema));
    expect(none.ok && none.value.moduleVersions).toEqual([]);
    keeper.setModuleVersionMap(
      ctx,
      new Map([
        ["bank", 2n],
        ["Auth", 1n],
      ]),
    );
    const all = q.moduleVersions(ctx, create(QueryModuleVersionsRequestSchema));
    expect(all.ok && all.value.moduleVersions.map((m) => [m.name, m.version])).toEqual([
      ["Auth", 1n],
      ["bank", 2n],
    ]);
    const one = q.moduleVersions(ctx, create(QueryModuleVersionsRequestSchema, { moduleName: "bank" }));
    expect(one.ok && one.value.moduleVersions.map((m) => [m.name, m.version])).toEqual([["bank", 2n]]);
  });
  it("ModuleVersions: an unknown module fails with the reference texts", () => {
    const { q, ctx } = setup();
    const r = q.moduleVersions(ctx, create(QueryModuleVersionsRequestSchema, { moduleName: "foo" }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(errorText(r.error)).toBe("x/upgrade: QueryModuleVersions module foo not found: module version not found");
    expect(grpcMessage(r.error)).toBe(
      "codespace upgrade code 2: module version not found: x/upgrade: QueryModuleVersions module foo not found",
    );
  });
  it("Authority: the keeper's authority", () => {
    const { q, ctx } = setup();
    const r = q.authority(ctx, create(QueryAuthorityRequestSchema));
    expect(r.ok && r.value.address).toBe(govAuthority());
  });
});
