import { compareBytes, utf8 } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import { type ChainError, err, ok, plain, type Result, SdkErrors, wrap } from "../core/errors.js";
import type { AppModule, MigrationHandler, MigrationRegistry, VersionMap } from "../core/module.js";

/**
 * The module manager's migration machinery (reference types/module: Manager.RunMigrations, configurator,
 * DefaultMigrationsOrder). A version map assigns each module its consensus version (uint64).
 */

/** The logger module of `ctx.Logger()` in the reference block contexts (BaseApp's logger). */
export const MIGRATION_LOG_MODULE = "baseapp";

const byBytes = (a: string, b: string) => compareBytes(utf8(a), utf8(b));

/** Module names sorted in byte order (Go `sort.Strings`), with `auth` moved last. */
export function defaultMigrationsOrder(moduleNames: readonly string[]): string[] {
  const hasAuth = moduleNames.includes("auth");
  const out = moduleNames.filter((m) => m !== "auth").sort(byBytes);
  if (hasAuth) out.push("auth");
  return out;
}

/** Registry of in-place migrations: module → fromVersion → handler. */
export class Configurator implements MigrationRegistry {
  readonly #migrations = new Map<string, Map<bigint, MigrationHandler>>();

  /** Registers the migration from `fromVersion` to `fromVersion + 1`. */
  registerMigration(moduleName: string, fromVersion: bigint, handler: MigrationHandler): Result<void, ChainError> {
    if (fromVersion === 0n)
      return err(wrap(SdkErrors.ErrInvalidVersion, "module migration versions should start at 1"));
    let forModule = this.#migrations.get(moduleName);
    if (forModule === undefined) {
      forModule = new Map();
      this.#migrations.set(moduleName, forModule);
    }
    if (forModule.has(fromVersion)) {
      return err(
        wrap(
          SdkErrors.ErrLogic,
          `another migration for module ${moduleName} and version ${fromVersion} already exists`,
        ),
      );
    }
    forModule.set(fromVersion, handler);
    return ok(undefined);
  }

  /**
   * Runs the migrations of one module from `fromVersion` up to `toVersion`: nothing to do when `toVersion <= 1`, the
   * versions are equal or `fromVersion > toVersion`; then a module without any registered migration fails; then each
   * step from..to-1 must exist.
   *
   * Known deviation (docs/fidelity.md §2.7, §6): this project's contract lists `from > to` among the no-ops ("no
   * error"). The reference code checks for registered migrations before comparing, so a downgrade of a module
   * without migrations fails there with `no migrations found`. Here a downgrade is always a no-op.
   */
  runModuleMigrations(ctx: Ctx, moduleName: string, fromVersion: bigint, toVersion: bigint): Result<void, ChainError> {
    if (toVersion <= 1n || fromVersion === toVersion || fromVersion > toVersion) return ok(undefined);
    const forModule = this.#migrations.get(moduleName);
    if (forModule === undefined)
      return err(wrap(SdkErrors.ErrNotFound, `no migrations found for module ${moduleName}`));
    for (let i = fromVersion; i < toVersion; i++) {
      const fn = forModule.get(i);
      if (fn === undefined) {
        return err(
          wrap(
            SdkErrors.ErrNotFound,
            `no migration found for module ${moduleName} from version ${i} to version ${i + 1n}`,
          ),
        );
      }
      ctx.log("info", MIGRATION_LOG_MODULE, `migrating module ${moduleName} from version ${i} to version ${i + 1n}`);
      const r = fn(ctx);
      if (!r.ok) return r;
    }
    return ok(undefined);
  }
}

/**
 * The module manager. Modules are keyed by name (a later module with the same name replaces an earlier one, as the
 * reference's map does). The configurator is owned by the manager, so RunMigrations cannot be handed a foreign one
 * (the reference's `expected *module.configurator, got <T>` case does not arise).
 */
export class ModuleManager {
  readonly configurator = new Configurator();
  readonly #modules = new Map<string, AppModule>();
  #orderMigrations: readonly string[] | undefined;

  constructor(modules: readonly AppModule[]) {
    for (const m of modules) this.#modules.set(m.name, m);
  }

  /** Module names in registration order (first registration of each name). */
  moduleNames(): string[] {
    return [...this.#modules.keys()];
  }

  module(name: string): AppModule | undefined {
    return this.#modules.get(name);
  }

  /** Sets an explicit migration order; every module must be listed (extra names are allowed). */
  setOrderMigrations(moduleNames: readonly string[]): Result<void, ChainError> {
    const listed = new Set(moduleNames);
    const missing = this.moduleNames()
      .filter((m) => !listed.has(m))
      .sort(byBytes);
    if (missing.length > 0) {
      return err(plain(`all modules must be defined when setting SetOrderMigrations, missing: [${missing.join(" ")}]`));
    }
    this.#orderMigrations = [...moduleNames];
    return ok(undefined);
  }

  /** Every module mapped to its consensus version (0 when it has none). */
  getVersionMap(): VersionMap {
    const vm = new Map<string, bigint>();
    for (const [name, m] of this.#modules) vm.set(name, m.consensusVersion ?? 0n);
    return vm;
  }

  /**
   * RunMigrations: for each module in the migration order, migrate it from its version in `fromVM` to its
   * consensus version, or, when `fromVM` lacks it, log `adding a new module: <m>` and run its InitGenesis. The result
   * maps every module in the order to its consensus version; modules only in `fromVM` are dropped from it.
   * A name in an explicit order that is not a module counts as a module of version 0 without genesis.
   */
  runMigrations(ctx: Ctx, fromVM: VersionMap): Result<VersionMap, ChainError> {
    const order = this.#orderMigrations ?? defaultMigrationsOrder(this.moduleNames());
    const updated = new Map<string, bigint>();
    for (const name of order) {
      const module = this.#modules.get(name);
      const toVersion = module?.consensusVersion ?? 0n;
      const fromVersion = fromVM.get(name);
      if (fromVersion !== undefined) {
        const r = this.configurator.runModuleMigrations(ctx, name, fromVersion, toVersion);
        if (!r.ok) return r;
      } else {
        ctx.log("info", MIGRATION_LOG_MODULE, `adding a new module: ${name}`);
        if (module?.initGenesis !== undefined) {
          const r = module.initGenesis(ctx);
          if (!r.ok) return r;
        }
        if (module?.initGenesisWithValidatorUpdates !== undefined) {
          const r = module.initGenesisWithValidatorUpdates(ctx);
          if (!r.ok) return r;
          if (r.value.length > 0) {
            return err(wrap(SdkErrors.ErrLogic, "validator InitGenesis update is already set by another module"));
          }
        }
      }
      updated.set(name, toVersion);
    }
    return ok(updated);
  }
}
