import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { predict } from "../../models/oracle.js";
import type { QueryBackend } from "../api/backend.js";
import { nodeBackend } from "../api/node-backend.js";
import { ok } from "../core/errors.js";
import { Query, type QueryModuleVersionsResponse } from "../gen/chain/upgrade/v1beta1/query_pb.js";
import { ModuleVersionSchema } from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { type CommandData, runCommand } from "./commands.js";
import { conformance } from "./conformance.js";
import { Session } from "./session.js";
import type { SessionView } from "./session-view.js";
import {
  type BackendOf,
  expectedAnswers,
  noneServed,
  serveUpgradeQuery,
  upgradeQueryDiffs,
} from "./upgrade-queries.js";

/** A chain that scheduled `v2` by the authority, reached it, swapped every validator to `v2` and applied it. */
function upgradedToV2(): Session {
  const s = new Session({ seed: 5 });
  const cmds: CommandData[] = [
    { kind: "emergency-upgrade", name: "v2", offset: 2 },
    { kind: "advance-to-plan", delta: 0 },
    { kind: "swap-all", binary: "v2" },
    { kind: "advance", blocks: 2 },
  ];
  for (const c of cmds) runCommand(s, c, undefined);
  return s;
}

const backendOf = (s: SessionView, node: string): QueryBackend => {
  const b = nodeBackend(s.sim, node);
  if (!b.ok) throw new Error(b.error.message);
  return b.value;
};

/**
 * A node whose ModuleVersions answers carry `version` for `module`, whatever its store holds: the rest of its query
 * pipeline is the real one.
 */
function servingVersion(module: string, version: bigint): BackendOf {
  return (s, node) => {
    const real = backendOf(s, node);
    const services = real.services.map((bound) => {
      if (bound.service.typeName !== Query.typeName) return bound;
      const handlers = new Map(bound.handlers);
      const inner = bound.handlers.get("ModuleVersions")!;
      handlers.set("ModuleVersions", (ctx, req) => {
        const r = inner(ctx, req);
        if (!r.ok) return r;
        const res = r.value as QueryModuleVersionsResponse;
        const moduleVersions = res.moduleVersions.map((mv) =>
          mv.name === module ? create(ModuleVersionSchema, { name: mv.name, version }) : mv,
        );
        return ok({ ...res, moduleVersions });
      });
      return { ...bound, handlers };
    });
    return { ...real, services };
  };
}

describe("the served x/upgrade queries agree with the committed state the model predicts", () => {
  it("module_versions serves the upgraded version map, in byte order, and one module by name", () => {
    const s = upgradedToV2();
    const m = predict(s.oracle.snapshot);
    expect(m.applied).toHaveProperty("v2");
    expect(m.moduleVersions).toEqual({ bank: 2, gov: 1, upgrade: 1 });
    const node = s.sim.nodeNames()[0]!;
    const backend = backendOf(s, node);
    expect(serveUpgradeQuery(backend, { kind: "module-versions", moduleName: "" })).toEqual({
      module_versions: [
        { name: "bank", version: "2" },
        { name: "gov", version: "1" },
        { name: "upgrade", version: "1" },
      ],
    });
    expect(serveUpgradeQuery(backend, { kind: "module-versions", moduleName: "gov" })).toEqual({
      module_versions: [{ name: "gov", version: "1" }],
    });
    expect(conformance(s)).toEqual([]);
  });

  it("a module no one has is the reference's error, also for a prefix of a real module's name", () => {
    const s = upgradedToV2();
    const backend = backendOf(s, s.sim.nodeNames()[0]!);
    // x/upgrade/keeper/grpc_query.go: errorsmod.Wrapf(err, "x/upgrade: QueryModuleVersions module %s not found"),
    // over ErrNoModuleVersionFound (code 2); an SDK error is gRPC code 2 Unknown.
    expect(serveUpgradeQuery(backend, { kind: "module-versions", moduleName: "ban" })).toEqual({
      code: 2,
      message:
        "codespace upgrade code 2: module version not found: x/upgrade: QueryModuleVersions module ban not found",
    });
    const asked = expectedAnswers(predict(s.oracle.snapshot), ["v2", "v3"], s.sim.height).map((e) => e.query);
    expect(asked).toContainEqual({ kind: "module-versions", moduleName: "ban" });
    expect(asked).toContainEqual({ kind: "module-versions", moduleName: "bank~" });
  });

  it("the applied plan, the cleared plan and the empty upgraded consensus state are served as predicted", () => {
    const s = upgradedToV2();
    const m = predict(s.oracle.snapshot);
    const backend = backendOf(s, s.sim.nodeNames()[0]!);
    expect(serveUpgradeQuery(backend, { kind: "applied-plan", name: "v2" })).toEqual({
      height: String(m.applied.v2),
    });
    expect(serveUpgradeQuery(backend, { kind: "applied-plan", name: "v3" })).toEqual({ height: "0" });
    expect(serveUpgradeQuery(backend, { kind: "current-plan" })).toEqual({ plan: null });
    expect(serveUpgradeQuery(backend, { kind: "upgraded-consensus-state", lastHeight: m.applied.v2! })).toEqual({
      upgraded_consensus_state: null,
    });
  });

  it("a node serving a stale module version is a model-agreement difference naming the query and both values", () => {
    const s = upgradedToV2();
    const diffs = conformance(s, servingVersion("bank", 1n));
    const node = s.sim.nodeNames()[0]!;
    expect(diffs).toContain(
      `node ${node} serves ModuleVersions(module_name: "bank"): model {"module_versions":[{"name":"bank","version":"2"}]} chain {"module_versions":[{"name":"bank","version":"1"}]}`,
    );
    expect(diffs.some((d) => d.startsWith(`node ${node} serves ModuleVersions(): model`))).toBe(true);
    // Only the served answers differ: the committed state itself agrees with the model.
    expect(diffs.every((d) => d.startsWith(`node ${node} serves ModuleVersions(`))).toBe(true);
  });

  it("answers are served again when the committed state changes, and reused while it does not", () => {
    const s = new Session({ seed: 5 });
    let served = 0;
    const counting: BackendOf = (x, node) => {
      served++;
      return backendOf(x, node);
    };
    const m = () => predict(s.oracle.snapshot);
    const memo = noneServed();
    expect(upgradeQueryDiffs(s, m(), memo, counting)).toEqual([]);
    expect(upgradeQueryDiffs(s, m(), memo, counting)).toEqual([]);
    expect(served).toBe(1);
    runCommand(s, { kind: "emergency-upgrade", name: "v3", offset: 5 }, undefined);
    expect(upgradeQueryDiffs(s, m(), memo, counting)).toEqual([]);
    expect(served).toBe(2);
  });
});
