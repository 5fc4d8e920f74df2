import { describe, expect, it } from "vitest";
import { newUpgradeEnv } from "../../test/kit/upgrade.js";
import { ModuleManager } from "../app/module-manager.js";
import { toHex } from "../core/bytes.js";
import { legacyDoneKey, legacyDoneValue } from "./keys.js";
import {
  CONSENSUS_VERSION,
  defaultGenesis,
  exportGenesis,
  initGenesis,
  MODULE_NAME,
  registerMigrations,
  upgradeAppModule,
  validateGenesis,
} from "./module.js";

describe("upgrade module wiring (docs/fidelity.md §2.1, §2.7)", () => {
  it("is named upgrade, has consensus version 2 and an empty genesis", () => {
    expect(MODULE_NAME).toBe("upgrade");
    expect(CONSENSUS_VERSION).toBe(2n);
    expect(JSON.stringify(defaultGenesis())).toBe("{}");
    expect(JSON.stringify(exportGenesis())).toBe("{}");
    expect(validateGenesis({ anything: 1 }).ok).toBe(true);
  });
  it("registers the 1→2 migration, which RunMigrations executes", () => {
    const env = newUpgradeEnv();
    const mm = new ModuleManager([upgradeAppModule(env.keeper)]);
    expect(registerMigrations(mm.configurator).ok).toBe(true);
    expect(registerMigrations(mm.configurator).ok).toBe(false); // duplicate registration
    const ctx = env.ctxAt(30);
    env.ms.getKVStore("upgrade").set(legacyDoneKey("test"), legacyDoneValue(11n));
    const r = mm.runMigrations(ctx, new Map([["upgrade", 1n]]));
    expect(r.ok && [...r.value]).toEqual([["upgrade", 2n]]);
    const keys = [...env.ms.getKVStore("upgrade").iterator(undefined, undefined)].map(([k, v]) => [toHex(k), toHex(v)]);
    expect(keys).toEqual([["01000000000000000b74657374", "01"]]);
    expect(ctx.logs.map((l) => l.message)).toEqual(["migrating module upgrade from version 1 to version 2"]);
  });
  it("InitGenesis without an init version map writes nothing", () => {
    const env = newUpgradeEnv();
    expect(initGenesis(env.keeper, env.ctxAt(0)).ok).toBe(true);
    expect(env.keeper.getModuleVersionMap(env.ctxAt(0)).size).toBe(0);
  });
  it("InitGenesis merges the init version map over the stored map (init entries win)", () => {
    const env = newUpgradeEnv();
    const ctx = env.ctxAt(0);
    env.keeper.setModuleVersionMap(
      ctx,
      new Map([
        ["bank", 1n],
        ["custom", 4n],
      ]),
    );
    env.keeper.setInitVersionMap(
      new Map([
        ["bank", 3n],
        ["upgrade", 2n],
      ]),
    );
    expect(upgradeAppModule(env.keeper).initGenesis?.(ctx).ok).toBe(true);
    expect([...env.keeper.getModuleVersionMap(ctx)]).toEqual([
      ["bank", 3n],
      ["custom", 4n],
      ["upgrade", 2n],
    ]);
  });
});
