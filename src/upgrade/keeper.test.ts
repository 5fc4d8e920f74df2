import { create } from "@bufbuild/protobuf";
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { HOME, newUpgradeEnv } from "../../test/kit/upgrade.js";
import { govAuthority } from "../core/address.js";
import { fromHex, toHex } from "../core/bytes.js";
import { errorText, ok, plain } from "../core/errors.js";
import { type FileSystem, MemoryFs } from "../core/fs.js";
import type { VersionMap } from "../core/module.js";
import { doneKey, planKey, upgradedClientKey } from "./keys.js";
import { encodePlan, makePlan } from "./plan.js";

const text = (r: { ok: boolean; error?: unknown }) =>
  r.ok ? "ok" : errorText((r as { error: Parameters<typeof errorText>[0] }).error);

const dump = (env: ReturnType<typeof newUpgradeEnv>) =>
  [...env.ms.getKVStore("upgrade").iterator(undefined, undefined)].map(([k, v]) => `${toHex(k)}=${toHex(v)}`);

describe("handlers and in-memory state (docs/fidelity.md §2.2)", () => {
  it("a handler is found by exact name and can be replaced", () => {
    const { keeper, ctxAt } = newUpgradeEnv();
    keeper.setUpgradeHandler("v2", () => ok(new Map([["a", 1n]])));
    expect(keeper.hasHandler("v2")).toBe(true);
    expect(keeper.hasHandler("V2")).toBe(false);
    expect(keeper.hasHandler("v2 ")).toBe(false);
    keeper.setUpgradeHandler("v2", () => ok(new Map([["b", 9n]])));
    keeper.scheduleUpgrade(ctxAt(1), makePlan({ name: "v2", height: 5n }));
    keeper.applyUpgrade(ctxAt(5), makePlan({ name: "v2", height: 5n }));
    expect([...keeper.getModuleVersionMap(ctxAt(5))]).toEqual([["b", 9n]]);
  });
  it("skip heights, the downgrade flag and the init version map are plain in-memory state", () => {
    const { keeper } = newUpgradeEnv({ skipUpgradeHeights: new Set([7]) });
    expect(keeper.isSkipHeight(7)).toBe(true);
    expect(keeper.isSkipHeight(7n)).toBe(true);
    expect(keeper.isSkipHeight(8)).toBe(false);
    expect(keeper.downgradeVerified()).toBe(false);
    keeper.setDowngradeVerified(true);
    expect(keeper.downgradeVerified()).toBe(true);
    expect(keeper.getInitVersionMap()).toBeUndefined();
    const vm: VersionMap = new Map([["bank", 2n]]);
    keeper.setInitVersionMap(vm);
    expect(keeper.getInitVersionMap()).toBe(vm);
    expect(keeper.authority).toBe(govAuthority());
  });
});

