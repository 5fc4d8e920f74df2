import { describe, expect, it } from "vitest";
import { errorText } from "../core/errors.js";
import type { StoreUpgrades } from "../store/types.js";
import { upgradeStoreLoader } from "./store-loader.js";

const none: StoreUpgrades = { added: [], renamed: [], deleted: [] };
const added: StoreUpgrades = { added: ["newmod"], renamed: [], deleted: [] };
const renamed: StoreUpgrades = { added: [], renamed: [{ oldKey: "a", newKey: "b" }], deleted: [] };
const deleted: StoreUpgrades = { added: [], renamed: [], deleted: ["old"] };

describe("UpgradeStoreLoader (docs/fidelity.md §2.6)", () => {
  it("applies the store upgrades when upgradeHeight == last committed + 1 and a list is non-empty", () => {
    for (const su of [added, renamed, deleted]) {
      expect(upgradeStoreLoader(10n, su)(9n)).toEqual({ ok: true, value: { apply: su } });
    }
    expect(upgradeStoreLoader(10, added)(9)).toEqual({ ok: true, value: { apply: added } });
  });
  it("loads normally at any other height", () => {
    expect(upgradeStoreLoader(10n, added)(10n)).toEqual({ ok: true, value: { apply: undefined } });
    expect(upgradeStoreLoader(10n, added)(8n)).toEqual({ ok: true, value: { apply: undefined } });
  });
  it("loads normally when all lists are empty", () => {
    expect(upgradeStoreLoader(10n, none)(9n)).toEqual({ ok: true, value: { apply: undefined } });
  });
  it("missing store upgrades fail only when the heights match", () => {
    expect(upgradeStoreLoader(10n, undefined)(5n)).toEqual({ ok: true, value: { apply: undefined } });
    // The reference dereferences the nil *StoreUpgrades: Go's nil-pointer panic text.
    const r = upgradeStoreLoader(10n, undefined)(9n);
    expect(r.ok ? "ok" : errorText(r.error)).toBe("runtime error: invalid memory address or nil pointer dereference");
  });
});
