import { describe, expect, it } from "vitest";
import { binary, testChain } from "../../test/kit/chain.js";
import type { SidecarConfig } from "../app/types.js";
import { govAuthority } from "../core/address.js";
import { durationMs } from "../core/brand.js";
import type { Action, Step, Trigger } from "./actions.js";

/** Genesis of testChain; blocks every 6 s, so block h is at GENESIS + 6000·h while nothing halts. */
const GENESIS = Date.UTC(2026, 0, 1);
const BLOCK_MS = 6000;
const PLAN = 20;

const atHeight = (height: number): Trigger => ({ kind: "height", height });
const atTime = (timeMs: number): Trigger => ({ kind: "time", timeMs });
const steps = (...list: [Trigger, Action][]): Step[] =>
  list.map(([trigger, action], index) => ({ index, trigger, action }));
const schedule = (name: string, height: number): Action => ({
  kind: "authorityExec",
  messages: [{ kind: "softwareUpgrade", authority: govAuthority(), plan: { name, height: BigInt(height), info: "" } }],
});
const swap = (node: string, bin: string): Action => ({ kind: "swapBinary", node, binary: bin });
const sidecar = (delayMs: number): { sidecar: SidecarConfig } => ({
  sidecar: { enabled: true, delayMs: durationMs(delayMs), binaries: new Map() },
});
const parse = (lines: readonly string[]) => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
const BINARIES = [binary("v1"), binary("v2", { v2: { handler: "migrate" } }, { upgrade: 2 }, { upgrade: [1] })];

describe("a partial upgrade across validators", () => {
  const swapAt = GENESIS + PLAN * BLOCK_MS + 10 * 60_000;
  const build = () =>
    testChain({
      binaries: BINARIES,
      engine: { keepTrace: true },
      steps: steps(
        [atHeight(2), schedule("v2", PLAN)],
        [{ kind: "halt", node: "val1", haltKind: "upgrade-needed", delayMs: 60_000 }, swap("val1", "v2")],
        [{ kind: "halt", node: "val2", haltKind: "upgrade-needed", delayMs: 60_000 }, swap("val2", "v2")],
        [atTime(swapAt), swap("val3", "v2")],
        [atTime(GENESIS + 3_600_000), swap("val4", "v2")],
      ),
    });

  it("stalls at the plan height while only 2 of 4 validators run the new binary", () => {
    const e = build();
    e.run({ untilTimeMs: swapAt - 1 });
    expect(e.height).toBe(PLAN - 1);
    expect(e.stalled).toBe(true);
    expect(e.haltedInfo()).toMatchObject({ height: PLAN, nodes: ["val3", "val4"] });
    expect(e.nodeStatus("val1")).toMatchObject({ status: "running", binary: "v2", height: PLAN - 1 });
    expect(e.nodeStatus("val2")).toMatchObject({ status: "running", binary: "v2", height: PLAN - 1 });
    const stalls = parse(e.traceLines()).filter((l) => l.t === "stall");
    expect(stalls[0]).toEqual({ t: "stall", height: PLAN, time: "2026-01-01T00:02:00Z" });
    expect(stalls.every((l) => l.height === PLAN)).toBe(true);
    expect(e.halts.map((h) => [h.node, h.height, h.kind])).toEqual([
      ["val1", PLAN, "upgrade-needed"],
      ["val2", PLAN, "upgrade-needed"],
      ["val3", PLAN, "upgrade-needed"],
      ["val4", PLAN, "upgrade-needed"],
    ]);
    expect(e.handlerRuns.size).toBe(0);
  });

  it("resumes when a third validator swaps, running the handler exactly once", () => {
    const e = build();
    e.run({ untilTimeMs: swapAt + 60_000 });
    expect(e.stalled).toBe(false);
    expect(e.haltedInfo()).toBeNull();
    expect(e.height).toBeGreaterThan(PLAN);
    // The plan height is committed at the successful retry, i.e. when val3 restarted.
    expect(e.blocks.timeMs(PLAN)).toBe(swapAt);
    expect([...e.handlerRuns]).toEqual([["v2", 1]]);
    expect(e.committed()?.applied.get("v2")).toBe(PLAN);
    expect(e.committed()?.moduleVersions.get("upgrade")).toBe(2);
    expect(e.nodeStatus("val4")?.status).toBe("halted");
  });

  it("lets the fourth validator catch up later to the chain's app hash", () => {
    const e = build();
    e.run({ untilTimeMs: GENESIS + 4_000_000 });
    const s = e.nodeStatus("val4")!;
    expect(s).toMatchObject({ status: "running", binary: "v2", height: e.height });
    expect(e.host.lastAppHash(e.nodeState("val4")!)).toBe(e.blocks.appHash(e.height));
    expect([...e.handlerRuns]).toEqual([["v2", 1]]);
    expect(e.halts).toHaveLength(4);
  });
});