describe("protocol version and version map (docs/fidelity.md §2.1, §2.2)", () => {
  it("the protocol version is 0 when absent and stored as BE64 under 0x03", () => {
    const env = newUpgradeEnv();
    const ctx = env.ctxAt(1);
    expect(env.keeper.getProtocolVersion(ctx)).toBe(0n);
    env.keeper.setProtocolVersion(ctx, 1n);
    expect(dump(env)).toEqual(["03=0000000000000001"]);
    expect(env.keeper.getProtocolVersion(ctx)).toBe(1n);
  });
  it("writes `bank` at version 2 as 0262616e6b → 0000000000000002", () => {
    const env = newUpgradeEnv();
    env.keeper.setModuleVersionMap(env.ctxAt(1), new Map([["bank", 2n]]));
    expect(dump(env)).toEqual(["0262616e6b=0000000000000002"]);
  });
  it("iterates in byte order: uppercase names before lowercase", () => {
    const env = newUpgradeEnv();
    const ctx = env.ctxAt(1);
    env.keeper.setModuleVersionMap(
      ctx,
      new Map([
        ["bank", 2n],
        ["Zeta", 1n],
        ["auth", 3n],
      ]),
    );
    expect([...env.keeper.getModuleVersionMap(ctx).keys()]).toEqual(["Zeta", "auth", "bank"]);
    expect(env.keeper.getModuleVersions(ctx).map((m) => [m.name, m.version])).toEqual([
      ["Zeta", 1n],
      ["auth", 3n],
      ["bank", 2n],
    ]);
  });
  it("an empty map is a no-op and absent entries are never deleted", () => {
    const env = newUpgradeEnv();
    const ctx = env.ctxAt(1);
    env.keeper.setModuleVersionMap(ctx, new Map([["old", 1n]]));
    env.keeper.setModuleVersionMap(ctx, new Map());
    env.keeper.setModuleVersionMap(ctx, new Map([["new", 2n]]));
    expect([...env.keeper.getModuleVersionMap(ctx)]).toEqual([
      ["new", 2n],
      ["old", 1n],
    ]);
  });
  it("an empty store gives an empty map and an empty list", () => {
    const env = newUpgradeEnv();
    expect(env.keeper.getModuleVersionMap(env.ctxAt(1)).size).toBe(0);
    expect(env.keeper.getModuleVersions(env.ctxAt(1))).toEqual([]);
  });
  it("getModuleVersion finds an exact name or fails with ErrNoModuleVersionFound", () => {
    const env = newUpgradeEnv();
    const ctx = env.ctxAt(1);
    env.keeper.setModuleVersionMap(ctx, new Map([["bank", 2n]]));
    expect(env.keeper.getModuleVersion(ctx, "bank")).toEqual({ ok: true, value: 2n });
    expect(text(env.keeper.getModuleVersion(ctx, "Bank"))).toBe("module version not found");
  });
});

describe("legacy IBC state (docs/fidelity.md §2.2)", () => {
  it("stores and reads the client and consensus state at a height", () => {
    const { keeper, ctxAt } = newUpgradeEnv();
    const ctx = ctxAt(1);
    keeper.setUpgradedClient(ctx, 10n, Uint8Array.of(1));
    keeper.setUpgradedConsensusState(ctx, 10n, Uint8Array.of(2));
    expect(keeper.getUpgradedClient(ctx, 10n)).toEqual({ ok: true, value: Uint8Array.of(1) });
    expect(keeper.getUpgradedConsensusState(ctx, 10n)).toEqual({ ok: true, value: Uint8Array.of(2) });
    expect(text(keeper.getUpgradedClient(ctx, 11n))).toBe("upgraded client not found");
    expect(text(keeper.getUpgradedConsensusState(ctx, 11n))).toBe("upgraded consensus state not found");
    keeper.clearIBCState(ctx, 11n); // absent: no-op
    keeper.clearIBCState(ctx, 10n);
    expect(keeper.getUpgradedClient(ctx, 10n).ok).toBe(false);
    expect(keeper.getUpgradedConsensusState(ctx, 10n).ok).toBe(false);
  });
});

