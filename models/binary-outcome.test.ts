import { describe, expect, it } from "vitest";
import {
  binaryModules,
  handlerOutcome,
  mergeVersionMaps,
  migrationOrder,
  runMigrations,
  storeUpgradesNonEmpty,
} from "./binary-outcome.js";

describe("binaryModules", () => {
  it("adds upgrade, gov and bank at version 1 unless listed", () => {
    expect(binaryModules({})).toEqual({ bank: 1, gov: 1, upgrade: 1 });
    expect(binaryModules({ modules: { gov: 3, mint: 2 } })).toEqual({ bank: 1, gov: 3, upgrade: 1, mint: 2 });
  });
});

describe("migrationOrder", () => {
  it("sorts names by bytes and moves auth last", () => {
    expect(migrationOrder(["gov", "auth", "bank", "Zeta", "upgrade"])).toEqual([
      "Zeta",
      "bank",
      "gov",
      "upgrade",
      "auth",
    ]);
    expect(migrationOrder(["b", "a"])).toEqual(["a", "b"]);
  });
});

describe("runMigrations", () => {
  const from = { bank: 1, gov: 1, upgrade: 1 };

  it("runs each step from the stored version to the binary's and returns the manager's version map", () => {
    const r = runMigrations({ modules: { gov: 3 }, migrations: { gov: [1, 2] } }, from);
    expect(r).toEqual({
      ok: true,
      versionMap: { bank: 1, gov: 3, upgrade: 1 },
      effects: ["migrate:gov:1", "migrate:gov:2"],
    });
  });

  it("runs migrations in the default order, auth last", () => {
    const r = runMigrations(
      { modules: { auth: 2, bank: 2 }, migrations: { auth: [1], bank: [1] } },
      { auth: 1, bank: 1, gov: 1, upgrade: 1 },
    );
    expect(r.ok && r.effects).toEqual(["migrate:bank:1", "migrate:auth:1"]);
  });

  it("is a no-op for a module whose version is <= 1, unchanged, or lower than the stored one", () => {
    expect(runMigrations({ modules: { gov: 2 } }, { ...from, gov: 2 })).toMatchObject({ ok: true, effects: [] });
    expect(runMigrations({ modules: { gov: 2 } }, { ...from, gov: 5 })).toMatchObject({
      ok: true,
      versionMap: { gov: 2 },
      effects: [],
    });
    expect(runMigrations({ modules: { gov: 1 } }, { ...from, gov: 0 })).toMatchObject({ ok: true, effects: [] });
  });

  it("fails when the module has no registered migrations at all", () => {
    expect(runMigrations({ modules: { gov: 2 } }, from)).toEqual({
      ok: false,
      error: "no migrations found for module gov: not found",
    });
    expect(runMigrations({ modules: { gov: 2 }, migrations: { gov: [] } }, from)).toEqual({
      ok: false,
      error: "no migrations found for module gov: not found",
    });
  });

  it("fails on the first missing step", () => {
    expect(runMigrations({ modules: { gov: 4 }, migrations: { gov: [1, 3] } }, from)).toEqual({
      ok: false,
      error: "no migration found for module gov from version 2 to version 3: not found",
    });
  });

  it("stops at the first failing module in order", () => {
    const r = runMigrations({ modules: { bank: 2, gov: 2 }, migrations: {} }, from);
    expect(r).toEqual({ ok: false, error: "no migrations found for module bank: not found" });
  });

  it("runs InitGenesis for new modules and drops unknown ones from the result", () => {
    const r = runMigrations({ modules: { mint: 1 } }, { ...from, legacy: 4 });
    expect(r).toEqual({ ok: true, versionMap: { bank: 1, gov: 1, mint: 1, upgrade: 1 }, effects: ["genesis:mint"] });
  });
});

describe("handlerOutcome", () => {
  const vm = { bank: 1, gov: 1, upgrade: 1 };

  it("is null without a handler for the plan", () => {
    expect(handlerOutcome({ upgrades: {} }, "v2", vm)).toBeNull();
    expect(handlerOutcome({}, "constructor", vm)).toBeNull();
  });

  it("fail returns the fail message, by default 'upgrade handler failed'", () => {
    expect(handlerOutcome({ upgrades: { v2: { handler: "fail" } } }, "v2", vm)).toEqual({
      ok: false,
      error: "upgrade handler failed",
    });
    expect(handlerOutcome({ upgrades: { v2: { handler: "fail", failMessage: "boom" } } }, "v2", vm)).toEqual({
      ok: false,
      error: "boom",
    });
  });

  it("noop returns the stored map unchanged, even when the binary's versions differ", () => {
    expect(handlerOutcome({ modules: { gov: 2 }, upgrades: { v2: { handler: "noop" } } }, "v2", vm)).toEqual({
      ok: true,
      versionMap: vm,
      effects: [],
    });
  });

  it("migrate runs the module manager's migrations", () => {
    const def = { modules: { gov: 2 }, migrations: { gov: [1] }, upgrades: { v2: { handler: "migrate" as const } } };
    expect(handlerOutcome(def, "v2", vm)).toEqual({
      ok: true,
      versionMap: { ...vm, gov: 2 },
      effects: ["migrate:gov:1"],
    });
  });
});

describe("mergeVersionMaps", () => {
  it("writes every new entry and never deletes stale ones", () => {
    expect(mergeVersionMaps({ gov: 1, legacy: 3 }, { gov: 2, mint: 1 })).toEqual({ gov: 2, legacy: 3, mint: 1 });
    expect(mergeVersionMaps({ gov: 1 }, {})).toEqual({ gov: 1 });
  });
});

describe("storeUpgradesNonEmpty", () => {
  it("is true only when something is added, renamed or deleted", () => {
    expect(storeUpgradesNonEmpty(undefined)).toBe(false);
    expect(storeUpgradesNonEmpty({ added: [], renamed: [], deleted: [] })).toBe(false);
    expect(storeUpgradesNonEmpty({ deleted: ["x"] })).toBe(true);
    expect(storeUpgradesNonEmpty({ renamed: [{ from: "a", to: "b" }] })).toBe(true);
  });
});