describe("skip heights", () => {
  it("a minority node that skips reaches another app hash and halts with app-hash-mismatch", () => {
    const e = testChain({
      binaries: BINARIES,
      nodes: {
        val1: sidecar(60_000),
        val2: sidecar(60_000),
        val3: sidecar(60_000),
        val4: { skipUpgradeHeights: [PLAN] },
      },
      steps: steps([atHeight(2), schedule("v2", PLAN)]),
    });
    e.run({ untilHeight: PLAN + 5 });
    expect(e.height).toBe(PLAN + 5);
    const mismatch = e.halts.filter((h) => h.node === "val4");
    expect(mismatch).toEqual([
      expect.objectContaining({
        height: PLAN,
        kind: "app-hash-mismatch",
        message: `wrong Block.Header.AppHash at height ${PLAN}`,
      }),
    ]);
    expect(e.nodeStatus("val4")).toMatchObject({ status: "halted", height: PLAN - 1 });
    expect([...e.handlerRuns]).toEqual([["v2", 1]]);
  });

  it("when a majority skips, the chain goes on without the upgrade and the applier halts with app-hash-mismatch", () => {
    const skip = { skipUpgradeHeights: [PLAN] };
    const e = testChain({
      binaries: BINARIES,
      nodes: { val1: skip, val2: skip, val3: skip, val4: sidecar(60_000) },
      steps: steps([atHeight(2), schedule("v2", PLAN)]),
    });
    e.run({ untilTimeMs: GENESIS + 3_600_000 });
    expect(e.stalled).toBe(false);
    expect(e.handlerRuns.size).toBe(0);
    expect(e.committed()?.plan).toBeNull();
    expect(e.committed()?.applied.size).toBe(0);
    expect(e.halts.map((h) => [h.node, h.height, h.kind, h.message])).toEqual([
      ["val4", PLAN, "upgrade-needed", `UPGRADE "v2" NEEDED at height: ${PLAN}: `],
      ["val4", PLAN, "app-hash-mismatch", `wrong Block.Header.AppHash at height ${PLAN}`],
    ]);
    expect(e.nodeStatus("val4")).toMatchObject({ status: "halted", binary: "v2", height: PLAN - 1 });
  });
});

describe("catch-up across an upgrade", () => {
  const build = (...restarts: [number, string][]) =>
    testChain({
      binaries: BINARIES,
      nodes: { val1: sidecar(60_000), val2: sidecar(60_000), val3: sidecar(60_000) },
      steps: steps(
        [atHeight(2), schedule("v2", PLAN)],
        [atHeight(10), { kind: "stop", node: "val4" }],
        ...restarts.map(([h, bin]): [Trigger, Action] => [atHeight(h), swap("val4", bin)]),
      ),
    });

  it("with the old binary the node halts at the plan height with upgrade-needed during catch-up", () => {
    const e = build([60, "v1"]);
    e.run({ untilHeight: 70 });
    const h = e.halts.filter((x) => x.node === "val4");
    expect(h).toEqual([
      expect.objectContaining({
        height: PLAN,
        kind: "upgrade-needed",
        message: `UPGRADE "v2" NEEDED at height: ${PLAN}: `,
      }),
    ]);
    // Halted during catch-up: the halt happened when the step ran, well after the plan height.
    expect(h[0]!.timeMs).toBeGreaterThan(e.blocks.timeMs(59)!);
    expect(e.nodeStatus("val4")).toMatchObject({ status: "halted", height: PLAN - 1 });
    expect(e.host.readUpgradeInfo(e.nodeState("val4")!)).toEqual({ kind: "ok", name: "v2", height: PLAN, info: "" });
  });

  it("then restarted with the new binary it catches up past the plan height to the chain's app hash", () => {
    const e = build([60, "v1"], [65, "v2"]);
    e.run({ untilHeight: 70 });
    expect(e.halts.filter((x) => x.node === "val4").map((x) => x.kind)).toEqual(["upgrade-needed"]);
    expect(e.nodeStatus("val4")).toMatchObject({ status: "running", binary: "v2", height: 70 });
    expect(e.host.lastAppHash(e.nodeState("val4")!)).toBe(e.blocks.appHash(70));
    expect(e.host.readCommitted(e.nodeState("val4")!).applied.get("v2")).toBe(PLAN);
    expect([...e.handlerRuns]).toEqual([["v2", 1]]);
  });

  it("started straight with the new binary below the plan height, it halts with binary-too-early (as the reference)", () => {
    const e = build([60, "v2"]);
    e.run({ untilHeight: 70 });
    expect(e.halts.filter((x) => x.node === "val4")).toEqual([
      expect.objectContaining({ height: 10, kind: "binary-too-early" }),
    ]);
    expect(e.nodeStatus("val4")).toMatchObject({ status: "halted", height: 9 });
  });
});

