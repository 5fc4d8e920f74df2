import { afterEach, describe, expect, it, vi } from "vitest";
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
import { SimNodeProcess } from "../app/node-process.js";
import { durationMs } from "../core/brand.js";
import type { EngineOptions } from "./engine.js";

/**
 * Execution sharing (running nodes with the same execution key execute a block once; the others adopt the result)
 * must be invisible: every scenario gives the same trace hash and final state, down to each node's store history
 * (its execution key holds the history digest), with sharing on and off, with and without the idle fast path.
 */
const GENESIS = Date.UTC(2026, 0, 1);
const PLAN = 120;
const sidecar = SIDECAR_10M;
const allSidecars = ALL_SIDECARS_10M;
const base = UPGRADE_BASE;

const SCENARIOS: Record<string, (engine: EngineOptions) => ReturnType<typeof testChain>> = {
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
        [{ kind: "time", timeMs: GENESIS + PLAN * 6000 + 1_200_000 }, swap("val3", "v2")],
        [{ kind: "time", timeMs: GENESIS + PLAN * 6000 + 3_600_000 }, swap("val4", "v2")],
        [{ kind: "time", timeMs: GENESIS + PLAN * 6000 + 3_700_000 }, swap("val2", "v2")],
      ),
    }),
  "skip heights: a minority diverges": (engine) =>
    testChain({
      ...base,
      engine,
      nodes: { ...allSidecars, val4: { skipUpgradeHeights: [PLAN] } },
      steps: steps([at(2), schedule(PLAN)]),
    }),
  "stopped node catches up on the old binary, then the new": (engine) =>
    testChain({
      ...base,
      engine,
      nodes: { val1: sidecar, val2: sidecar, val3: sidecar },
      steps: steps(
        [at(2), schedule(PLAN)],
        [at(40), { kind: "stop", node: "val4" }],
        [at(PLAN + 30), swap("val4", "v1")],
        [at(PLAN + 40), swap("val4", "v2")],
      ),
    }),
  "early binary and downgrade": (engine) =>
    testChain({
      ...base,
      engine,
      nodes: { ...allSidecars, val4: { upgradeInfoWritable: false } },
      steps: steps(
        [at(2), schedule(PLAN)],
        [at(30), swap("val3", "v2early")],
        [at(60), swap("val3", "v1")],
        [at(PLAN + 40), swap("val1", "v1")],
      ),
    }),
};

/** The distinct halt kinds each scenario must produce, so that it really exercises what its name says. */
const HALT_KINDS: Record<keyof typeof SCENARIOS, readonly string[]> = {
  "gov lifecycle with sidecars and a full node": ["upgrade-needed"],
  "partial upgrade: stall, then resume": ["upgrade-needed"],
  "skip heights: a minority diverges": ["upgrade-needed", "app-hash-mismatch"],
  "stopped node catches up on the old binary, then the new": ["upgrade-needed"],
  "early binary and downgrade": ["binary-too-early", "upgrade-needed", "upgrade-info-write-failed", "downgrade"],
};

function snapshot(e: ReturnType<typeof testChain>) {
  return {
    traceHash: e.traceHash(),
    height: e.height,
    nowMs: e.nowMs,
    stalled: e.stalled,
    committed: e.committed(),
    halts: e.halts,
    handlerRuns: [...e.handlerRuns],
    proposals: e.proposals,
    steps: e.stepResults(),
    nodes: e.nodeNames().map((n) => {
      const state = e.nodeState(n)!;
      return {
        ...e.nodeStatus(n),
        storeKey: state.store.executionKey(),
        earliest: state.store.earliestVersion(),
        appHashes: Array.from({ length: state.store.latestVersion() }, (_, i) => state.store.appHashAt(i + 1)),
        committed: e.host.readCommitted(state),
        upgradeInfo: e.host.readUpgradeInfo(state),
      };
    }),
  };
}

const runAll = (engine: EngineOptions, build: (typeof SCENARIOS)[string]) => {
  const e = build(engine);
  e.run({ untilTimeMs: GENESIS + PLAN * 6000 + 4_000_000 });
  return e;
};

describe("shared execution equivalence", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  for (const [name, build] of Object.entries(SCENARIOS)) {
    it(`${name}: same trace hash and final state with sharing on and off`, () => {
      const shared = runAll({}, build);
      expect(shared.height).toBeGreaterThan(PLAN);
      expect([...new Set(shared.halts.map((h) => h.kind))]).toEqual(HALT_KINDS[name]);
      expect(snapshot(shared)).toEqual(snapshot(runAll({ noSharedExecution: true }, build)));
      expect(snapshot(runAll({ noFastPath: true }, build))).toEqual(
        snapshot(runAll({ noFastPath: true, noSharedExecution: true }, build)),
      );
    });
  }

  it("nodes with identical state execute each block once; without sharing, once per node", () => {
    const execute = vi.spyOn(SimNodeProcess.prototype, "execute");
    const build = SCENARIOS["gov lifecycle with sidecars and a full node"]!;
    runAll({ noFastPath: true }, build);
    const shared = execute.mock.calls.length;
    execute.mockClear();
    const e = runAll({ noFastPath: true, noSharedExecution: true }, build);
    const unshared = execute.mock.calls.length;
    // Five running nodes on one state: the blocks up to the plan cost one execution instead of five.
    expect(unshared).toBeGreaterThanOrEqual(5 * PLAN);
    expect(shared).toBeLessThan(unshared / 4);
    expect(e.height).toBeGreaterThan(PLAN);
  });

  it("a node whose state differs (skip height) executes on its own; the others still share", () => {
    const execute = vi.spyOn(SimNodeProcess.prototype, "execute");
    const e = SCENARIOS["skip heights: a minority diverges"]!({ noFastPath: true });
    e.run({ untilHeight: PLAN - 1 });
    // Up to the plan: one execution for val1..val3 and one for val4 (its skip heights differ) per block.
    expect(execute.mock.calls.length).toBe(2 * (PLAN - 1));
  });
});
