import { describe, expect, it } from "vitest";
import { height, unixMs } from "../core/brand.js";
import { errorText, ok, plain } from "../core/errors.js";
import type { AppModule, VersionMap } from "../core/module.js";
import { MemMultiStore } from "../store/mem-multistore.js";
import { StoreCtx } from "./context.js";
import { defaultMigrationsOrder, ModuleManager } from "./module-manager.js";

const ctx = () =>
  new StoreCtx(new MemMultiStore(["upgrade"]), { chainId: "c", height: height(5), time: unixMs(0), appVersion: 0n });
const text = (r: { ok: boolean; error?: unknown }) =>
  r.ok ? "ok" : errorText((r as { error: Parameters<typeof errorText>[0] }).error);
const mod = (name: string, consensusVersion?: bigint, extra: Partial<AppModule> = {}): AppModule => ({
  name,
  ...(consensusVersion === undefined ? {} : { consensusVersion }),
  ...extra,
});
const entries = (r: { ok: boolean; value?: VersionMap }) => (r.ok ? [...(r.value ?? new Map())] : []);

describe("migration order (docs/fidelity.md §2.7)", () => {
  it("defaults to byte order with auth moved last", () => {
    expect(defaultMigrationsOrder(["staking", "auth", "bank", "Zeta", "gov"])).toEqual([
      "Zeta",
      "bank",
      "gov",
      "staking",
      "auth",
    ]);
    expect(defaultMigrationsOrder(["b", "a"])).toEqual(["a", "b"]);
  });
  it("runs modules in the default order", () => {
    const c = ctx();
    const mm = new ModuleManager([mod("staking", 1n), mod("auth", 1n), mod("bank", 1n)]);
    mm.runMigrations(c, new Map());
    expect(c.logs.map((l) => l.message)).toEqual([
      "adding a new module: bank",
      "adding a new module: staking",
      "adding a new module: auth",
    ]);
  });
  it("SetOrderMigrations must list every module", () => {
    const mm = new ModuleManager([mod("staking"), mod("auth"), mod("bank")]);
    expect(text(mm.setOrderMigrations(["bank"]))).toBe(
      "all modules must be defined when setting SetOrderMigrations, missing: [auth staking]",
    );
    expect(mm.setOrderMigrations(["auth", "staking", "bank"]).ok).toBe(true);
    const c = ctx();
    mm.runMigrations(c, new Map());
    expect(c.logs.map((l) => l.message)).toEqual([
      "adding a new module: auth",
      "adding a new module: staking",
      "adding a new module: bank",
    ]);
  });
});

describe("RegisterMigration (docs/fidelity.md §2.7)", () => {
  it("rejects version 0 and duplicates with the reference texts", () => {
    const mm = new ModuleManager([mod("bank", 2n)]);
    expect(text(mm.configurator.registerMigration("bank", 0n, () => ok(undefined)))).toBe(
      "module migration versions should start at 1: invalid version",
    );
    expect(mm.configurator.registerMigration("bank", 1n, () => ok(undefined)).ok).toBe(true);
    expect(text(mm.configurator.registerMigration("bank", 1n, () => ok(undefined)))).toBe(
      "another migration for module bank and version 1 already exists: internal logic error",
    );
  });
});

