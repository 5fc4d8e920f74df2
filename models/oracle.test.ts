import { describe, expect, it } from "vitest";
import { createOracle, type Oracle, observe, predict, step } from "./oracle.js";
import type { BinaryInput, NodeInput, OracleEvent, OracleInput, UpgradeMsg } from "./types.js";

const v1: BinaryInput = { handlers: {} };
const v2: BinaryInput = { handlers: { up: "ok" }, storeUpgrades: { up: { added: ["extra"] } } };
const v2plain: BinaryInput = { handlers: { up: "ok" } };
const v2fail: BinaryInput = { handlers: { up: { error: "handler exploded" } } };
const v3: BinaryInput = { handlers: { up2: "ok" } };
const binaries = { v1, v2, v2plain, v2fail, v3 };

const world = (nodes: readonly NodeInput[]): OracleInput => ({ binaries, nodes });
const solo = world([{ name: "val1", binary: "v1", power: 100 }]);

const schedule = (name: string, height: number | bigint, info = ""): UpgradeMsg => ({
  type: "softwareUpgrade",
  plan: { name, height, info },
});
const cancel: UpgradeMsg = { type: "cancelUpgrade" };

function run(o: Oracle, ...events: readonly OracleEvent[]): Oracle {
  return events.reduce(step, o);
}
/** BLOCK events for every height from chain height + 1 to `to`. */
function blocksTo(o: Oracle, to: number): Oracle {
  let cur = o;
  for (let h = cur.snapshot.context.height + 1; h <= to; h++) cur = step(cur, { type: "BLOCK", height: h });
  return cur;
}
const proposal = (height: number, ...msgs: UpgradeMsg[]): OracleEvent => ({ type: "PROPOSAL_EXECUTED", height, msgs });
const start = (node: string, binary: string, skipHeights?: number[]): OracleEvent =>
  skipHeights === undefined
    ? { type: "NODE_STARTED", node, binary }
    : { type: "NODE_STARTED", node, binary, skipHeights };

describe("plan lifecycle through proposals", () => {
  it("schedules, reschedules (overwrite) and cancels, with the plan region following the slot", () => {
    let o = blocksTo(createOracle(solo), 2);
    o = step(o, proposal(2, schedule("up", 10, "a")));
    expect(o.fired).toEqual(["noneScheduled.PROPOSAL_EXECUTED.schedule"]);
    expect(predict(o.snapshot).plan).toEqual({ name: "up", height: 10, info: "a" });
    o = step(o, proposal(2, schedule("other", 12)));
    expect(o.fired).toEqual(["scheduled.PROPOSAL_EXECUTED.reschedule"]);
    expect(predict(o.snapshot).plan).toEqual({ name: "other", height: 12, info: "" });
    o = step(o, proposal(2, cancel));
    expect(o.fired).toEqual(["scheduled.PROPOSAL_EXECUTED.cancel"]);
    expect(predict(o.snapshot).plan).toBeNull();
    expect(predict(o.snapshot).regions.plan).toBe("noneScheduled");
  });

  it("cancel with no plan succeeds as a no-op", () => {
    const o = run(blocksTo(createOracle(solo), 1), proposal(1, cancel));
    expect(o.fired).toEqual(["noneScheduled.PROPOSAL_EXECUTED.noop"]);
    expect(predict(o.snapshot).lastExec).toEqual({ source: "proposal", height: 1, ok: true, error: null });
  });

  it("a failing message rejects the whole list and reports its text", () => {
    let o = run(blocksTo(createOracle(solo), 5), proposal(5, schedule("up", 9)));
    o = step(o, proposal(5, cancel, schedule("late", 4)));
    expect(o.fired).toEqual(["scheduled.PROPOSAL_EXECUTED.rejected"]);
    expect(predict(o.snapshot).plan?.name).toBe("up");
    expect(predict(o.snapshot).lastExec?.error).toBe("upgrade cannot be scheduled in the past: invalid request");
  });

  it("authority transactions and proposals of one block apply in the order they are sent", () => {
    let o = blocksTo(createOracle(solo), 3);
    o = step(o, { type: "AUTHORITY_EXEC", height: 3, msgs: [schedule("up", 7)] });
    expect(o.fired).toEqual(["noneScheduled.AUTHORITY_EXEC.schedule"]);
    expect(predict(o.snapshot).lastExec?.source).toBe("authority");
    o = step(o, proposal(3, cancel));
    expect(predict(o.snapshot).plan).toBeNull();
  });

  it("ignores exec events for any height but the last committed one, and BLOCK events out of sequence", () => {
    const o = blocksTo(createOracle(solo), 3);
    for (const ev of [
      proposal(2, schedule("up", 9)),
      proposal(4, schedule("up", 9)),
      { type: "BLOCK", height: 3 } as const,
    ]) {
      const next = step(o, ev);
      expect(next.fired).toEqual([]);
      expect(next.snapshot.context).toBe(o.snapshot.context);
    }
    expect(step(createOracle(solo), proposal(0, cancel)).fired).toEqual([]);
  });

  it("ignores node events for unknown nodes or binaries", () => {
    const o = createOracle(solo);
    expect(step(o, start("nobody", "v1")).fired).toEqual([]);
    expect(step(o, start("val1", "v9")).fired).toEqual([]);
    expect(step(o, { type: "NODE_STOPPED", node: "nobody" }).fired).toEqual([]);
  });
});

