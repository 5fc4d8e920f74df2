import { describe, expect, it } from "vitest";
import { binary, proposeAndPass, testChain } from "../../test/kit/chain.js";
import { durationMs } from "../core/brand.js";
import type { Step } from "./actions.js";

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
const state = (e: ReturnType<typeof build>) => ({
  traceHash: e.traceHash(),
  lines: e.traceLines(),
  height: e.height,
  committed: e.committed(),
  halts: e.halts,
  handlerRuns: [...e.handlerRuns],
  proposals: e.proposals,
  steps: e.stepResults(),
  nodes: NODES.map((n) => [e.nodeStatus(n), e.host.lastAppHash(e.nodeState(n)!)]),
});

describe("clone", () => {
  const reference = build();
  reference.run({ settle: true });

  for (const [when, advance] of [
    ["while the proposal is voting", (e: ReturnType<typeof build>) => e.run({ untilHeight: 50 })],
    ["while halted with sidecars pending", (e: ReturnType<typeof build>) => e.run({ untilHeight: PLAN - 1 })],
  ] as const) {
    it(`${when}: the clone and the original run to the same end`, () => {
      const e = build();
      advance(e);
      const c = e.clone();
      expect(c.traceHash()).toBe(e.traceHash());
      e.run({ settle: true });
      c.run({ settle: true });
      expect(state(c)).toEqual(state(e));
      expect(state(e)).toEqual(state(reference));
      expect([...e.handlerRuns]).toEqual([["v2", 1]]);
    });
  }

  it("stalled mid-run: the queued sidecar events are copied", () => {
    const e = build();
    e.run({ untilHeight: PLAN - 1 });
    e.run({ maxBlocks: 0 });
    e.run({ untilTimeMs: e.nowMs + 60_000 });
    expect(e.stalled).toBe(true);
    const c = e.clone();
    c.run({ settle: true });
    e.run({ settle: true });
    expect(state(c)).toEqual(state(reference));
    expect(state(e)).toEqual(state(reference));
  });

  it("an extra action on the clone does not affect the original, and vice versa", () => {
    const e = build();
    e.run({ untilHeight: 100 });
    const c = e.clone();
    const r = c.apply({ kind: "stop", node: "val4" });
    expect(r).toMatchObject({ ok: true });
    c.run({ settle: true });
    e.run({ settle: true });
    expect(c.nodeStatus("val4")).toMatchObject({ status: "stopped", height: 100 });
    expect(c.traceHash()).not.toBe(e.traceHash());
    expect(state(e)).toEqual(state(reference));

    // The other way round: acting on the original after cloning leaves the clone as it was.
    const e2 = build();
    e2.run({ untilHeight: 100 });
    const c2 = e2.clone();
    e2.apply({ kind: "swapBinary", node: "val2", binary: "v2" });
    expect(e2.nodeStatus("val2")?.binary).toBe("v2");
    expect(c2.nodeStatus("val2")).toMatchObject({ binary: "v1", status: "running" });
    c2.run({ settle: true });
    expect(state(c2)).toEqual(state(reference));
  });

  it("node states are independent: running the clone leaves the original's stores where they were", () => {
    const e = build();
    e.run({ untilHeight: 100 });
    const hash = e.host.lastAppHash(e.nodeState("val1")!);
    const c = e.clone();
    c.run({ untilHeight: 200 });
    expect(e.height).toBe(100);
    expect(e.nodeStatus("val1")?.height).toBe(100);
    expect(e.host.lastAppHash(e.nodeState("val1")!)).toBe(hash);
    expect(c.nodeStatus("val1")?.height).toBe(200);
  });
});
