import { describe, expect, it } from "vitest";
import { height } from "../src/core/brand.js";
import { type PreBlockNode, preBlock } from "./preblock.js";
import type { BinaryInput, ChainState, Plan } from "./types.js";

const base: ChainState = { plan: null, done: [], protocolVersion: 0, moduleVersions: { gov: 1 }, stores: [] };
const plan = (name: string, h: number, info = ""): Plan => ({ name, height: h, info });
const withPlan = (p: Plan, extra: Partial<ChainState> = {}): ChainState => ({ ...base, plan: p, ...extra });

const noHandlers: BinaryInput = { handlers: {} };
const withHandler = (name: string, outcome: "ok" | { error: string } = "ok"): BinaryInput => ({
  handlers: { [name]: outcome },
});

const node = (binary: BinaryInput, extra: Partial<PreBlockNode> = {}): PreBlockNode => ({
  binary,
  skipHeights: [],
  downgradeCheckPending: false,
  pendingStoreUpgrade: null,
  ...extra,
});

describe("PreBlocker: no plan", () => {
  it("does nothing", () => {
    expect(preBlock(base, height(4), node(noHandlers))).toMatchObject({ kind: "ok", action: "none", post: base });
  });
});

describe("PreBlocker: due plan", () => {
  it("applies with a handler: done at the current height, protocol version +1, plan cleared", () => {
    const out = preBlock(withPlan(plan("v2", 5)), height(7), node(withHandler("v2")));
    expect(out).toMatchObject({ kind: "ok", action: "applied", planName: "v2", handlerRan: true });
    if (out.kind !== "ok") return;
    expect(out.post.plan).toBeNull();
    expect(out.post.done).toEqual([{ name: "v2", height: 7 }]);
    expect(out.post.protocolVersion).toBe(1);
  });

  it("halts upgrade-needed without a handler and writes upgrade-info with the CURRENT height", () => {
    const out = preBlock(withPlan(plan("v2", 5, "see docs")), height(6), node(noHandlers));
    expect(out).toEqual({
      kind: "halt",
      halt: { kind: "upgrade-needed", message: 'UPGRADE "v2" NEEDED at height: 5: see docs' },
      upgradeInfo: { name: "v2", height: 6, info: "see docs" },
      handlerRan: false,
    });
  });

  it("the NEEDED message ends in ': ' when info is empty", () => {
    const out = preBlock(withPlan(plan("v2", 5)), height(5), node(noHandlers));
    expect(out.kind === "halt" && out.halt.message).toBe('UPGRADE "v2" NEEDED at height: 5: ');
  });

  it("halts handler-error with the handler's message", () => {
    const out = preBlock(withPlan(plan("v2", 5)), height(5), node(withHandler("v2", { error: "boom" })));
    expect(out).toMatchObject({ kind: "halt", halt: { kind: "handler-error", message: "boom" }, handlerRan: true });
  });

  it("skips when the CURRENT height is a skip height: plan cleared, nothing done", () => {
    const out = preBlock(withPlan(plan("v2", 5)), height(6), node(withHandler("v2"), { skipHeights: [6] }));
    expect(out).toMatchObject({ kind: "ok", action: "skipped", planName: "v2" });
    if (out.kind !== "ok") return;
    expect(out.post).toEqual({ ...base, plan: null });
  });

  it("a skip height equal to plan.height does not skip a later trigger", () => {
    const out = preBlock(withPlan(plan("v2", 5)), height(6), node(noHandlers, { skipHeights: [5] }));
    expect(out).toMatchObject({ kind: "halt", halt: { kind: "upgrade-needed" } });
  });

  it("skips even without a handler", () => {
    expect(preBlock(withPlan(plan("v2", 5)), height(5), node(noHandlers, { skipHeights: [5] }))).toMatchObject({
      action: "skipped",
    });
  });
});

