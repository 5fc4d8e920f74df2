import type { Ctx } from "./context.js";
import type { ChainError, Result } from "./errors.js";

/**
 * The module vocabulary shared by the app's module manager and the modules themselves (reference types/module:
 * VersionMap, AppModule, Configurator). It lives in core so that a module (x/upgrade's keeper, its wiring) names it
 * without importing the app that assembles the modules.
 */

/** Module name → consensus version. Iteration order carries no meaning (Go maps are unordered). */
export type VersionMap = ReadonlyMap<string, bigint>;

/** An in-place store migration from version v to v+1. */
export type MigrationHandler = (ctx: Ctx) => Result<void, ChainError>;

/** What the manager needs of a module. */
export interface AppModule {
  readonly name: string;
  /** ConsensusVersion; a module without one counts as version 0. */
  readonly consensusVersion?: bigint;
  /** InitGenesis with the module's DefaultGenesis (reference HasGenesis); run for modules new to the version map. */
  initGenesis?(ctx: Ctx): Result<void, ChainError>;
  /** ABCI-style InitGenesis returning validator updates (reference HasABCIGenesis). */
  initGenesisWithValidatorUpdates?(ctx: Ctx): Result<readonly unknown[], ChainError>;
}

/** Where a module registers its in-place migrations (reference module.Configurator's RegisterMigration). */
export interface MigrationRegistry {
  /** Registers the migration from `fromVersion` to `fromVersion + 1`; fails for version 0 and for a duplicate. */
  registerMigration(moduleName: string, fromVersion: bigint, handler: MigrationHandler): Result<void, ChainError>;
}