describe("RunMigrations (docs/fidelity.md §2.7)", () => {
  it("runs each step from the stored version to the consensus version, logging each", () => {
    const c = ctx();
    const ran: string[] = [];
    const mm = new ModuleManager([mod("bank", 4n)]);
    for (const v of [1n, 2n, 3n])
      mm.configurator.registerMigration("bank", v, () => {
        ran.push(`bank${v}`);
        return ok(undefined);
      });
    const r = mm.runMigrations(c, new Map([["bank", 2n]]));
    expect(entries(r)).toEqual([["bank", 4n]]);
    expect(ran).toEqual(["bank2", "bank3"]);
    expect(c.logs).toEqual([
      { level: "info", module: "baseapp", message: "migrating module bank from version 2 to version 3" },
      { level: "info", module: "baseapp", message: "migrating module bank from version 3 to version 4" },
    ]);
  });
  it("does nothing when the version is unchanged or the target is at most 1", () => {
    const mm = new ModuleManager([mod("bank", 2n), mod("gov", 1n), mod("nov")]);
    const r = mm.runMigrations(
      ctx(),
      new Map([
        ["bank", 2n],
        ["gov", 0n],
        ["nov", 5n],
      ]),
    );
    expect(entries(r)).toEqual([
      ["bank", 2n],
      ["gov", 1n],
      ["nov", 0n],
    ]);
  });
  it("fails when a module has no registered migrations", () => {
    const mm = new ModuleManager([mod("bank", 2n)]);
    expect(text(mm.runMigrations(ctx(), new Map([["bank", 1n]])))).toBe(
      "no migrations found for module bank: not found",
    );
  });
  it("a downgrade (stored version above the consensus version) is a no-op, with or without migrations (docs/fidelity.md §2.7)", () => {
    const mm = new ModuleManager([mod("bank", 2n)]);
    expect(entries(mm.runMigrations(ctx(), new Map([["bank", 3n]])))).toEqual([["bank", 2n]]);
    mm.configurator.registerMigration("bank", 1n, () => ok(undefined));
    expect(entries(mm.runMigrations(ctx(), new Map([["bank", 3n]])))).toEqual([["bank", 2n]]);
  });
  it("fails on a missing step", () => {
    const mm = new ModuleManager([mod("bank", 3n)]);
    mm.configurator.registerMigration("bank", 1n, () => ok(undefined));
    expect(text(mm.runMigrations(ctx(), new Map([["bank", 1n]])))).toBe(
      "no migration found for module bank from version 2 to version 3: not found",
    );
  });
  it("stops at a failing migration with its error", () => {
    const mm = new ModuleManager([mod("bank", 2n), mod("gov", 1n)]);
    mm.configurator.registerMigration("bank", 1n, () => ({ ok: false, error: plain("boom") }));
    expect(text(mm.runMigrations(ctx(), new Map([["bank", 1n]])))).toBe("boom");
  });
  it("adds new modules: logs and runs InitGenesis; validator updates from a new module are an error", () => {
    const c = ctx();
    const inits: string[] = [];
    const mm = new ModuleManager([
      mod("bank", 2n, {
        initGenesis: () => {
          inits.push("bank");
          return ok(undefined);
        },
      }),
      mod("staking", 1n, { initGenesisWithValidatorUpdates: () => ok([]) }),
    ]);
    expect(entries(mm.runMigrations(c, new Map()))).toEqual([
      ["bank", 2n],
      ["staking", 1n],
    ]);
    expect(inits).toEqual(["bank"]);
    const bad = new ModuleManager([mod("staking", 1n, { initGenesisWithValidatorUpdates: () => ok([{ power: 1 }]) })]);
    expect(text(bad.runMigrations(ctx(), new Map()))).toBe(
      "validator InitGenesis update is already set by another module: internal logic error",
    );
    const failing = new ModuleManager([
      mod("x", 1n, { initGenesis: () => ({ ok: false, error: plain("no genesis") }) }),
    ]);
    expect(text(failing.runMigrations(ctx(), new Map()))).toBe("no genesis");
  });
  it("drops modules unknown to the manager from the result", () => {
    const mm = new ModuleManager([mod("bank", 1n)]);
    const r = mm.runMigrations(
      ctx(),
      new Map([
        ["bank", 1n],
        ["removed", 3n],
      ]),
    );
    expect(entries(r)).toEqual([["bank", 1n]]);
  });
});

describe("GetVersionMap (docs/fidelity.md §2.7)", () => {
  it("maps every module to its consensus version, 0 without one", () => {
    const mm = new ModuleManager([mod("bank", 2n), mod("params")]);
    expect([...mm.getVersionMap()]).toEqual([
      ["bank", 2n],
      ["params", 0n],
    ]);
  });
});