describe("done markers (docs/fidelity.md §2.2)", () => {
  it("GetLastCompletedUpgrade is empty without markers", () => {
    const { keeper, ctxAt } = newUpgradeEnv();
    expect(keeper.getLastCompletedUpgrade(ctxAt(1))).toEqual({ ok: true, value: { name: "", height: 0n } });
  });
  it("GetLastCompletedUpgrade takes the highest height, ties broken by the greatest name", () => {
    const { keeper, ctxAt } = newUpgradeEnv();
    keeper.setDone(ctxAt(20), "zzz");
    keeper.setDone(ctxAt(30), "alpha");
    keeper.setDone(ctxAt(30), "beta");
    keeper.setDone(ctxAt(30), "Gamma");
    expect(keeper.getLastCompletedUpgrade(ctxAt(31))).toEqual({ ok: true, value: { name: "beta", height: 30n } });
  });
  it("GetDoneHeight returns the lowest height for a name, 0 when none", () => {
    const { keeper, ctxAt } = newUpgradeEnv();
    keeper.setDone(ctxAt(30), "v2");
    keeper.setDone(ctxAt(12), "v2");
    keeper.setDone(ctxAt(5), "other");
    expect(keeper.getDoneHeight(ctxAt(31), "v2")).toEqual({ ok: true, value: 12n });
    expect(keeper.getDoneHeight(ctxAt(31), "v3")).toEqual({ ok: true, value: 0n });
  });
  it("setDone writes 0x01 ‖ BE64(current height) ‖ name → 01", () => {
    const env = newUpgradeEnv();
    env.keeper.setDone(env.ctxAt(11), "test");
    expect(dump(env)).toEqual(["01000000000000000b74657374=01"]);
  });
  it("a corrupt (short) done key surfaces as an error", () => {
    const env = newUpgradeEnv();
    env.ms.getKVStore("upgrade").set(fromHex("0100"), Uint8Array.of(1));
    expect(text(env.keeper.getLastCompletedUpgrade(env.ctxAt(1)))).toBe("expected key of length at least 10, got 2");
    expect(text(env.keeper.getDoneHeight(env.ctxAt(1), "x"))).toBe("expected key of length at least 10, got 2");
  });
});

describe("the plan: get and clear (docs/fidelity.md §2.2)", () => {
  it("GetUpgradePlan without a plan fails with ErrNoUpgradePlanFound", () => {
    const { keeper, ctxAt } = newUpgradeEnv();
    expect(text(keeper.getUpgradePlan(ctxAt(1)))).toBe("upgrade plan not found");
  });
  it("GetUpgradePlan reports corrupt plan bytes", () => {
    const env = newUpgradeEnv();
    env.ms.getKVStore("upgrade").set(planKey(), fromHex("0a05"));
    const r = env.keeper.getUpgradePlan(env.ctxAt(1));
    expect(r.ok).toBe(false);
    expect(text(r)).not.toBe("upgrade plan not found");
  });
  it("ClearUpgradePlan without a plan succeeds and changes nothing", () => {
    const env = newUpgradeEnv();
    env.keeper.setUpgradedClient(env.ctxAt(1), 10n, Uint8Array.of(1));
    expect(env.keeper.clearUpgradePlan(env.ctxAt(1)).ok).toBe(true);
    expect(dump(env)).toHaveLength(1);
  });
  it("ClearUpgradePlan removes the plan and the IBC keys at the stored plan's height", () => {
    const env = newUpgradeEnv();
    const ctx = env.ctxAt(1);
    env.keeper.scheduleUpgrade(ctx, makePlan({ name: "v2", height: 10n }));
    env.keeper.setUpgradedClient(ctx, 10n, Uint8Array.of(1));
    env.keeper.setUpgradedConsensusState(ctx, 10n, Uint8Array.of(2));
    env.keeper.setUpgradedClient(ctx, 11n, Uint8Array.of(3));
    expect(env.keeper.clearUpgradePlan(ctx).ok).toBe(true);
    expect(dump(env)).toEqual([`${toHex(upgradedClientKey(11n))}=03`]);
  });
});