describe("upgrade at a height: halt, swap, apply", () => {
  it("a plan scheduled at the current height fires at the next block and upgrade-info records that block", () => {
    let o = run(blocksTo(createOracle(solo), 4), proposal(4, schedule("up", 4, "info")));
    o = step(o, { type: "BLOCK", height: 5 });
    const p = predict(o.snapshot);
    expect(o.fired).toEqual(["scheduled.BLOCK.keep", "progressing.BLOCK.stall"]);
    expect(p.height).toBe(4);
    expect(p.stalled).toBe(true);
    expect(p.nodes.val1).toMatchObject({
      status: "halted",
      height: 4,
      halt: { kind: "upgrade-needed", message: 'UPGRADE "up" NEEDED at height: 4: info', height: 5 },
    });
    expect(p.upgradeInfo.val1).toEqual({ name: "up", height: 5, info: "info" });
    expect(p.halts).toEqual([
      { node: "val1", height: 5, kind: "upgrade-needed", message: 'UPGRADE "up" NEEDED at height: 4: info' },
    ]);
  });

  it("the new binary applies the upgrade at the halt height; the name is then done and cannot be reused", () => {
    let o = run(blocksTo(createOracle(solo), 2), proposal(2, schedule("up", 3)));
    o = run(o, { type: "BLOCK", height: 3 }, start("val1", "v2"), { type: "BLOCK", height: 3 });
    expect(o.fired).toEqual(["scheduled.BLOCK.apply", "stalled.BLOCK.commit"]);
    let p = predict(o.snapshot);
    expect(p).toMatchObject({ height: 3, plan: null, applied: { up: 3 }, protocolVersion: 1, handlerRuns: { up: 1 } });
    expect(p.lastBlock).toMatchObject({ committed: true, action: "applied", planName: "up", handlerCommitted: true });
    expect(p.nodes.val1?.upgradeInfo).toEqual({ name: "up", height: 3, info: "" });

    o = step(o, proposal(3, schedule("up", 9)));
    p = predict(o.snapshot);
    expect(o.fired).toEqual(["noneScheduled.PROPOSAL_EXECUTED.rejected"]);
    expect(p.lastExec?.error).toBe("upgrade with name up has already been completed: invalid request");
  });

  it("a handler error halts the node and commits nothing", () => {
    let o = run(blocksTo(createOracle(solo), 1), proposal(1, schedule("up", 2)), start("val1", "v2fail"));
    o = step(o, { type: "BLOCK", height: 2 });
    const p = predict(o.snapshot);
    expect(p.nodes.val1?.halt).toEqual({ kind: "handler-error", message: "handler exploded", height: 2 });
    expect(p.lastBlock).toMatchObject({ committed: false, handlerRanOn: ["val1"], handlerCommitted: false });
    expect(p.handlerRuns).toEqual({});
    expect(p.plan?.name).toBe("up");
  });

  it("a binary with the handler halts before the plan is due, even at a skip height", () => {
    let o = run(blocksTo(createOracle(solo), 1), proposal(1, schedule("up", 10)), start("val1", "v2", [2, 10]));
    o = step(o, { type: "BLOCK", height: 2 });
    expect(predict(o.snapshot).nodes.val1?.halt).toEqual({
      kind: "binary-too-early",
      message:
        'BINARY UPDATED BEFORE TRIGGER! UPGRADE "up" - in binary but not executed on chain. Downgrade your binary',
      height: 2,
    });
  });
});

