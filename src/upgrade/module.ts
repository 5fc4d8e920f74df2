import type { Ctx } from "../core/context.js";
import { type ChainError, ok, type Result } from "../core/errors.js";
import type { AppModule, MigrationRegistry, VersionMap } from "../core/module.js";
import type { UpgradeKeeper } from "./keeper.js";
import { migrateDoneKeysV1ToV2 } from "./keys.js";

/**
 * x/upgrade module wiring (reference x/upgrade/module.go): name `upgrade`, consensus version 2, no genesis state
 * (`{}`), no events, and the 1→2 store migration (done-key layout).
 */
export const MODULE_NAME = "upgrade";
export const CONSENSUS_VERSION = 2n;

/** The module has no genesis state: DefaultGenesis and ExportGenesis are `{}`, ValidateGenesis always passes. */
export type UpgradeGenesis = Record<string, never>;
export const defaultGenesis = (): UpgradeGenesis => ({});
export const exportGenesis = (): UpgradeGenesis => ({});
export const validateGenesis = (_genesis: unknown): Result<void, never> => ok(undefined);

/** Registers the module's store migrations (1→2: done keys move to `0x01 ‖ BE64(height) ‖ name`). */
export function registerMigrations(cfg: MigrationRegistry): Result<void, ChainError> {
  return cfg.registerMigration(MODULE_NAME, 1n, (ctx) => migrateDoneKeysV1ToV2(ctx));
}

/**
 * InitGenesis: when an init version map is set (app wiring sets it to the manager's version map), merge it with the
 * stored map (init-map entries win, stored entries kept where the init map lacks them) and write the result. An init
 * map that is set but empty still triggers the merge (the reference tests for nil, not for emptiness).
 */
export function initGenesis(keeper: UpgradeKeeper, ctx: Ctx): Result<void, ChainError> {
  const initVM = keeper.getInitVersionMap();
  if (initVM === undefined) return ok(undefined);
  const merged = new Map<string, bigint>(initVM);
  for (const [name, version] of keeper.getModuleVersionMap(ctx)) if (!merged.has(name)) merged.set(name, version);
  keeper.setModuleVersionMap(ctx, merged as VersionMap);
  return ok(undefined);
}

/** The module as the module manager sees it. */
export function upgradeAppModule(keeper: UpgradeKeeper): AppModule {
  return {
    name: MODULE_NAME,
    consensusVersion: CONSENSUS_VERSION,
    initGenesis: (ctx) => initGenesis(keeper, ctx),
  };
}
