import { describe, expect, it } from "vitest";
import { binary, proposeAndPass, testChain } from "../../test/kit/chain.js";
import { durationMs } from "../core/brand.js";
import type { Step } from "./actions.js";
import { ChainEngine } from "./engine.js";

/**
 * An engine restored from its plain-data snapshot continues exactly as the original: same trace hash, same
 * observable state, at every cut (mid-vote, halted with sidecars pending, stalled), after a structuredClone of the
 * snapshot too, and independently of the original. The library-wide form of this test (every scenario, every
 * planted fault) is test/engine-snapshot.test.ts.
 */
const PLAN = 300;
const NODES = ["val1", "val2", "val3", "val4"];
const STEPS: Step[] = proposeAndPass(PLAN, "t", "s");
const build = () =>
  testChain({
    seed: 3,
    blockTime: { kind: "uniform", minMs: durationMs(5000), maxMs: durationMs(7000) },
    binaries: [binary("v1"), binary("v2", { v2: { handler: "migrate" } }, { upgrade: 2 }, { upgrade: [1] })],
    votingPeriodMs: 600_000,
    depositPeriodMs: 600_000,
    nodes: Object.fromEntries(
      NODES.map((n) => [n, { sidecar: { enabled: true, delayMs: durationMs(600_000), binaries: new Map() } }]),
    ),
    steps: STEPS,
    engine: { keepTrace: true },
  });
type Engine = ReturnType<typeof build>;
const restore = (e: Engine, snap: ReturnType<Engine["snapshot"]>): Engine => ChainEngine.fromSnapshot(e.host, snap);
const state = (e: Engine) => ({
  traceHash: e.traceHash(),
  lines: e.traceLines(),
  height: e.height,
  nowMs: e.nowMs,
  stalled: e.stalled,
  pending: e.pending,
  committed: e.committed(),
  halts: e.halts,
  handlerRuns: [...e.handlerRuns],
  proposals: e.proposals,
  steps: e.stepResults(),
  nodes: NODES.map((n) => [e.nodeStatus(n), e.host.lastAppHash(e.nodeState(n)!), e.nodeState(n)!.store.executionKey()]),
  lastBlock: e.blocks.meta(e.height),
});

describe("engine snapshots", () => {
  const reference = build();
  reference.run({ settle: true });

  const cuts: [string, (e: Engine) => void, (e: Engine) => void][] = [
    ["at block 1", (e) => e.run({ untilHeight: 1 }), () => {}],
    [
      "while the proposal is voting",
      (e) => e.run({ untilHeight: 50 }),
      (e) => expect(e.proposals.map((p) => p.status)).toEqual(["voting_period"]),
    ],
    [
      "halted, with sidecars pending",
      (e) => {
        e.run({ untilHeight: PLAN - 1 });
        e.run({ maxBlocks: 0 });
        e.run({ untilTimeMs: e.nowMs + 7000 });
      },
      (e) => {
        expect(e.halts.map((h) => h.kind)).toEqual([
          "upgrade-needed",
          "upgrade-needed",
          "upgrade-needed",
          "upgrade-needed",
        ]);
        expect(e.pending).toBe(true);
      },
    ],
    [
      "stalled",
      (e) => {
        e.run({ untilHeight: PLAN - 1 });
        e.run({ untilTimeMs: e.nowMs + 60_000 });
      },
      (e) => expect(e.stalled).toBe(true),
    ],
  ];

  for (const [when, cut, holds] of cuts) {
    it(`${when}: restored (also from a structuredClone), it runs to the same end as the original`, () => {
      const e = build();
      cut(e);
      holds(e);
      const snap = e.snapshot();
      const restored = restore(e, snap);
      expect(state(restored)).toEqual(state(e));
      e.run({ settle: true });
      restored.run({ settle: true });
      // Neither run changed the snapshot: a copy of it, restored now, still starts at the cut.
      const cloned = restore(e, structuredClone(snap));
      cloned.run({ settle: true });
      expect(state(restored)).toEqual(state(e));
      expect(state(cloned)).toEqual(state(e));
      expect(state(e)).toEqual(state(reference));
      expect([...e.handlerRuns]).toEqual([["v2", 1]]);
    });
  }

  it("an extra action on the restored engine does not affect the original, and vice versa", () => {
    const e = build();
    e.run({ untilHeight: 100 });
    const c = restore(e, e.snapshot());
    expect(c.apply({ kind: "stop", node: "val4" })).toMatchObject({ ok: true });
    c.run({ settle: true });
    e.run({ settle: true });
    expect(c.nodeStatus("val4")).toMatchObject({ status: "stopped", height: 100 });
    expect(c.traceHash()).not.toBe(e.traceHash());
    expect(state(e)).toEqual(state(reference));

    const e2 = build();
    e2.run({ untilHeight: 100 });
    const c2 = restore(e2, e2.snapshot());
    e2.apply({ kind: "swapBinary", node: "val2", binary: "v2" });
    expect(e2.nodeStatus("val2")?.binary).toBe("v2");
    expect(c2.nodeStatus("val2")).toMatchObject({ binary: "v1", status: "running" });
    c2.run({ settle: true });
    expect(state(c2)).toEqual(state(reference));
  });

  it("node states are independent: running the restored engine leaves the original's stores where they were", () => {
    const e = build();
    e.run({ untilHeight: 100 });
    const hash = e.host.lastAppHash(e.nodeState("val1")!);
    const c = restore(e, e.snapshot());
    c.run({ untilHeight: 200 });
    expect(e.height).toBe(100);
    expect(e.nodeStatus("val1")?.height).toBe(100);
    expect(e.host.lastAppHash(e.nodeState("val1")!)).toBe(hash);
    expect(c.nodeStatus("val1")?.height).toBe(200);
  });

  it("a snapshot is plain data: structuredClone keeps all of it, and it holds no function", () => {
    const e = build();
    e.run({ untilHeight: 50 });
    const snap = e.snapshot();
    const PLAIN = [Object.prototype, Array.prototype, Map.prototype, Set.prototype, null];
    const notPlain: string[] = [];
    const walk = (v: unknown, path: string, seen: Set<unknown>): void => {
      if (typeof v === "function") notPlain.push(path);
      if (v === null || typeof v !== "object" || seen.has(v)) return;
      seen.add(v);
      if (ArrayBuffer.isView(v)) return;
      if (!PLAIN.includes(Object.getPrototypeOf(v))) notPlain.push(path);
      const entries = v instanceof Map ? [...v] : v instanceof Set ? [...v].map((x, i) => [i, x]) : Object.entries(v);
      for (const [k, x] of entries) {
        if (v instanceof Map) walk(k, `${path}.<key>`, seen);
        walk(x, `${path}.${String(k)}`, seen);
      }
    };
    walk(snap, "snapshot", new Set());
    expect(notPlain).toEqual([]);
    expect(structuredClone(snap)).toEqual(snap);
  });
});