describe("ScheduleUpgrade (docs/fidelity.md §2.2)", () => {
  it("stores the plan's reference encoding under 0x00 and sets the gauge", () => {
    const env = newUpgradeEnv();
    expect(env.keeper.serverInfoUpgradeHeight).toBeUndefined();
    expect(env.keeper.scheduleUpgrade(env.ctxAt(1), makePlan({ name: "test", height: 11n })).ok).toBe(true);
    expect(dump(env)).toEqual(["00=0a0474657374120b088092b8c398feffffff01180b"]);
    expect(env.keeper.serverInfoUpgradeHeight).toBe(11n);
  });
  it("returns the ValidateBasic error unchanged", () => {
    const { keeper, ctxAt } = newUpgradeEnv();
    expect(text(keeper.scheduleUpgrade(ctxAt(1), makePlan({ height: 5n })))).toBe(
      "name cannot be empty: invalid request",
    );
    const timed = makePlan({ name: "v2", height: 5n });
    timed.time = create(TimestampSchema, { seconds: 100n });
    expect(text(keeper.scheduleUpgrade(ctxAt(1), timed))).toBe(
      "time-based upgrades have been deprecated in the SDK: invalid request",
    );
  });
  it("rejects a height in the past but allows the current height", () => {
    const { keeper, ctxAt } = newUpgradeEnv();
    expect(text(keeper.scheduleUpgrade(ctxAt(10), makePlan({ name: "v2", height: 9n })))).toBe(
      "upgrade cannot be scheduled in the past: invalid request",
    );
    expect(keeper.scheduleUpgrade(ctxAt(10), makePlan({ name: "v2", height: 10n })).ok).toBe(true);
  });
  it("checks validity before the past (a past, nameless plan reports the name)", () => {
    const { keeper, ctxAt } = newUpgradeEnv();
    expect(text(keeper.scheduleUpgrade(ctxAt(10), makePlan({ height: 2n })))).toBe(
      "name cannot be empty: invalid request",
    );
  });
  it("checks the past before the done marker, and leaves the stored plan alone on failure", () => {
    const env = newUpgradeEnv();
    env.keeper.setDone(env.ctxAt(5), "v2");
    expect(text(env.keeper.scheduleUpgrade(env.ctxAt(10), makePlan({ name: "v2", height: 9n })))).toBe(
      "upgrade cannot be scheduled in the past: invalid request",
    );
    env.keeper.scheduleUpgrade(env.ctxAt(10), makePlan({ name: "v3", height: 30n }));
    env.keeper.setUpgradedClient(env.ctxAt(10), 30n, Uint8Array.of(1));
    expect(env.keeper.scheduleUpgrade(env.ctxAt(10), makePlan({ name: "v2", height: 40n })).ok).toBe(false);
    const still = env.keeper.getUpgradePlan(env.ctxAt(10));
    expect(still.ok && still.value.name).toBe("v3");
    expect(env.keeper.getUpgradedClient(env.ctxAt(10), 30n).ok).toBe(true);
  });
  it("rejects a name that was already applied", () => {
    const { keeper, ctxAt } = newUpgradeEnv();
    keeper.setDone(ctxAt(5), "v2");
    expect(text(keeper.scheduleUpgrade(ctxAt(10), makePlan({ name: "v2", height: 20n })))).toBe(
      "upgrade with name v2 has already been completed: invalid request",
    );
  });
  it("replaces a stored plan and clears only the OLD plan's IBC keys", () => {
    const env = newUpgradeEnv();
    const ctx = env.ctxAt(1);
    env.keeper.scheduleUpgrade(ctx, makePlan({ name: "old", height: 10n }));
    env.keeper.setUpgradedClient(ctx, 10n, Uint8Array.of(1));
    env.keeper.setUpgradedConsensusState(ctx, 10n, Uint8Array.of(2));
    env.keeper.setUpgradedClient(ctx, 20n, Uint8Array.of(3));
    env.keeper.setUpgradedConsensusState(ctx, 20n, Uint8Array.of(4));
    expect(env.keeper.scheduleUpgrade(ctx, makePlan({ name: "new", height: 20n })).ok).toBe(true);
    const plan = env.keeper.getUpgradePlan(ctx);
    expect(plan.ok && plan.value.name).toBe("new");
    expect(env.keeper.getUpgradedClient(ctx, 10n).ok).toBe(false);
    expect(env.keeper.getUpgradedConsensusState(ctx, 10n).ok).toBe(false);
    expect(env.keeper.getUpgradedClient(ctx, 20n).ok).toBe(true);
    expect(env.keeper.getUpgradedConsensusState(ctx, 20n).ok).toBe(true);
  });
  it("does not require a handler", () => {
    const { keeper, ctxAt } = newUpgradeEnv();
    expect(keeper.hasHandler("unknown")).toBe(false);
    expect(keeper.scheduleUpgrade(ctxAt(1), makePlan({ name: "unknown", height: 3n })).ok).toBe(true);
  });
  it("refuses to schedule over corrupt state (the reference panics), storing nothing", () => {
    const corruptDone = newUpgradeEnv();
    corruptDone.ms.getKVStore("upgrade").set(fromHex("0100"), Uint8Array.of(1));
    const r1 = corruptDone.keeper.scheduleUpgrade(corruptDone.ctxAt(1), makePlan({ name: "v2", height: 3n }));
    expect(text(r1)).toBe("expected key of length at least 10, got 2");
    expect(corruptDone.keeper.getUpgradePlan(corruptDone.ctxAt(1)).ok).toBe(false);
    const corruptPlan = newUpgradeEnv();
    corruptPlan.ms.getKVStore("upgrade").set(planKey(), fromHex("0a05"));
    const r2 = corruptPlan.keeper.scheduleUpgrade(corruptPlan.ctxAt(1), makePlan({ name: "v2", height: 3n }));
    expect(r2.ok).toBe(false);
    expect(dump(corruptPlan)).toEqual([`${toHex(planKey())}=0a05`]);
  });
});

