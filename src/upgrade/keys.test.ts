import { describe, expect, it } from "vitest";
import { newUpgradeEnv } from "../../test/kit/upgrade.js";
import { fromHex, toHex } from "../core/bytes.js";
import { errorText } from "../core/errors.js";
import {
  doneKey,
  legacyDoneKey,
  legacyDoneValue,
  migrateDoneKeysV1ToV2,
  parseDoneKey,
  planKey,
  protocolVersionKey,
  upgradedClientKey,
  upgradedConsStateKey,
  versionMapKey,
} from "./keys.js";

const entries = (env: ReturnType<typeof newUpgradeEnv>) =>
  [...env.ms.getKVStore("upgrade").iterator(undefined, undefined)].map(([k, v]) => [toHex(k), toHex(v)]);

describe("store keys (docs/fidelity.md §2.1)", () => {
  it("single-byte keys: plan 0x00, protocol version 0x03", () => {
    expect(toHex(planKey())).toBe("00");
    expect(toHex(protocolVersionKey())).toBe("03");
  });
  it("done key of `test` at block 11 is 01000000000000000b74657374", () => {
    expect(toHex(doneKey("test", 11n))).toBe("01000000000000000b74657374");
  });
  it("version map key of `bank` is 0262616e6b", () => {
    expect(toHex(versionMapKey("bank"))).toBe("0262616e6b");
  });
  it("legacy IBC keys are ASCII paths with a decimal height", () => {
    expect(new TextDecoder().decode(upgradedClientKey(42n))).toBe("upgradedIBCState/42/upgradedClient");
    expect(new TextDecoder().decode(upgradedConsStateKey(42n))).toBe("upgradedIBCState/42/upgradedConsState");
  });
  it("parses a done key into name and height", () => {
    const r = parseDoneKey(fromHex("01000000000000000b74657374"));
    expect(r).toEqual({ ok: true, value: { name: "test", height: 11n } });
  });
  it("a negative height round-trips through its uint64 form", () => {
    expect(parseDoneKey(doneKey("x", -5n))).toEqual({ ok: true, value: { name: "x", height: -5n } });
  });
  it("a done key shorter than 10 bytes is an error with the reference text", () => {
    const r9 = parseDoneKey(fromHex("01000000000000000b"));
    expect(r9.ok).toBe(false);
    if (!r9.ok) expect(errorText(r9.error)).toBe("expected key of length at least 10, got 9");
    const r1 = parseDoneKey(fromHex("01"));
    if (!r1.ok) expect(r1.error.message).toBe("expected key of length at least 10, got 1");
    else expect.fail("short key accepted");
  });
});

describe("done-key migration 1→2 (docs/fidelity.md §2.1)", () => {
  it("rewrites `0174657374 → 000000000000000b` as `01000000000000000b74657374 → 01`", () => {
    const env = newUpgradeEnv();
    const store = env.ms.getKVStore("upgrade");
    store.set(legacyDoneKey("test"), legacyDoneValue(11n));
    expect(entries(env)).toEqual([["0174657374", "000000000000000b"]]);
    expect(migrateDoneKeysV1ToV2(env.ctxAt(20)).ok).toBe(true);
    expect(entries(env)).toEqual([["01000000000000000b74657374", "01"]]);
  });
  it("migrates every legacy marker and leaves other keys alone", () => {
    const env = newUpgradeEnv();
    const store = env.ms.getKVStore("upgrade");
    store.set(legacyDoneKey("b"), legacyDoneValue(3n));
    store.set(legacyDoneKey("a"), legacyDoneValue(7n));
    store.set(versionMapKey("bank"), fromHex("0000000000000002"));
    migrateDoneKeysV1ToV2(env.ctxAt(20));
    expect(entries(env)).toEqual([
      ["01000000000000000362", "01"],
      ["01000000000000000761", "01"],
      ["0262616e6b", "0000000000000002"],
    ]);
  });
  it("a corrupt legacy value fails the migration before anything is written", () => {
    const env = newUpgradeEnv();
    const store = env.ms.getKVStore("upgrade");
    store.set(legacyDoneKey("a"), legacyDoneValue(7n));
    store.set(legacyDoneKey("b"), fromHex("01"));
    const r = migrateDoneKeysV1ToV2(env.ctxAt(20));
    expect(r.ok).toBe(false);
    expect(entries(env)).toEqual([
      ["0161", "0000000000000007"],
      ["0162", "01"],
    ]);
  });
});
