import { describe, expect, it } from "vitest";
import { height } from "../src/core/brand.js";
import {
  doneHeight,
  executeMessages,
  lastCompletedUpgrade,
  markDone,
  normalizeHeight,
  shouldExecute,
  signerRefusal,
} from "./keeper-rules.js";
import type { ChainState, UpgradeMsg } from "./types.js";

const empty: ChainState = { plan: null, done: [], protocolVersion: 0, moduleVersions: {}, stores: [] };
const schedule = (name: string, h: number | bigint, info?: string): UpgradeMsg => ({
  type: "softwareUpgrade",
  plan: info === undefined ? { name, height: h } : { name, height: h, info },
});
const cancel: UpgradeMsg = { type: "cancelUpgrade" };

describe("executeMessages: ScheduleUpgrade", () => {
  it("stores the plan with info defaulting to empty", () => {
    const r = executeMessages(empty, 5, [schedule("v2", 9)]);
    expect(r).toEqual({ ok: true, state: { ...empty, plan: { name: "v2", height: 9, info: "" } } });
  });

  it("checks ValidateBasic first, wrapped with `plan` as the msg server does: empty name before height", () => {
    expect(executeMessages(empty, 5, [schedule("", 0)])).toEqual({
      ok: false,
      error: "plan: name cannot be empty: invalid request",
    });
    expect(executeMessages(empty, 5, [schedule("v2", 0)])).toEqual({
      ok: false,
      error: "plan: height must be greater than 0: invalid request",
    });
    expect(executeMessages(empty, 5, [schedule("v2", -3n)])).toEqual({
      ok: false,
      error: "plan: height must be greater than 0: invalid request",
    });
  });

  it("refuses a height below the current block but accepts the current block", () => {
    expect(executeMessages(empty, 5, [schedule("v2", 4)])).toEqual({
      ok: false,
      error: "upgrade cannot be scheduled in the past: invalid request",
    });
    expect(executeMessages(empty, 5, [schedule("v2", 5)]).ok).toBe(true);
  });

  it("checks the past before completed names", () => {
    const done: ChainState = { ...empty, done: [{ name: "v2", height: height(3) }] };
    expect(executeMessages(done, 5, [schedule("v2", 4)])).toMatchObject({
      error: "upgrade cannot be scheduled in the past: invalid request",
    });
    expect(executeMessages(done, 5, [schedule("v2", 8)])).toEqual({
      ok: false,
      error: "upgrade with name v2 has already been completed: invalid request",
    });
  });

  it("overwrites an existing plan", () => {
    const withPlan: ChainState = { ...empty, plan: { name: "a", height: 10, info: "x" } };
    const r = executeMessages(withPlan, 5, [schedule("b", 12, "y")]);
    expect(r.ok && r.state.plan).toEqual({ name: "b", height: 12, info: "y" });
  });

  it("accepts 64-bit heights beyond the safe-integer range", () => {
    const r = executeMessages(empty, 5, [schedule("big", 9223372036854775807n)]);
    expect(r.ok && r.state.plan?.height).toBe(9223372036854775807n);
    const small = executeMessages(empty, 5, [schedule("small", 9n)]);
    expect(small.ok && small.state.plan?.height).toBe(9);
  });
});

describe("executeMessages: CancelUpgrade and message lists", () => {
  it("cancel clears the plan, and succeeds as a no-op without one", () => {
    const withPlan: ChainState = { ...empty, plan: { name: "a", height: 10, info: "" } };
    expect(executeMessages(withPlan, 5, [cancel])).toEqual({ ok: true, state: empty });
    expect(executeMessages(empty, 5, [cancel])).toEqual({ ok: true, state: empty });
  });

  it("runs messages in order on the state the previous ones left", () => {
    const r = executeMessages(empty, 5, [schedule("a", 7), cancel, schedule("b", 8)]);
    expect(r.ok && r.state.plan?.name).toBe("b");
  });

  it("is all-or-nothing: one failure discards every message and reports that failure", () => {
    const withPlan: ChainState = { ...empty, plan: { name: "a", height: 10, info: "" } };
    const r = executeMessages(withPlan, 5, [cancel, schedule("b", 6), schedule("c", 1)]);
    expect(r).toEqual({ ok: false, error: "upgrade cannot be scheduled in the past: invalid request" });
  });

  it("an empty list succeeds and changes nothing", () => {
    expect(executeMessages(empty, 5, [])).toEqual({ ok: true, state: empty });
  });
});

describe("done markers", () => {
  it("orders by height then name bytes; the last completed is the highest key", () => {
    let done = markDone([], "b", height(7));
    done = markDone(done, "a", height(7));
    done = markDone(done, "z", height(3));
    expect(done.map((d) => d.name)).toEqual(["z", "a", "b"]);
    expect(lastCompletedUpgrade(done)).toEqual({ name: "b", height: 7 });
    expect(lastCompletedUpgrade([])).toBeNull();
  });

  it("doneHeight returns the recorded height or 0", () => {
    const done = markDone([], "v2", height(11));
    expect(doneHeight(done, "v2")).toBe(11);
    expect(doneHeight(done, "v3")).toBe(0);
  });
});

describe("plan heights", () => {
  it("ShouldExecute is height > 0 && height <= h", () => {
    expect(shouldExecute({ name: "a", height: 5, info: "" }, 5)).toBe(true);
    expect(shouldExecute({ name: "a", height: 5, info: "" }, 4)).toBe(false);
    expect(shouldExecute({ name: "a", height: 5, info: "" }, 9)).toBe(true);
    expect(shouldExecute({ name: "a", height: 9223372036854775807n, info: "" }, 9)).toBe(false);
  });

  it("normalizes safe bigints to numbers only", () => {
    expect(normalizeHeight(5n)).toBe(5);
    expect(normalizeHeight(2n ** 60n)).toBe(2n ** 60n);
  });
});

describe("the Msg server's signer check", () => {
  it("passes the authority and refuses anyone else with ErrInvalidSigner naming both addresses", () => {
    expect(signerRefusal("chain1gov", "chain1gov")).toBeNull();
    expect(signerRefusal("chain1gov", "chain1val")).toBe(
      "expected chain1gov got chain1val: expected authority account as only signer for proposal message",
    );
  });
});
