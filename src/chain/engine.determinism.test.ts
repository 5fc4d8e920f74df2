import { describe, expect, it } from "vitest";
import { binary, testChain } from "../../test/kit/chain.js";
import { govAuthority } from "../core/address.js";
import { durationMs } from "../core/brand.js";
import type { Action, Step } from "./actions.js";
import type { BlockTimeModel } from "./block-time.js";

const NODES = ["val1", "val2", "val3", "val4"];
const UNIFORM: BlockTimeModel = { kind: "uniform", minMs: durationMs(5000), maxMs: durationMs(7000) };
const NORMAL: BlockTimeModel = {
  kind: "normal",
  meanMs: durationMs(6000),
  stddevMs: durationMs(1000),
  minMs: durationMs(1),
};
const FIXED: BlockTimeModel = { kind: "fixed", intervalMs: durationMs(6000) };

const submit: Action = {
  kind: "submitProposal",
  id: "up",
  proposer: "val1",
  title: "t",
  summary: "s",
  metadata: "",
  deposit: [{ denom: "stake", amount: 10_000_000n }],
  expedited: false,
  messages: [{ kind: "softwareUpgrade", authority: govAuthority(), plan: { name: "v2", height: 300n, info: "" } }],
};
const vote: Action = {
  kind: "vote",
  proposal: "up",
  votes: new Map([
    ["val1", "yes"],
    ["val2", "yes"],
    ["val3", "yes"],
  ]),
};
const lifecycle = (seed: number, blockTime: BlockTimeModel, withProposal = true) => {
  const steps: Step[] = withProposal
    ? [
        { index: 0, trigger: { kind: "height", height: 2 }, action: submit },
        { index: 1, trigger: { kind: "height", height: 3 }, action: vote },
      ]
    : [];
  return testChain({
    seed,
    blockTime,
    binaries: [binary("v1"), binary("v2", { v2: { handler: "migrate" } })],
    votingPeriodMs: 600_000,
    depositPeriodMs: 600_000,
    nodes: Object.fromEntries(
      NODES.map((n) => [n, { sidecar: { enabled: true, delayMs: durationMs(600_000), binaries: new Map() } }]),
    ),
    steps,
  });
};
const blockTimes = (e: ReturnType<typeof lifecycle>, to: number) =>
  Array.from({ length: to }, (_, i) => e.blocks.timeMs(i + 1)!);

describe("determinism", () => {
  it("the same seed gives the same trace hash, byte for byte", () => {
    const a = lifecycle(7, UNIFORM);
    const b = lifecycle(7, UNIFORM);
    a.run({ settle: true });
    b.run({ settle: true });
    expect(a.height).toBeGreaterThan(300);
    expect([...a.handlerRuns]).toEqual([["v2", 1]]);
    expect(a.traceHash()).toBe(b.traceHash());
    expect(blockTimes(a, a.height)).toEqual(blockTimes(b, b.height));
  });

  for (const [name, model] of [
    ["uniform", UNIFORM],
    ["normal", NORMAL],
  ] as const) {
    it(`different seeds with ${name} block times give different block times and trace hashes`, () => {
      const a = lifecycle(1, model);
      const b = lifecycle(2, model);
      a.run({ untilHeight: 200 });
      b.run({ untilHeight: 200 });
      expect(blockTimes(a, 200)).not.toEqual(blockTimes(b, 200));
      expect(a.traceHash()).not.toBe(b.traceHash());
      // Jitter really is jitter: not every interval is the mean.
      const intervals = new Set(blockTimes(a, 200).map((t, i, all) => t - (all[i - 1] ?? Date.UTC(2026, 0, 1))));
      expect(intervals.size).toBeGreaterThan(1);
    });
  }

  it("uniform intervals stay inside [min, max]", () => {
    const e = lifecycle(3, UNIFORM, false);
    e.run({ untilHeight: 1000 });
    const times = [Date.UTC(2026, 0, 1), ...blockTimes(e, 1000)];
    for (let i = 1; i < times.length; i++) {
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(5000);
      expect(times[i]! - times[i - 1]!).toBeLessThanOrEqual(7000);
    }
  });

  it("fixed block times are the same whatever the seed", () => {
    const a = lifecycle(1, FIXED);
    const b = lifecycle(99, FIXED);
    a.run({ settle: true });
    b.run({ settle: true });
    expect(a.height).toBe(b.height);
    expect(blockTimes(a, a.height)).toEqual(blockTimes(b, b.height));
    expect(a.committed()?.appHash).toBe(b.committed()?.appHash);
  });

  it("adding a proposal never changes the block times before a stall", () => {
    const a = lifecycle(5, UNIFORM, true);
    const b = lifecycle(5, UNIFORM, false);
    a.run({ untilHeight: 299 });
    b.run({ untilHeight: 299 });
    expect(blockTimes(a, 299)).toEqual(blockTimes(b, 299));
    expect(a.traceHash()).not.toBe(b.traceHash());
  });
});