describe("skip heights", () => {
  it("skip the due plan at the CURRENT height; the skipped name can be scheduled again", () => {
    const input = world([{ name: "val1", binary: "v1", power: 100, skipHeights: [5] }]);
    let o = run(blocksTo(createOracle(input), 4), proposal(4, schedule("up", 4)));
    o = step(o, { type: "BLOCK", height: 5 });
    expect(o.fired).toEqual(["scheduled.BLOCK.skip", "progressing.BLOCK.commit"]);
    const p = predict(o.snapshot);
    expect(p).toMatchObject({ height: 5, plan: null, applied: {}, protocolVersion: 0, handlerRuns: {} });
    expect(p.lastBlock).toMatchObject({ action: "skipped", planName: "up", handlerCommitted: false });
    expect(p.upgradeInfo.val1).toBeNull();

    o = step(o, proposal(5, schedule("up", 8)));
    expect(o.fired).toEqual(["noneScheduled.PROPOSAL_EXECUTED.schedule"]);
  });

  it("a skip height equal to plan.height but below the trigger height does not skip", () => {
    const input = world([{ name: "val1", binary: "v1", power: 100, skipHeights: [4] }]);
    const o = run(blocksTo(createOracle(input), 4), proposal(4, schedule("up", 4)), { type: "BLOCK", height: 5 });
    expect(predict(o.snapshot).nodes.val1?.halt?.kind).toBe("upgrade-needed");
  });

  it("a restart keeps the skip heights unless new ones are given", () => {
    const input = world([{ name: "val1", binary: "v1", power: 100, skipHeights: [7] }]);
    let o = step(createOracle(input), start("val1", "v2"));
    expect(predict(o.snapshot).nodes.val1?.skipUpgradeHeights).toEqual([7]);
    o = step(o, start("val1", "v2", []));
    expect(predict(o.snapshot).nodes.val1?.skipUpgradeHeights).toEqual([]);
  });
});

describe("downgrade check", () => {
  /** `up` applied at block 3 by v2; the chain is at height 4. */
  function upgraded(): Oracle {
    let o = run(blocksTo(createOracle(solo), 2), proposal(2, schedule("up", 3)), { type: "BLOCK", height: 3 });
    o = run(o, start("val1", "v2"), { type: "BLOCK", height: 3 });
    return blocksTo(o, 4);
  }

  it("halts the first PreBlock after a start when the binary lacks the last applied upgrade's handler", () => {
    let o = run(upgraded(), start("val1", "v1"));
    expect(predict(o.snapshot).nodes.val1?.downgradeCheckPending).toBe(true);
    o = step(o, { type: "BLOCK", height: 5 });
    expect(predict(o.snapshot).nodes.val1?.halt).toEqual({
      kind: "downgrade",
      message: "wrong app version 0, upgrade handler is missing for up upgrade plan",
      height: 5,
    });
  });

  it("clears the pending check after the first PreBlock", () => {
    const o = blocksTo(run(upgraded(), start("val1", "v2")), 5);
    expect(predict(o.snapshot).nodes.val1).toMatchObject({
      status: "running",
      downgradeCheckPending: false,
      height: 5,
    });
  });

  it("is skipped when a due, non-skipped plan exists at the first PreBlock", () => {
    let o = run(upgraded(), proposal(4, schedule("up2", 5)), start("val1", "v3"), { type: "BLOCK", height: 5 });
    expect(o.fired).toContain("scheduled.BLOCK.apply");
    expect(predict(o.snapshot).applied).toEqual({ up: 3, up2: 5 });
    // The same binary without a due plan halts: the check ran.
    o = run(upgraded(), start("val1", "v3"), { type: "BLOCK", height: 5 });
    expect(predict(o.snapshot).nodes.val1?.halt?.kind).toBe("downgrade");
  });
});