describe("ApplyUpgrade (docs/fidelity.md §2.2)", () => {
  it("without a handler fails with the exact plain text", () => {
    const { keeper, ctxAt } = newUpgradeEnv();
    const r = keeper.applyUpgrade(ctxAt(5), makePlan({ name: "v2", height: 5n }));
    expect(r.ok ? null : r.error).toEqual(
      plain("ApplyUpgrade should never be called without first checking HasHandler"),
    );
  });
  it("runs the handler on the stored map, stores its result, bumps the protocol version, marks done", () => {
    const env = newUpgradeEnv();
    const ctx = env.ctxAt(5);
    env.keeper.setModuleVersionMap(
      ctx,
      new Map([
        ["bank", 1n],
        ["gone", 1n],
      ]),
    );
    let seen: [string, bigint][] = [];
    env.keeper.setUpgradeHandler("v2", (_c, plan, fromVM) => {
      seen = [...fromVM];
      expect(plan.name).toBe("v2");
      return ok(
        new Map([
          ["bank", 2n],
          ["new", 1n],
        ]),
      );
    });
    env.keeper.scheduleUpgrade(ctx, makePlan({ name: "v2", height: 5n }));
    expect(env.keeper.applyUpgrade(ctx, makePlan({ name: "v2", height: 5n })).ok).toBe(true);
    expect(seen).toEqual([
      ["bank", 1n],
      ["gone", 1n],
    ]);
    expect([...env.keeper.getModuleVersionMap(ctx)]).toEqual([
      ["bank", 2n],
      ["gone", 1n],
      ["new", 1n],
    ]);
    expect(env.keeper.getProtocolVersion(ctx)).toBe(1n);
    expect(env.versionsSet).toEqual([1n]);
    expect(env.keeper.getUpgradePlan(ctx).ok).toBe(false);
    expect(env.keeper.getDoneHeight(ctx, "v2")).toEqual({ ok: true, value: 5n });
  });
  it("increments the protocol version on each upgrade and calls the version setter each time", () => {
    const env = newUpgradeEnv();
    env.keeper.setUpgradeHandler("a", (_c, _p, vm) => ok(vm));
    env.keeper.setUpgradeHandler("b", (_c, _p, vm) => ok(vm));
    env.keeper.applyUpgrade(env.ctxAt(3), makePlan({ name: "a", height: 3n }));
    env.keeper.applyUpgrade(env.ctxAt(4), makePlan({ name: "b", height: 4n }));
    expect(env.keeper.getProtocolVersion(env.ctxAt(4))).toBe(2n);
    expect(env.versionsSet).toEqual([1n, 2n]);
  });
  it("a version setter installed after construction receives each new protocol version", () => {
    const env = newUpgradeEnv({ withVersionSetter: false });
    const seen: bigint[] = [];
    const setter = { setProtocolVersion: (v: bigint) => seen.push(v) };
    env.keeper.setVersionSetter(setter);
    expect(env.keeper.getVersionSetter()).toBe(setter);
    env.keeper.setUpgradeHandler("a", (_c, _p, vm) => ok(vm));
    expect(env.keeper.applyUpgrade(env.ctxAt(3), makePlan({ name: "a", height: 3n })).ok).toBe(true);
    expect(seen).toEqual([1n]);
  });
  it("fails when the stored plan cannot be cleared, without marking the upgrade done", () => {
    const env = newUpgradeEnv();
    env.ms.getKVStore("upgrade").set(planKey(), fromHex("0a05"));
    env.keeper.setUpgradeHandler("v2", (_c, _p, vm) => ok(vm));
    const ctx = env.ctxAt(5);
    expect(env.keeper.applyUpgrade(ctx, makePlan({ name: "v2", height: 5n })).ok).toBe(false);
    expect(env.keeper.getDoneHeight(ctx, "v2")).toEqual({ ok: true, value: 0n });
  });
  it("works without a version setter", () => {
    const env = newUpgradeEnv({ withVersionSetter: false });
    env.keeper.setUpgradeHandler("a", (_c, _p, vm) => ok(vm));
    expect(env.keeper.getVersionSetter()).toBeUndefined();
    expect(env.keeper.applyUpgrade(env.ctxAt(3), makePlan({ name: "a", height: 3n })).ok).toBe(true);
    expect(env.keeper.getProtocolVersion(env.ctxAt(3))).toBe(1n);
  });
  it("returns a handler error as is and changes nothing else", () => {
    const env = newUpgradeEnv();
    const ctx = env.ctxAt(5);
    env.keeper.scheduleUpgrade(ctx, makePlan({ name: "v2", height: 5n }));
    const before = dump(env);
    env.keeper.setUpgradeHandler("v2", () => ({ ok: false, error: plain("migration exploded") }));
    const r = env.keeper.applyUpgrade(ctx, makePlan({ name: "v2", height: 5n }));
    expect(r.ok ? "" : errorText(r.error)).toBe("migration exploded");
    expect(dump(env)).toEqual(before);
    expect(env.versionsSet).toEqual([]);
  });
  it("removes a stored plan with ANOTHER name, clears IBC keys at plan.height, marks done at the CURRENT height", () => {
    const env = newUpgradeEnv();
    const ctx = env.ctxAt(4);
    env.keeper.scheduleUpgrade(ctx, makePlan({ name: "other", height: 50n }));
    env.keeper.setUpgradedClient(ctx, 7n, Uint8Array.of(1));
    env.keeper.setUpgradedClient(ctx, 50n, Uint8Array.of(2));
    env.keeper.setUpgradeHandler("v2", (_c, _p, vm) => ok(vm));
    const at = env.ctxAt(9);
    expect(env.keeper.applyUpgrade(at, makePlan({ name: "v2", height: 7n })).ok).toBe(true);
    expect(env.keeper.getUpgradePlan(at).ok).toBe(false);
    expect(env.keeper.getUpgradedClient(at, 7n).ok).toBe(false);
    expect(env.keeper.getUpgradedClient(at, 50n).ok).toBe(false); // cleared with the removed plan
    expect(dump(env)).toContain(`${toHex(doneKey("v2", 9n))}=01`);
    expect(env.keeper.getLastCompletedUpgrade(at)).toEqual({ ok: true, value: { name: "v2", height: 9n } });
  });
});

