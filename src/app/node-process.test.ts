import { describe, expect, it } from "vitest";
import { binary, testChain } from "../../test/kit/chain.js";
import type { Action, Step } from "../chain/actions.js";
import { govAuthority } from "../core/address.js";
import type { NodeConfig } from "./types.js";

/** Block execution on a node (docs/scenario-format.md §1): upgrade handlers, and the idle horizon the fast path relies on. */
const PLAN = 20;
const GENESIS = Date.UTC(2026, 0, 1);
const CFG = { name: "probe", upgradeInfoWritable: true } as NodeConfig;
const at = (height: number, action: Action, index = 0): Step => ({
  index,
  trigger: { kind: "height", height },
  action,
});
const schedule = (height: number): Action => ({
  kind: "authorityExec",
  messages: [
    { kind: "softwareUpgrade", authority: govAuthority(), plan: { name: "v2", height: BigInt(height), info: "" } },
  ],
});
const swapAllOnHalt = (bin: string): Step[] =>
  ["val1", "val2", "val3", "val4"].map((node, i) => ({
    index: 10 + i,
    trigger: { kind: "halt", node, haltKind: "upgrade-needed", delayMs: 1000 },
    action: { kind: "swapBinary", node, binary: bin },
  }));

describe("upgrade handlers", () => {
  it("a failing handler halts every node running it with handler-error and its message", () => {
    const e = testChain({
      binaries: [binary("v1"), binary("v2", { v2: { handler: "fail", failMessage: "boom: state broken" } })],
      steps: [at(2, schedule(PLAN)), ...swapAllOnHalt("v2")],
    });
    e.run({ untilTimeMs: GENESIS + 3_600_000 });
    expect(e.halts.filter((h) => h.kind === "handler-error").map((h) => [h.node, h.height, h.message])).toEqual(
      ["val1", "val2", "val3", "val4"].map((n) => [n, PLAN, "boom: state broken"]),
    );
    expect(e.haltedInfo()).toMatchObject({ height: PLAN });
    expect(e.handlerRuns.size).toBe(0);
  });

  it("a failing handler without a message uses the default text", () => {
    const e = testChain({
      binaries: [binary("v1"), binary("v2", { v2: { handler: "fail" } })],
      steps: [at(2, schedule(PLAN)), ...swapAllOnHalt("v2")],
    });
    e.run({ untilTimeMs: GENESIS + 3_600_000 });
    expect(e.halts.find((h) => h.kind === "handler-error")?.message).toBe("upgrade handler failed");
  });

  it("migrate runs the registered migrations and records the new versions; noop keeps the old map", () => {
    const run = (handler: "migrate" | "noop") => {
      const e = testChain({
        binaries: [binary("v1"), binary("v2", { v2: { handler } }, { gov: 3 }, { gov: [1, 2] })],
        steps: [at(2, schedule(PLAN)), ...swapAllOnHalt("v2")],
      });
      e.run({ untilHeight: PLAN + 2 });
      return e;
    };
    const migrated = run("migrate");
    const kept = run("noop");
    expect(migrated.committed()?.moduleVersions.get("gov")).toBe(3);
    expect(kept.committed()?.moduleVersions.get("gov")).toBe(1);
    expect(migrated.committed()?.appHash).not.toBe(kept.committed()?.appHash);
    expect([...migrated.handlerRuns]).toEqual([["v2", 1]]);
    expect([...kept.handlerRuns]).toEqual([["v2", 1]]);
  });

  it("a migration missing from the binary halts with handler-error", () => {
    const e = testChain({
      binaries: [binary("v1"), binary("v2", { v2: { handler: "migrate" } }, { gov: 3 }, { gov: [1] })],
      steps: [at(2, schedule(PLAN)), ...swapAllOnHalt("v2")],
    });
    e.run({ untilTimeMs: GENESIS + 3_600_000 });
    const h = e.halts.find((x) => x.kind === "handler-error");
    expect(h?.height).toBe(PLAN);
    expect(h?.message).toBe("no migration found for module gov from version 2 to version 3: not found");
  });
});

describe("idle horizon", () => {
  const chainAt = (height: number, steps: Step[] = [at(2, schedule(PLAN))]) => {
    const e = testChain({
      binaries: [binary("v1"), binary("v2", { v2: { handler: "noop" } })],
      steps,
      votingPeriodMs: 600_000,
      depositPeriodMs: 600_000,
    });
    e.run({ untilHeight: height });
    return e;
  };
  /** A fresh process over a copy of val1's state, after one executed block (the downgrade check is behind it). */
  const processOf = (e: ReturnType<typeof chainAt>, bin = "v1") => {
    const state = e.host.cloneNodeState(e.nodeState("val1")!);
    const started = e.host.start(state, CFG, bin, []);
    if (!started.ok) throw new Error(started.halt.message);
    return { p: started.process, state };
  };

  it("is undefined right after a start, until the first PreBlock ran the downgrade check", () => {
    const e = chainAt(5);
    const { p } = processOf(e);
    expect(p.idleHorizon()).toBeUndefined();
    const out = p.execute(6, e.lastBlockTimeMs + 6000, []);
    expect(out.ok).toBe(true);
    p.commit();
    expect(p.idleHorizon()).toEqual({ heightEnd: PLAN, timeEndMs: Number.POSITIVE_INFINITY });
  });

  it("ends at the next governance deadline", () => {
    const submit: Action = {
      kind: "submitProposal",
      id: "up",
      proposer: "val1",
      title: "t",
      summary: "s",
      metadata: "",
      deposit: [{ denom: "stake", amount: 10_000_000n }],
      expedited: false,
      messages: [{ kind: "cancelUpgrade", authority: govAuthority() }],
    };
    const e = chainAt(5, [at(2, submit)]);
    const { p } = processOf(e);
    p.execute(6, e.lastBlockTimeMs + 6000, []);
    p.commit();
    const votingEnd = e.proposalByLabel("up")!.votingEndTimeMs!;
    expect(p.idleHorizon()).toEqual({ heightEnd: Number.MAX_SAFE_INTEGER, timeEndMs: votingEnd });
  });

  it("is undefined when the binary has the handler of a pending plan, or the plan is due next", () => {
    const e = chainAt(5);
    const early = processOf(e, "v2").p;
    early.execute(6, e.lastBlockTimeMs + 6000, []);
    expect(early.idleHorizon()).toBeUndefined();
    const due = chainAt(PLAN - 2);
    const { p } = processOf(due);
    expect(p.execute(PLAN - 1, due.lastBlockTimeMs + 6000, []).ok).toBe(true);
    p.commit();
    expect(p.idleHorizon()).toBeUndefined();
    expect(p.execute(PLAN, due.lastBlockTimeMs + 12_000, [])).toMatchObject({
      ok: false,
      halt: { kind: "upgrade-needed" },
    });
  });

  it("committing idle blocks gives the same state as executing them", () => {
    const e = chainAt(5);
    const a = processOf(e);
    const b = processOf(e);
    let t = e.lastBlockTimeMs;
    for (const x of [a, b]) {
      x.p.execute(6, t + 6000, []);
      x.p.commit();
    }
    t += 6000;
    for (let h = 7; h < PLAN; h++) {
      const out = a.p.execute(h, (t += 6000), []);
      expect(out.ok).toBe(true);
      a.p.commit();
    }
    b.p.commitIdle(PLAN - 7);
    expect(b.p.lastHeight()).toBe(PLAN - 1);
    expect(b.p.lastAppHash()).toBe(a.p.lastAppHash());
    expect(b.p.lastAppHash()).toBe(e.blocks.appHash(5));
  });
});
