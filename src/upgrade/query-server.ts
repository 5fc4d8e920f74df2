import { create } from "@bufbuild/protobuf";
import type { Ctx } from "../core/context.js";
import { type ChainError, isError, ok, type Result, wrapMore } from "../core/errors.js";
import {
  type QueryAppliedPlanRequest,
  type QueryAppliedPlanResponse,
  QueryAppliedPlanResponseSchema,
  type QueryAuthorityRequest,
  type QueryAuthorityResponse,
  QueryAuthorityResponseSchema,
  type QueryCurrentPlanRequest,
  type QueryCurrentPlanResponse,
  QueryCurrentPlanResponseSchema,
  type QueryModuleVersionsRequest,
  type QueryModuleVersionsResponse,
  QueryModuleVersionsResponseSchema,
  type QueryUpgradedConsensusStateRequest,
  type QueryUpgradedConsensusStateResponse,
  QueryUpgradedConsensusStateResponseSchema,
} from "../gen/chain/upgrade/v1beta1/query_pb.js";
import { ModuleVersionSchema } from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { UpgradeErrors } from "./errors.js";
import type { UpgradeKeeper } from "./keeper.js";

/**
 * The Query service `chain.upgrade.v1beta1.Query` (reference x/upgrade/keeper/grpc_query.go). "Not found" cases are
 * empty responses, except ModuleVersions for a named module, which fails with
 * `x/upgrade: QueryModuleVersions module <name> not found: module version not found`.
 */
export interface UpgradeQueryServer {
  currentPlan(ctx: Ctx, req: QueryCurrentPlanRequest): Result<QueryCurrentPlanResponse, ChainError>;
  appliedPlan(ctx: Ctx, req: QueryAppliedPlanRequest): Result<QueryAppliedPlanResponse, ChainError>;
  upgradedConsensusState(
    ctx: Ctx,
    req: QueryUpgradedConsensusStateRequest,
  ): Result<QueryUpgradedConsensusStateResponse, ChainError>;
  moduleVersions(ctx: Ctx, req: QueryModuleVersionsRequest): Result<QueryModuleVersionsResponse, ChainError>;
  authority(ctx: Ctx, req: QueryAuthorityRequest): Result<QueryAuthorityResponse, ChainError>;
}

export function newQueryServer(keeper: UpgradeKeeper): UpgradeQueryServer {
  return {
    currentPlan(ctx) {
      const plan = keeper.getUpgradePlan(ctx);
      if (!plan.ok) {
        return isError(plan.error, UpgradeErrors.ErrNoUpgradePlanFound)
          ? ok(create(QueryCurrentPlanResponseSchema))
          : plan;
      }
      return ok(create(QueryCurrentPlanResponseSchema, { plan: plan.value }));
    },

    appliedPlan(ctx, req) {
      const height = keeper.getDoneHeight(ctx, req.name);
      if (!height.ok) return height;
      return ok(create(QueryAppliedPlanResponseSchema, { height: height.value }));
    },

    upgradedConsensusState(ctx, req) {
      const state = keeper.getUpgradedConsensusState(ctx, req.lastHeight);
      if (!state.ok) {
        return isError(state.error, UpgradeErrors.ErrNoUpgradedConsensusStateFound)
          ? ok(create(QueryUpgradedConsensusStateResponseSchema))
          : state;
      }
      return ok(create(QueryUpgradedConsensusStateResponseSchema, { upgradedConsensusState: state.value }));
    },

    moduleVersions(ctx, req) {
      if (req.moduleName.length > 0) {
        const version = keeper.getModuleVersion(ctx, req.moduleName);
        if (!version.ok) {
          return {
            ok: false,
            error: wrapMore(version.error, `x/upgrade: QueryModuleVersions module ${req.moduleName} not found`),
          };
        }
        const mv = create(ModuleVersionSchema, { name: req.moduleName, version: version.value });
        return ok(create(QueryModuleVersionsResponseSchema, { moduleVersions: [mv] }));
      }
      return ok(create(QueryModuleVersionsResponseSchema, { moduleVersions: keeper.getModuleVersions(ctx) }));
    },

    authority() {
      return ok(create(QueryAuthorityResponseSchema, { address: keeper.authority }));
    },
  };
}