describe("consensus", () => {
  const four = world([
    { name: "a", binary: "v1", power: 1 },
    { name: "b", binary: "v1", power: 1 },
    { name: "c", binary: "v1", power: 1 },
    { name: "d", binary: "v1", power: 1 },
  ]);
  const scheduledAt3 = () => run(blocksTo(createOracle(four), 2), proposal(2, schedule("up", 3)));

  it("stalls without a group holding more than 2/3 of the power, then commits when enough nodes agree", () => {
    let o = run(scheduledAt3(), start("a", "v2plain"), start("b", "v2plain"), { type: "BLOCK", height: 3 });
    let p = predict(o.snapshot);
    expect(o.fired).toEqual(["scheduled.BLOCK.keep", "progressing.BLOCK.stall"]);
    expect(p).toMatchObject({ height: 2, stalled: true });
    expect(p.nodes.a).toMatchObject({ status: "running", height: 2, downgradeCheckPending: false });
    expect(p.nodes.c?.halt?.kind).toBe("upgrade-needed");
    expect(p.lastBlock).toMatchObject({ committed: false, action: null, committedBy: [], handlerRanOn: ["a", "b"] });

    o = run(o, start("c", "v2plain"), { type: "BLOCK", height: 3 });
    p = predict(o.snapshot);
    expect(o.fired).toEqual(["scheduled.BLOCK.apply", "stalled.BLOCK.commit"]);
    expect(p).toMatchObject({ height: 3, stalled: false, applied: { up: 3 }, handlerRuns: { up: 1 } });
    expect(p.lastBlock?.committedBy).toEqual(["a", "b", "c"]);
    expect(p.nodes.d).toMatchObject({ status: "halted", height: 2 });
  });

  it("exactly 2/3 of the power is not enough to commit", () => {
    const three = world([
      { name: "a", binary: "v1", power: 1 },
      { name: "b", binary: "v1", power: 1 },
      { name: "c", binary: "v1", power: 1 },
    ]);
    const o = run(createOracle(three), { type: "NODE_STOPPED", node: "c" }, { type: "BLOCK", height: 1 });
    expect(predict(o.snapshot)).toMatchObject({ height: 0, stalled: true });
    expect(predict(o.snapshot).nodes.a).toMatchObject({ status: "running", height: 0 });
    const all = step(createOracle(three), { type: "BLOCK", height: 1 });
    expect(predict(all.snapshot)).toMatchObject({ height: 1, stalled: false });
  });

  it("halts nodes whose result differs from the committed one with app-hash-mismatch", () => {
    const input = world([
      { name: "a", binary: "v1", power: 1 },
      { name: "b", binary: "v1", power: 1 },
      { name: "c", binary: "v1", power: 1 },
      { name: "d", binary: "v1", power: 1, skipHeights: [3] },
      { name: "full", binary: "v1", skipHeights: [3] },
    ]);
    let o = run(blocksTo(createOracle(input), 2), proposal(2, schedule("up", 3)));
    o = run(o, start("a", "v2plain"), start("b", "v2plain"), start("c", "v2plain"));
    o = step(o, { type: "BLOCK", height: 3 });
    const p = predict(o.snapshot);
    expect(p.lastBlock?.committedBy).toEqual(["a", "b", "c"]);
    expect(p.nodes.d?.halt).toEqual({
      kind: "app-hash-mismatch",
      message: "wrong Block.Header.AppHash at height 3",
      height: 3,
    });
    expect(p.nodes.full?.halt?.kind).toBe("app-hash-mismatch");
    expect(p.nodes.d?.height).toBe(2);
    expect(p.lastBlock?.halts.map((h) => h.node)).toEqual(["d", "full"]);
  });

  it("nodes that loaded different store upgrades disagree", () => {
    const input = world([
      { name: "a", binary: "v1", power: 3 },
      { name: "b", binary: "v1", power: 1 },
    ]);
    let o = run(blocksTo(createOracle(input), 2), proposal(2, schedule("up", 3)), { type: "BLOCK", height: 3 });
    o = run(o, start("a", "v2"), start("b", "v2plain"), { type: "BLOCK", height: 3 });
    const p = predict(o.snapshot);
    expect(p.lastBlock?.committedBy).toEqual(["a"]);
    expect(p.nodes.b?.halt?.kind).toBe("app-hash-mismatch");
    expect(p.stores).toEqual(['up:{"added":["extra"]}']);
  });
});