/** A MemoryFs that records the modes passed to it. */
class RecordingFs implements FileSystem {
  readonly inner = new MemoryFs();
  readonly calls: string[] = [];
  readFile(path: string) {
    return this.inner.readFile(path);
  }
  writeFile(path: string, data: string, mode: number) {
    this.calls.push(`write ${path} ${mode.toString(8)}`);
    return this.inner.writeFile(path, data, mode);
  }
  mkdirAll(path: string, mode: number) {
    this.calls.push(`mkdir ${path} ${mode.toString(8)}`);
    return this.inner.mkdirAll(path, mode);
  }
  exists(path: string) {
    return this.inner.exists(path);
  }
}

describe("upgrade-info.json on disk (docs/fidelity.md §2.2, §2.5)", () => {
  it("GetUpgradeInfoPath creates <home>/data (0777) and returns the file path", () => {
    const fs = new RecordingFs();
    const env = newUpgradeEnv({ fs });
    expect(env.keeper.getUpgradeInfoPath()).toEqual({ ok: true, value: `${HOME}/data/upgrade-info.json` });
    expect(fs.calls).toEqual([`mkdir ${HOME}/data 777`]);
    expect(fs.exists(`${HOME}/data`)).toBe(true);
  });
  it("joins paths like Go's filepath.Join (empty home is relative, paths are cleaned)", () => {
    expect(newUpgradeEnv({ homePath: "" }).keeper.getUpgradeInfoPath()).toEqual({
      ok: true,
      value: "data/upgrade-info.json",
    });
    expect(newUpgradeEnv({ homePath: "/a/b/../c/" }).keeper.getUpgradeInfoPath()).toEqual({
      ok: true,
      value: "/a/c/data/upgrade-info.json",
    });
  });
  it("fails with `could not create directory` when data cannot be created", () => {
    const fs = new MemoryFs();
    fs.mkdirAll("/ro", 0o777);
    fs.setReadOnly("/ro", true);
    const env = newUpgradeEnv({ fs, homePath: "/ro" });
    expect(text(env.keeper.getUpgradeInfoPath())).toBe(
      'could not create directory "/ro/data": mkdir /ro/data: permission denied',
    );
  });
  it("quotes the directory as Go's %q does (strconv.Quote), not as JSON", () => {
    // JSON.stringify would print "\u0007" and a raw U+2028; Go's %q prints \a and \u2028, and keeps é.
    const home = "/ro/é\u0007\u2028";
    const fs = new MemoryFs();
    fs.mkdirAll(home, 0o777);
    fs.setReadOnly(home, true);
    const env = newUpgradeEnv({ fs, homePath: home });
    expect(text(env.keeper.getUpgradeInfoPath())).toBe(
      `could not create directory "/ro/é\\a\\u2028/data": mkdir ${home}/data: permission denied`,
    );
  });
  it("DumpUpgradeInfoToDisk writes the exact bytes with mode 0600, using the height argument", () => {
    const fs = new RecordingFs();
    const env = newUpgradeEnv({ fs });
    const p = makePlan({ name: "test", height: 10n });
    p.time = create(TimestampSchema, { seconds: 5n });
    expect(env.keeper.dumpUpgradeInfoToDisk(11n, p).ok).toBe(true);
    expect(fs.readFile(`${HOME}/data/upgrade-info.json`)).toEqual({
      ok: true,
      value: '{"name":"test","time":"0001-01-01T00:00:00Z","height":11}',
    });
    expect(fs.calls).toContain(`write ${HOME}/data/upgrade-info.json 600`);
  });
  it("DumpUpgradeInfoToDisk reports a write failure with the fs error text", () => {
    const fs = new MemoryFs();
    fs.mkdirAll(`${HOME}/data`, 0o777);
    fs.setReadOnly(`${HOME}/data`, true);
    const env = newUpgradeEnv({ fs });
    expect(text(env.keeper.dumpUpgradeInfoToDisk(11n, makePlan({ name: "test" })))).toBe(
      `open ${HOME}/data/upgrade-info.json: permission denied`,
    );
  });
  it("ReadUpgradeInfoFromDisk: an absent file is the zero plan without error", () => {
    const env = newUpgradeEnv();
    const r = env.keeper.readUpgradeInfoFromDisk();
    expect(r.ok && [r.value.name, r.value.height]).toEqual(["", 0n]);
    expect(env.keeper.serverInfoUpgradeHeight).toBeUndefined();
  });
  it("ReadUpgradeInfoFromDisk reads back what was dumped and sets the gauge", () => {
    const env = newUpgradeEnv();
    env.keeper.dumpUpgradeInfoToDisk(11n, makePlan({ name: "test", height: 3n, info: "i" }));
    const r = env.keeper.readUpgradeInfoFromDisk();
    expect(r.ok && [r.value.name, r.value.height, r.value.info]).toEqual(["test", 11n, "i"]);
    expect(env.keeper.serverInfoUpgradeHeight).toBe(11n);
  });
  it("ReadUpgradeInfoFromDisk returns JSON errors", () => {
    const env = newUpgradeEnv();
    env.keeper.getUpgradeInfoPath();
    env.fs.writeFile(`${HOME}/data/upgrade-info.json`, '{"name":', 0o600);
    expect(text(env.keeper.readUpgradeInfoFromDisk())).toBe("unexpected end of JSON input");
  });
  it("ReadUpgradeInfoFromDisk returns the plan together with its ValidateBasic error", () => {
    const env = newUpgradeEnv();
    env.keeper.getUpgradeInfoPath();
    env.fs.writeFile(`${HOME}/data/upgrade-info.json`, '{"height":5,"info":"x"}', 0o600);
    const noName = env.keeper.readUpgradeInfoFromDisk();
    expect(text(noName)).toBe("name cannot be empty: invalid request");
    expect(!noName.ok && [noName.plan.height, noName.plan.info]).toEqual([5n, "x"]);
    env.fs.writeFile(`${HOME}/data/upgrade-info.json`, '{"name":"v2","time":"0001-01-01T00:00:00Z"}', 0o600);
    const noHeight = env.keeper.readUpgradeInfoFromDisk();
    expect(text(noHeight)).toBe("height must be greater than 0: invalid request");
    expect(!noHeight.ok && noHeight.plan.name).toBe("v2");
    expect(env.keeper.serverInfoUpgradeHeight).toBeUndefined();
  });
  it("ReadUpgradeInfoFromDisk fails with the zero plan when data cannot be created", () => {
    const fs = new MemoryFs();
    fs.mkdirAll("/ro", 0o777);
    fs.setReadOnly("/ro", true);
    const r = newUpgradeEnv({ fs, homePath: "/ro" }).keeper.readUpgradeInfoFromDisk();
    expect(r.ok).toBe(false);
    expect(text(r)).toBe('could not create directory "/ro/data": mkdir /ro/data: permission denied');
    expect(!r.ok && [r.plan.name, r.plan.height]).toEqual(["", 0n]);
  });
  it("ReadUpgradeInfoFromDisk returns other read errors", () => {
    const env = newUpgradeEnv();
    env.fs.mkdirAll(`${HOME}/data/upgrade-info.json`, 0o777);
    expect(text(env.keeper.readUpgradeInfoFromDisk())).toBe(`read ${HOME}/data/upgrade-info.json: is a directory`);
  });
});

describe("plan encoding in the store", () => {
  it("the stored plan equals encodePlan of the scheduled plan", () => {
    const env = newUpgradeEnv();
    const p = makePlan({ name: "all-good", height: 123450000n, info: "some text here" });
    env.keeper.scheduleUpgrade(env.ctxAt(1), p);
    expect(env.ms.getKVStore("upgrade").get(planKey())).toEqual(encodePlan(p));
  });
});
