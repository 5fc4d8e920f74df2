import { describe, expect, it } from "vitest";
import { HOME, newUpgradeEnv } from "../../test/kit/upgrade.js";
import { ok, plain } from "../core/errors.js";
import { MemoryFs } from "../core/fs.js";
import { planKey } from "./keys.js";
import { makePlan } from "./plan.js";
import { buildUpgradeNeededMsg, preBlock } from "./preblocker.js";

const INFO_PATH = `${HOME}/data/upgrade-info.json`;
const identity = () => (_c: unknown, _p: unknown, vm: ReadonlyMap<string, bigint>) => ok(vm);

describe("PreBlocker: no plan (docs/fidelity.md §2.3 steps 1-3)", () => {
  it("continues without change and marks the downgrade check done", () => {
    const { keeper, ctxAt } = newUpgradeEnv();
    expect(preBlock(keeper, ctxAt(5))).toEqual({ ok: true, consensusParamsChanged: false });
    expect(keeper.downgradeVerified()).toBe(true);
  });
  it("a corrupt stored plan halts with its decode error (handler-error)", () => {
    const env = newUpgradeEnv();
    env.ms.getKVStore("upgrade").set(planKey(), Uint8Array.of(0x0a, 0x05));
    const r = preBlock(env.keeper, env.ctxAt(5));
    expect(r.ok ? "" : r.halt.kind).toBe("handler-error");
    expect(r.ok ? "" : r.halt.message).toMatch(/^proto: Plan: /);
  });
});

describe("PreBlocker: downgrade check (docs/fidelity.md §2.3 step 2, §2.10)", () => {
  it("halts when the last applied upgrade has no handler, showing the app version", () => {
    const env = newUpgradeEnv();
    env.keeper.setDone(env.ctxAt(3), "downgrade");
    expect(preBlock(env.keeper, env.ctxAt(5))).toEqual({
      ok: false,
      halt: {
        kind: "downgrade",
        message: "wrong app version 0, upgrade handler is missing for downgrade upgrade plan",
      },
    });
    const env2 = newUpgradeEnv();
    env2.keeper.setDone(env2.ctxAt(3), "v1");
    const r = preBlock(env2.keeper, env2.ctxAt(5, 3n));
    expect(r.ok ? "" : r.halt.message).toBe("wrong app version 3, upgrade handler is missing for v1 upgrade plan");
  });
  it("uses the highest done marker and passes when its handler exists", () => {
    const env = newUpgradeEnv();
    env.keeper.setDone(env.ctxAt(3), "old");
    env.keeper.setDone(env.ctxAt(8), "new");
    env.keeper.setUpgradeHandler("new", identity());
    expect(preBlock(env.keeper, env.ctxAt(9)).ok).toBe(true);
  });
  it("runs once per process; the flag is set even when the check fails", () => {
    const env = newUpgradeEnv();
    env.keeper.setDone(env.ctxAt(3), "gone");
    expect(preBlock(env.keeper, env.ctxAt(5)).ok).toBe(false);
    expect(env.keeper.downgradeVerified()).toBe(true);
    expect(preBlock(env.keeper, env.ctxAt(5))).toEqual({ ok: true, consensusParamsChanged: false });
  });
  it("is not repeated after a first block that passed it", () => {
    const env = newUpgradeEnv();
    expect(preBlock(env.keeper, env.ctxAt(5)).ok).toBe(true);
    env.keeper.setDone(env.ctxAt(5), "unknown");
    expect(preBlock(env.keeper, env.ctxAt(6)).ok).toBe(true);
  });
  it("is skipped when a due, non-skipped plan exists (its outcome decides)", () => {
    const env = newUpgradeEnv();
    env.keeper.setDone(env.ctxAt(3), "gone");
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v3", height: 10n }));
    env.keeper.setUpgradeHandler("v3", identity());
    const r = preBlock(env.keeper, env.ctxAt(10));
    expect(r).toEqual({ ok: true, consensusParamsChanged: true, applied: { name: "v3" } });
  });
  it("is performed when the plan is not yet due", () => {
    const env = newUpgradeEnv();
    env.keeper.setDone(env.ctxAt(3), "gone");
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v3", height: 10n }));
    const r = preBlock(env.keeper, env.ctxAt(9));
    expect(r.ok ? "" : r.halt.kind).toBe("downgrade");
  });
  it("is performed when the due plan's height is a skip height", () => {
    const env = newUpgradeEnv({ skipUpgradeHeights: new Set([10]) });
    env.keeper.setDone(env.ctxAt(3), "gone");
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v3", height: 10n }));
    const r = preBlock(env.keeper, env.ctxAt(10));
    expect(r.ok ? "" : r.halt.kind).toBe("downgrade");
    expect(env.keeper.getUpgradePlan(env.ctxAt(10)).ok).toBe(true); // halted before skipping
  });
});

