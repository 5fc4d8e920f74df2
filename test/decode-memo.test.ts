import { afterEach, describe, expect, it } from "vitest";
import { govDecodeMemos } from "../src/gov/store.js";
import type { Scenario } from "../src/scenario/index.js";
import { buildSimulation, stopConditionOf } from "../src/scenario/simulate.js";
import { FAULT_BLOCKS_MAX, libraryUnderFaults, loadScenario, scenarioFiles, simulationEnd } from "./scenario-suite.js";

/**
 * The gov decode memos (stored proposals, deposits and votes decoded once per distinct bytes, each read a copy) must
 * be invisible: every library scenario, alone and under each planted fault, gives the same trace hash, report and
 * per-node final state with the memos off, on from empty, and on again warm (hits from the run before).
 */
const memos = Object.values(govDecodeMemos);
const setMemos = (enabled: boolean): void => {
  for (const m of memos) {
    m.enabled = enabled;
    m.clear();
  }
};

function outcome(s: Scenario, maxBlocks?: number) {
  const built = buildSimulation(s, {});
  if (!built.ok) throw new Error(`${s.file}: ${built.error}`);
  const sim = built.value;
  const stop = stopConditionOf(s);
  sim.run(maxBlocks === undefined ? stop : { ...stop, maxBlocks: Math.min(stop.maxBlocks ?? maxBlocks, maxBlocks) });
  return simulationEnd(s, sim);
}

/** Off, on from empty, on warm: the three outcomes. */
function threeWays(s: Scenario, maxBlocks?: number) {
  setMemos(false);
  const off = outcome(s, maxBlocks);
  setMemos(true);
  const cold = outcome(s, maxBlocks);
  const warm = outcome(s, maxBlocks);
  return { off, cold, warm };
}

describe("gov decode memos over the scenario library", () => {
  afterEach(() => setMemos(true));
  const files = scenarioFiles();
  it("has scenarios", () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(`${file}: same trace hash, report and node states with the memos off, cold and warm`, () => {
      const { off, cold, warm } = threeWays(loadScenario(file));
      expect(cold).toEqual(off);
      expect(warm).toEqual(off);
    });
  }
  for (const { fault, scenarios } of libraryUnderFaults(files)) {
    it(`under the planted fault ${fault}: same outcome with the memos off, cold and warm`, () => {
      for (const s of scenarios()) {
        const { off, cold, warm } = threeWays(s, FAULT_BLOCKS_MAX);
        expect({ file: s.file, ...cold }).toEqual({ file: s.file, ...off });
        expect({ file: s.file, ...warm }).toEqual({ file: s.file, ...off });
      }
    });
  }
});