describe("store upgrades at start", () => {
  const pair = world([
    { name: "a", binary: "v1", power: 3 },
    { name: "n", binary: "v1", power: 0 },
  ]);
  /** Both nodes halt at 3 with upgrade-info {up, 3}; last height 2. */
  const haltedAt3 = () =>
    run(blocksTo(createOracle(pair), 2), proposal(2, schedule("up", 3)), { type: "BLOCK", height: 3 });

  it("apply when upgrade-info's height is the node's last height + 1 and not a skip height", () => {
    const o = run(haltedAt3(), start("a", "v2"));
    expect(predict(o.snapshot).storeUpgradesApplied).toEqual([{ node: "a", name: "up", height: 3 }]);
    const skipped = run(haltedAt3(), start("a", "v2", [3]));
    expect(predict(skipped.snapshot).storeUpgradesApplied).toEqual([]);
    const noStoreUpgrades = run(haltedAt3(), start("a", "v2plain"));
    expect(predict(noStoreUpgrades.snapshot).storeUpgradesApplied).toEqual([]);
  });

  it("do not apply again once the node has committed past the upgrade height", () => {
    let o = run(haltedAt3(), start("a", "v2"), { type: "BLOCK", height: 3 });
    o = blocksTo(o, 5);
    o = step(o, start("a", "v2"));
    expect(predict(o.snapshot).storeUpgradesApplied).toEqual([{ node: "a", name: "up", height: 3 }]);
  });

  it("a lagging node catches up, halting where its binary needs the upgrade, then follows after a swap", () => {
    let o = run(haltedAt3(), start("a", "v2"), { type: "BLOCK", height: 3 });
    o = blocksTo(o, 5);
    expect(predict(o.snapshot).nodes.n).toMatchObject({ status: "halted", height: 2 });
    o = step(o, start("n", "v1"));
    o = step(o, { type: "NODE_CAUGHT_UP", node: "n" });
    expect(o.fired).toEqual(["NODE_CAUGHT_UP.catchUp"]);
    expect(predict(o.snapshot).nodes.n).toMatchObject({
      status: "halted",
      height: 2,
      halt: { kind: "upgrade-needed", height: 3 },
    });

    o = run(o, start("n", "v2"), { type: "NODE_CAUGHT_UP", node: "n" });
    const p = predict(o.snapshot);
    expect(p.storeUpgradesApplied).toContainEqual({ node: "n", name: "up", height: 3 });
    expect(p.nodes.n).toMatchObject({ status: "running", height: 5 });
    expect(p.handlerRuns).toEqual({ up: 1 });
  });

  it("a lagging running node catches up implicitly before the next block", () => {
    let o = run(haltedAt3(), start("a", "v2"), { type: "BLOCK", height: 3 }, start("n", "v2"));
    o = step(o, { type: "BLOCK", height: 4 });
    const p = predict(o.snapshot);
    expect(p.lastBlock?.committedBy).toEqual(["a", "n"]);
    expect(p.nodes.n).toMatchObject({ status: "running", height: 4 });
  });

  it("a catch-up that reaches a different result halts with app-hash-mismatch", () => {
    let o = run(haltedAt3(), start("a", "v2"), { type: "BLOCK", height: 3 }, start("n", "v2plain"));
    o = step(o, { type: "NODE_CAUGHT_UP", node: "n" });
    expect(predict(o.snapshot).nodes.n?.halt).toEqual({
      kind: "app-hash-mismatch",
      message: "wrong Block.Header.AppHash at height 3",
      height: 3,
    });
  });
});

describe("observation", () => {
  it("is JSON-safe with 64-bit plan heights", () => {
    const o = run(blocksTo(createOracle(solo), 1), proposal(1, schedule("far", 9223372036854775807n)));
    const text = JSON.stringify(observe(o.snapshot));
    expect(JSON.parse(text).plan).toEqual({ name: "far", height: "9223372036854775807", info: "" });
  });

  it("is deterministic: the same events give the same observation", () => {
    const events: OracleEvent[] = [
      { type: "BLOCK", height: 1 },
      proposal(1, schedule("up", 2)),
      { type: "BLOCK", height: 2 },
      start("val1", "v2"),
      { type: "BLOCK", height: 2 },
    ];
    const a = JSON.stringify(observe(run(createOracle(solo), ...events).snapshot));
    const b = JSON.stringify(observe(run(createOracle(solo), ...events).snapshot));
    expect(a).toBe(b);
  });

  it("a stopped node does not execute blocks", () => {
    const o = run(createOracle(solo), { type: "NODE_STOPPED", node: "val1" }, { type: "BLOCK", height: 1 });
    expect(predict(o.snapshot)).toMatchObject({ height: 0, stalled: true, nodes: { val1: { status: "stopped" } } });
  });
});