describe("PreBlocker: skip (docs/fidelity.md §2.3 step 4a, §2.10)", () => {
  it("clears a due plan at a skip height, logs SKIPPED with plan.height, marks nothing done", () => {
    const env = newUpgradeEnv({ skipUpgradeHeights: new Set([12]) });
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v2", height: 10n, info: "bin" }));
    const ctx = env.ctxAt(12);
    expect(preBlock(env.keeper, ctx)).toEqual({ ok: true, consensusParamsChanged: false });
    expect(ctx.logs).toEqual([{ level: "info", module: "x/upgrade", message: 'UPGRADE "v2" SKIPPED at 10: bin' }]);
    expect(env.keeper.getUpgradePlan(ctx).ok).toBe(false);
    expect(env.keeper.getDoneHeight(ctx, "v2")).toEqual({ ok: true, value: 0n });
    expect(env.keeper.getProtocolVersion(ctx)).toBe(0n);
    expect(env.fs.exists(INFO_PATH)).toBe(false);
  });
  it("matches the CURRENT height, not plan.height", () => {
    const env = newUpgradeEnv({ skipUpgradeHeights: new Set([10]) });
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v2", height: 10n }));
    const r = preBlock(env.keeper, env.ctxAt(11));
    expect(r.ok ? "" : r.halt.kind).toBe("upgrade-needed");
  });
  it("a skipped name can be scheduled again", () => {
    const env = newUpgradeEnv({ skipUpgradeHeights: new Set([10]) });
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v2", height: 10n }));
    preBlock(env.keeper, env.ctxAt(10));
    expect(env.keeper.scheduleUpgrade(env.ctxAt(10), makePlan({ name: "v2", height: 20n })).ok).toBe(true);
  });
});

describe("PreBlocker: missing handler (docs/fidelity.md §2.3 step 4b, §2.5)", () => {
  it("writes upgrade-info.json with the current height and halts with the NEEDED message", () => {
    const env = newUpgradeEnv();
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v2", height: 10n, info: "some info" }));
    const ctx = env.ctxAt(10);
    const r = preBlock(env.keeper, ctx);
    const msg = 'UPGRADE "v2" NEEDED at height: 10: some info';
    expect(r).toEqual({ ok: false, halt: { kind: "upgrade-needed", message: msg } });
    expect(ctx.logs).toEqual([{ level: "error", module: "x/upgrade", message: msg }]);
    expect(env.fs.readFile(INFO_PATH)).toEqual({
      ok: true,
      value: '{"name":"v2","time":"0001-01-01T00:00:00Z","height":10,"info":"some info"}',
    });
  });
  it("with empty info the message ends in `: `", () => {
    expect(buildUpgradeNeededMsg("v2", "height: 10", "")).toBe('UPGRADE "v2" NEEDED at height: 10: ');
    const env = newUpgradeEnv();
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v2", height: 10n }));
    const r = preBlock(env.keeper, env.ctxAt(10));
    expect(r.ok ? "" : r.halt.message).toBe('UPGRADE "v2" NEEDED at height: 10: ');
  });
  it("a plan scheduled at the current height fires at the next block; upgrade-info records h+1", () => {
    const env = newUpgradeEnv();
    // Block 10's end-blocker schedules a plan for height 10 (allowed: equal height).
    expect(env.keeper.scheduleUpgrade(env.ctxAt(10), makePlan({ name: "v2", height: 10n })).ok).toBe(true);
    const r = preBlock(env.keeper, env.ctxAt(11));
    expect(r.ok ? "" : r.halt.message).toBe('UPGRADE "v2" NEEDED at height: 10: ');
    expect(env.fs.readFile(INFO_PATH)).toEqual({
      ok: true,
      value: '{"name":"v2","time":"0001-01-01T00:00:00Z","height":11}',
    });
  });
  it("a read-only data directory halts with upgrade-info-write-failed", () => {
    const fs = new MemoryFs();
    fs.mkdirAll(`${HOME}/data`, 0o777);
    fs.setReadOnly(`${HOME}/data`, true);
    const env = newUpgradeEnv({ fs });
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v2", height: 10n }));
    const ctx = env.ctxAt(10);
    expect(preBlock(env.keeper, ctx)).toEqual({
      ok: false,
      halt: {
        kind: "upgrade-info-write-failed",
        message: `unable to write upgrade info to filesystem: open ${INFO_PATH}: permission denied`,
      },
    });
    expect(ctx.logs).toEqual([]);
  });
  it("an uncreatable data directory halts with upgrade-info-write-failed", () => {
    const fs = new MemoryFs();
    fs.mkdirAll(HOME, 0o777);
    fs.setReadOnly(HOME, true);
    const env = newUpgradeEnv({ fs });
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v2", height: 10n }));
    const r = preBlock(env.keeper, env.ctxAt(10));
    expect(r.ok ? "" : r.halt.message).toBe(
      `unable to write upgrade info to filesystem: could not create directory "${HOME}/data": mkdir ${HOME}/data: permission denied`,
    );
  });
});

