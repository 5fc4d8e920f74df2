import { describe, expect, it } from "vitest";
import {
  ALL_SIDECARS_10M,
  at,
  SIDECAR_10M,
  schedule,
  steps,
  submitProposal,
  swap,
  testChain,
  UPGRADE_BASE,
  upgradeTo,
  yesVotes,
} from "../../test/kit/chain.js";
import { govAuthority } from "../core/address.js";
import { durationMs } from "../core/brand.js";
import type { EngineOptions } from "./engine.js";

/**
 * The idle fast path must be invisible: every scenario gives exactly the same trace hash and final state with and
 * without it. Plan heights are modest (300) so the slow path stays quick.
 */
const GENESIS = Date.UTC(2026, 0, 1);
const PLAN = 300;
const sidecar = SIDECAR_10M;
const allSidecars = ALL_SIDECARS_10M;
const base = UPGRADE_BASE;

type Scenario = (engine: EngineOptions) => ReturnType<typeof testChain>;
const SCENARIOS: Record<string, Scenario> = {
  "gov lifecycle with sidecars and a full node": (engine) =>
    testChain({
      ...base,
      engine,
      seed: 11,
      blockTime: { kind: "uniform", minMs: durationMs(5000), maxMs: durationMs(7000) },
      nodes: { ...allSidecars, full1: sidecar },
      steps: steps([at(2), submitProposal("up", upgradeTo(PLAN))], [at(3), yesVotes("up")]),
    }),
  "partial upgrade: stall, then resume": (engine) =>
    testChain({
      ...base,
      engine,
      steps: steps(
        [at(2), schedule(PLAN)],
        [{ kind: "halt", node: "val1", haltKind: "upgrade-needed", delayMs: 60_000 }, swap("val1", "v2")],
        [{ kind: "halt", node: "val2", haltKind: "upgrade-needed", delayMs: 60_000 }, swap("val2", "v2")],
        [{ kind: "time", timeMs: GENESIS + PLAN * 6000 + 1_200_000 }, swap("val3", "v2")],
        [{ kind: "time", timeMs: GENESIS + PLAN * 6000 + 3_600_000 }, swap("val4", "v2")],
      ),
    }),
  "minority skip": (engine) =>
    testChain({
      ...base,
      engine,
      nodes: { ...allSidecars, val4: { skipUpgradeHeights: [PLAN] } },
      steps: steps([at(2), schedule(PLAN)]),
    }),
  "catch-up across the upgrade, old binary then new": (engine) =>
    testChain({
      ...base,
      engine,
      nodes: { val1: sidecar, val2: sidecar, val3: sidecar },
      steps: steps(
        [at(2), schedule(PLAN)],
        [at(100), { kind: "stop", node: "val4" }],
        [at(400), swap("val4", "v1")],
        [at(450), swap("val4", "v2")],
      ),
    }),
  "early binary and downgrade": (engine) =>
    testChain({
      ...base,
      engine,
      nodes: allSidecars,
      steps: steps(
        [at(2), schedule(PLAN)],
        [at(100), swap("val4", "v2early")],
        [at(200), swap("val4", "v1")],
        [at(400), swap("val1", "v1")],
      ),
    }),
  "cancel proposal racing the upgrade": (engine) =>
    testChain({
      ...base,
      engine,
      nodes: allSidecars,
      steps: steps(
        [at(2), submitProposal("up", upgradeTo(PLAN))],
        [at(3), yesVotes("up")],
        [at(10), submitProposal("cancel", { kind: "cancelUpgrade", authority: govAuthority() })],
        [at(11), yesVotes("cancel")],
        [at(200), schedule(PLAN)],
      ),
    }),
};

/** The distinct halt kinds each scenario must produce, so that it really exercises what its name says. */
const HALT_KINDS: Record<keyof typeof SCENARIOS, readonly string[]> = {
  "gov lifecycle with sidecars and a full node": ["upgrade-needed"],
  "partial upgrade: stall, then resume": ["upgrade-needed"],
  "minority skip": ["upgrade-needed", "app-hash-mismatch"],
  "catch-up across the upgrade, old binary then new": ["upgrade-needed"],
  "early binary and downgrade": ["binary-too-early", "upgrade-needed", "downgrade"],
  "cancel proposal racing the upgrade": ["upgrade-needed"],
};

function snapshot(e: ReturnType<typeof testChain>) {
  return {
    traceHash: e.traceHash(),
    height: e.height,
    lastBlockTimeMs: e.lastBlockTimeMs,
    nowMs: e.nowMs,
    stalled: e.stalled,
    committed: e.committed(),
    halts: e.halts,
    handlerRuns: [...e.handlerRuns],
    proposals: e.proposals,
    steps: e.stepResults(),
    nodes: e.nodeNames().map((n) => ({
      ...e.nodeStatus(n),
      appHash: e.host.lastAppHash(e.nodeState(n)!),
      upgradeInfo: e.host.readUpgradeInfo(e.nodeState(n)!),
    })),
    blockHashes: Array.from({ length: e.height }, (_, i) => e.blocks.appHash(i + 1)),
    blockTimes: Array.from({ length: e.height }, (_, i) => e.blocks.timeMs(i + 1)),
  };
}

describe("fast-path equivalence", () => {
  for (const [name, build] of Object.entries(SCENARIOS)) {
    it(`${name}: same trace hash and final state with and without the fast path`, () => {
      const fast = build({});
      const slow = build({ noFastPath: true });
      fast.run({ untilTimeMs: GENESIS + 12 * 3_600_000 });
      slow.run({ untilTimeMs: GENESIS + 12 * 3_600_000 });
      expect(fast.height).toBeGreaterThan(PLAN);
      expect([...fast.handlerRuns]).toEqual([["v2", 1]]);
      expect([...new Set(fast.halts.map((h) => h.kind))]).toEqual(HALT_KINDS[name]);
      expect(snapshot(fast)).toEqual(snapshot(slow));
    });
  }

  it("settle runs stop at the same height with and without the fast path", () => {
    const build = SCENARIOS["gov lifecycle with sidecars and a full node"]!;
    const fast = build({});
    const slow = build({ noFastPath: true });
    fast.run({ settle: true });
    slow.run({ settle: true });
    expect(fast.height).toBe(PLAN + 10);
    expect(snapshot(fast)).toEqual(snapshot(slow));
  });

  it("maxBlocks and untilHeight are honoured exactly by the fast path", () => {
    const e = SCENARIOS["minority skip"]!({});
    e.run({ maxBlocks: 37 });
    expect(e.height).toBe(37);
    e.run({ untilHeight: 250 });
    expect(e.height).toBe(250);
  });
});
