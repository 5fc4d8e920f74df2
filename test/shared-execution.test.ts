import { describe, expect, it } from "vitest";
import { FAULT_NAMES, type Fault } from "../src/../src/faults/index.js";
import type { Scenario } from "../src/scenario/index.js";
import { reportOf } from "../src/scenario/runner.js";
import { buildSimulation, stopConditionOf } from "../src/scenario/simulate.js";
import { loadScenario, scenarioFiles } from "./scenario-suite.js";

/**
 * Execution sharing (nodes with identical state execute a block once) must be invisible: every library scenario,
 * alone and under each planted fault, gives the same trace hash, report and per-node final state with sharing on
 * and off. Per node the store's execution key pins its whole committed history (history digest, versions, stores).
 */
function outcome(s: Scenario, noSharedExecution: boolean, maxBlocks?: number) {
  const built = buildSimulation(s, { engine: { noSharedExecution } });
  if (!built.ok) throw new Error(`${s.file}: ${built.error}`);
  const sim = built.value;
  const stop = stopConditionOf(s);
  sim.run(maxBlocks === undefined ? stop : { ...stop, maxBlocks: Math.min(stop.maxBlocks ?? maxBlocks, maxBlocks) });
  const { wallMs: _wallMs, ...report } = reportOf(s, sim, [], s.seed, 0);
  const nodes = sim.nodeNames().map((name) => {
    const state = sim.nodeState(name)!;
    return {
      name,
      status: sim.nodeStatus(name),
      storeKey: state.store.executionKey(),
      latest: state.store.latestVersion(),
      earliest: state.store.earliestVersion(),
      appHash: sim.host.lastAppHash(state),
      committed: sim.host.readCommitted(state),
      upgradeInfo: sim.host.readUpgradeInfo(state),
    };
  });
  return { traceHash: sim.traceHash(), report, nodes };
}

/** `nondeterministic-genesis` differs between any two runs by design (a process-global counter). */
const FAULTS: readonly Fault[] = FAULT_NAMES.filter((f) => f !== "nondeterministic-genesis");
/**
 * Under a fault a chain may never settle (e.g. `missed-halt` keeps a due plan stored, so no block is idle); the
 * fault runs stop after this many blocks, past every plan height of the library.
 */
const FAULT_BLOCKS_MAX = 1500;

describe("shared execution over the scenario library", () => {
  const files = scenarioFiles();
  it("has scenarios", () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(`${file}: same trace hash, report and node states with sharing on and off`, () => {
      const s = loadScenario(file);
      expect(outcome(s, false)).toEqual(outcome(s, true));
    });
  }
  // Each fault runs over every third scenario (rotating), so that every scenario meets three faults or so.
  FAULTS.forEach((fault, i) => {
    it(`under the planted fault ${fault}: same outcome with sharing on and off`, () => {
      for (const file of files.filter((_, j) => j % 3 === i % 3)) {
        const base = loadScenario(file);
        const s: Scenario = { ...base, options: { ...base.options, faults: [...base.options.faults, fault] } };
        const on = outcome(s, false, FAULT_BLOCKS_MAX);
        const off = outcome(s, true, FAULT_BLOCKS_MAX);
        expect({ file, ...on }).toEqual({ file, ...off });
      }
    });
  });
});