describe("PreBlocker: apply (docs/fidelity.md §2.3 step 4c)", () => {
  it("applies a due plan with a handler, logs it and reports consensus params changed", () => {
    const env = newUpgradeEnv();
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v2", height: 10n }));
    env.keeper.setUpgradeHandler("v2", () => ok(new Map([["bank", 2n]])));
    const ctx = env.ctxAt(12);
    expect(preBlock(env.keeper, ctx)).toEqual({ ok: true, consensusParamsChanged: true, applied: { name: "v2" } });
    expect(ctx.logs).toEqual([{ level: "info", module: "x/upgrade", message: 'applying upgrade "v2" at height: 10' }]);
    expect(env.keeper.getDoneHeight(ctx, "v2")).toEqual({ ok: true, value: 12n });
    expect(env.keeper.getUpgradePlan(ctx).ok).toBe(false);
    expect(env.versionsSet).toEqual([1n]);
    expect(env.fs.exists(INFO_PATH)).toBe(false);
  });
  it("a handler error halts with its text", () => {
    const env = newUpgradeEnv();
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v2", height: 10n }));
    env.keeper.setUpgradeHandler("v2", () => ({ ok: false, error: plain("store migration failed") }));
    expect(preBlock(env.keeper, env.ctxAt(10))).toEqual({
      ok: false,
      halt: { kind: "handler-error", message: "store migration failed" },
    });
  });
});

describe("PreBlocker: plan not yet due (docs/fidelity.md §2.3 steps 5-6, §2.10)", () => {
  it("a handler for a future plan halts: BINARY UPDATED BEFORE TRIGGER", () => {
    const env = newUpgradeEnv();
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v2", height: 20n }));
    env.keeper.setUpgradeHandler("v2", identity());
    const ctx = env.ctxAt(15);
    const msg =
      'BINARY UPDATED BEFORE TRIGGER! UPGRADE "v2" - in binary but not executed on chain. Downgrade your binary';
    expect(preBlock(env.keeper, ctx)).toEqual({ ok: false, halt: { kind: "binary-too-early", message: msg } });
    expect(ctx.logs).toEqual([{ level: "error", module: "x/upgrade", message: msg }]);
  });
  it("halts even at a skip height (current or plan height): skipping applies only to due plans", () => {
    const env = newUpgradeEnv({ skipUpgradeHeights: new Set([15, 20]) });
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v2", height: 20n }));
    env.keeper.setUpgradeHandler("v2", identity());
    const r = preBlock(env.keeper, env.ctxAt(15));
    expect(r.ok ? "" : r.halt.kind).toBe("binary-too-early");
    expect(env.keeper.getUpgradePlan(env.ctxAt(15)).ok).toBe(true);
  });
  it("a pending plan without a handler lets the block proceed", () => {
    const env = newUpgradeEnv();
    env.keeper.scheduleUpgrade(env.ctxAt(4), makePlan({ name: "v2", height: 20n }));
    const ctx = env.ctxAt(19);
    expect(preBlock(env.keeper, ctx)).toEqual({ ok: true, consensusParamsChanged: false });
    expect(ctx.logs).toEqual([]);
  });
});