describe("PreBlocker: plan not yet due", () => {
  it("halts binary-too-early when the binary has the handler", () => {
    const out = preBlock(withPlan(plan("v2", 9)), height(5), node(withHandler("v2")));
    expect(out).toMatchObject({
      kind: "halt",
      halt: {
        kind: "binary-too-early",
        message:
          'BINARY UPDATED BEFORE TRIGGER! UPGRADE "v2" - in binary but not executed on chain. Downgrade your binary',
      },
    });
  });

  it("halts binary-too-early even when the current height is a skip height", () => {
    const out = preBlock(withPlan(plan("v2", 9)), height(5), node(withHandler("v2"), { skipHeights: [5, 9] }));
    expect(out).toMatchObject({ kind: "halt", halt: { kind: "binary-too-early" } });
  });

  it("does nothing without the handler", () => {
    expect(preBlock(withPlan(plan("v2", 9)), height(5), node(noHandlers))).toMatchObject({
      kind: "ok",
      action: "none",
    });
  });
});

describe("PreBlocker: downgrade check", () => {
  const applied: ChainState = {
    ...base,
    done: [
      { name: "old", height: height(3) },
      { name: "b", height: height(8) },
      { name: "c", height: height(8) },
    ],
  };

  it("halts when the last completed upgrade (highest height, greatest name) has no handler", () => {
    const out = preBlock(applied, height(9), node(withHandler("b"), { downgradeCheckPending: true }));
    expect(out).toMatchObject({
      kind: "halt",
      halt: { kind: "downgrade", message: "wrong app version 0, upgrade handler is missing for c upgrade plan" },
    });
  });

  it("passes when the binary has the last upgrade's handler", () => {
    expect(preBlock(applied, height(9), node(withHandler("c"), { downgradeCheckPending: true }))).toMatchObject({
      kind: "ok",
    });
  });

  it("runs only while the check is pending (first PreBlock after a start)", () => {
    expect(preBlock(applied, height(9), node(noHandlers, { downgradeCheckPending: false }))).toMatchObject({
      kind: "ok",
    });
  });

  it("is skipped when a due, non-skipped plan exists", () => {
    const due = { ...applied, plan: plan("v9", 9) };
    const out = preBlock(due, height(9), node(noHandlers, { downgradeCheckPending: true }));
    expect(out).toMatchObject({ kind: "halt", halt: { kind: "upgrade-needed" } });
  });

  it("runs when the due plan is skipped at this height", () => {
    const due = { ...applied, plan: plan("v9", 9) };
    const out = preBlock(due, height(9), node(noHandlers, { downgradeCheckPending: true, skipHeights: [9] }));
    expect(out).toMatchObject({ kind: "halt", halt: { kind: "downgrade" } });
  });

  it("runs when the plan is not yet due", () => {
    const later = { ...applied, plan: plan("v9", 20) };
    const out = preBlock(later, height(9), node(noHandlers, { downgradeCheckPending: true }));
    expect(out).toMatchObject({ kind: "halt", halt: { kind: "downgrade" } });
  });

  it("never halts on an empty done set", () => {
    expect(preBlock(base, height(1), node(noHandlers, { downgradeCheckPending: true }))).toMatchObject({ kind: "ok" });
  });
});

describe("PreBlocker: scenario binaries", () => {
  it("migrate updates the stored version map without deleting entries", () => {
    const bin: BinaryInput = {
      modules: { gov: 2 },
      migrations: { gov: [1] },
      upgrades: { v2: { handler: "migrate" } },
    };
    const pre = withPlan(plan("v2", 4), { moduleVersions: { bank: 1, gov: 1, legacy: 7, upgrade: 1 } });
    const out = preBlock(pre, height(4), node(bin));
    expect(out.kind === "ok" && out.post.moduleVersions).toEqual({ bank: 1, gov: 2, legacy: 7, upgrade: 1 });
    expect(out.kind === "ok" && out.effects).toEqual(["migrate:gov:1"]);
  });

  it("a failing migration halts with its error text", () => {
    const bin: BinaryInput = { modules: { gov: 2 }, upgrades: { v2: { handler: "migrate" } } };
    const out = preBlock(withPlan(plan("v2", 4), { moduleVersions: { gov: 1 } }), height(4), node(bin));
    expect(out).toMatchObject({
      kind: "halt",
      halt: { kind: "handler-error", message: "no migrations found for module gov: not found" },
    });
  });
});

describe("PreBlocker: pending store upgrades", () => {
  it("join the post state of the block", () => {
    const out = preBlock(base, height(4), node(noHandlers, { pendingStoreUpgrade: "v2:{}" }));
    expect(out.kind === "ok" && out.post.stores).toEqual(["v2:{}"]);
  });
});