describe("binary checks at PreBlock", () => {
  it("a handler binary started before the plan height halts with binary-too-early", () => {
    const e = testChain({
      binaries: BINARIES,
      steps: steps([atHeight(2), schedule("v2", PLAN)], [atHeight(10), swap("val1", "v2")]),
    });
    e.run({ untilHeight: 15 });
    expect(e.halts).toEqual([
      expect.objectContaining({
        node: "val1",
        height: 10,
        kind: "binary-too-early",
        message:
          'BINARY UPDATED BEFORE TRIGGER! UPGRADE "v2" - in binary but not executed on chain. Downgrade your binary',
      }),
    ]);
    expect(e.nodeStatus("val1")?.status).toBe("halted");
    expect(e.height).toBe(15);
  });

  it("a node restarted after an upgrade with a binary lacking the handler halts with downgrade", () => {
    const e = testChain({
      binaries: BINARIES,
      nodes: { val1: sidecar(60_000), val2: sidecar(60_000), val3: sidecar(60_000), val4: sidecar(60_000) },
      steps: steps([atHeight(2), schedule("v2", PLAN)], [atHeight(40), swap("val1", "v1")]),
    });
    e.run({ untilHeight: 45 });
    expect(e.halts.filter((h) => h.kind !== "upgrade-needed")).toEqual([
      expect.objectContaining({
        node: "val1",
        height: 40,
        kind: "downgrade",
        message: "wrong app version 0, upgrade handler is missing for v2 upgrade plan",
      }),
    ]);
    expect(e.height).toBe(45);
  });
});

describe("plans scheduled at the current height", () => {
  it("fire at the next block, and upgrade-info.json records that height", () => {
    const e = testChain({ binaries: BINARIES, steps: steps([atHeight(10), schedule("v2", 10)]) });
    e.run({ untilTimeMs: GENESIS + 3_600_000 });
    expect(e.stepResults()[0]).toMatchObject({ ok: true, height: 10 });
    expect(e.height).toBe(10);
    expect(e.halts.map((h) => [h.node, h.height, h.kind, h.message])).toEqual(
      ["val1", "val2", "val3", "val4"].map((n) => [n, 11, "upgrade-needed", 'UPGRADE "v2" NEEDED at height: 10: ']),
    );
    expect(e.host.readUpgradeInfo(e.nodeState("val1")!)).toEqual({ kind: "ok", name: "v2", height: 11, info: "" });
  });
});

describe("upgrade-info.json not writable", () => {
  it("halts with upgrade-info-write-failed and the sidecar does not fire", () => {
    const e = testChain({
      binaries: BINARIES,
      engine: { keepTrace: true },
      nodes: {
        val1: { ...sidecar(60_000), upgradeInfoWritable: false },
        val2: sidecar(60_000),
        val3: sidecar(60_000),
        val4: sidecar(60_000),
      },
      steps: steps([atHeight(2), schedule("v2", PLAN)]),
    });
    e.run({ untilHeight: PLAN + 5 });
    expect(e.halts.filter((h) => h.node === "val1")).toEqual([
      expect.objectContaining({
        height: PLAN,
        kind: "upgrade-info-write-failed",
        message:
          "unable to write upgrade info to filesystem: open /nodes/val1/data/upgrade-info.json: permission denied",
      }),
    ]);
    expect(e.host.readUpgradeInfo(e.nodeState("val1")!)).toEqual({ kind: "absent" });
    const sidecars = parse(e.traceLines()).filter((l) => l.t === "sidecar");
    expect(sidecars.map((l) => l.node)).toEqual(["val2", "val3", "val4"]);
    expect(e.nodeStatus("val1")).toMatchObject({ status: "halted", binary: "v1" });
    expect(e.height).toBe(PLAN + 5);
  });
});
