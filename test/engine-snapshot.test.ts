import { describe, expect, it } from "vitest";
import type { StopCondition } from "../src/chain/engine.js";
import type { TraceEvent } from "../src/chain/trace-events.js";
import type { Scenario } from "../src/scenario/index.js";
import {
  buildSimulation,
  forkSimulation,
  type Simulation,
  snapshotSimulation,
  stopConditionOf,
} from "../src/scenario/simulate.js";
import { referenceEnd } from "./kit/reference-runs.js";
import { FAULT_BLOCKS_MAX, libraryUnderFaults, loadScenario, scenarioFiles, simulationEnd } from "./scenario-suite.js";

/**
 * Engine snapshots must be invisible: every library scenario, alone and under each planted fault, cut at several
 * points (block 1, a proposal voting, a node halted with its sidecar pending, the chain stalled, half way), then
 * snapshotted and restored (from the snapshot, and from a structuredClone of it), runs to the same trace hash,
 * report and per-node final state as the original from that cut. A fork at block 1 (how the harness forks a ready
 * chain) also ends exactly where a run without a cut ends: the library's reference run (test/kit/reference-runs.ts).
 * Cuts that stop at the same condition (the first halt is often the sidecar's) are one cut: the same computation.
 */

const build = (s: Scenario, keepTrace = false): Simulation => {
  const b = buildSimulation(s, { engine: { keepTrace } });
  if (!b.ok) throw new Error(`${s.file}: ${b.error}`);
  return b.value;
};

interface Cut {
  readonly name: string;
  readonly stop: StopCondition;
}

/**
 * The cut points a run of `s` offers: block 1, and when they happen, a vote, a halt, a stall; and half way. Cuts with
 * the same stop condition are merged (their names joined): checking both would repeat one computation.
 */
function cutsOf(s: Scenario, stop: StopCondition): Cut[] {
  const merged = new Map<string, Cut>();
  for (const c of candidateCuts(s, stop)) {
    const key = JSON.stringify(c.stop);
    const seen = merged.get(key);
    merged.set(key, seen === undefined ? c : { ...seen, name: `${seen.name} = ${c.name}` });
  }
  return [...merged.values()];
}

function candidateCuts(s: Scenario, stop: StopCondition): Cut[] {
  const ref = build(s, true);
  ref.run(stop);
  const events = ref.traceEvents();
  const at = (name: string, e: TraceEvent | undefined): Cut[] =>
    e === undefined || !("timeMs" in e) ? [] : [{ name, stop: { untilTimeMs: e.timeMs } }];
  return [
    { name: "block 1", stop: { untilHeight: 1 } },
    ...at(
      "a proposal voting",
      events.find((e) => e.kind === "block" && e.gov.some((g) => g.kind === "voting-started")),
    ),
    ...at(
      "halted, sidecar pending",
      events.find((e) => e.kind === "halt" && s.nodes.get(e.node)?.sidecar.enabled === true),
    ),
    ...at(
      "halted",
      events.find((e) => e.kind === "halt"),
    ),
    ...at(
      "stalled",
      events.find((e) => e.kind === "stall"),
    ),
    { name: "half way", stop: { untilHeight: Math.max(1, Math.floor(ref.height / 2)) } },
  ].map((c) => ({
    ...c,
    stop:
      stop.untilHeight === undefined
        ? c.stop
        : { ...c.stop, untilHeight: Math.min(c.stop.untilHeight ?? Number.POSITIVE_INFINITY, stop.untilHeight) },
  }));
}

/**
 * Cuts a run of `s` at `cut`, forks it, and runs the original and two forks on under `stop`; returns the end of the
 * fork from the snapshot itself.
 */
function checkCut(s: Scenario, cut: Cut, stop: StopCondition): ReturnType<typeof simulationEnd> {
  const original = build(s);
  original.run(cut.stop);
  const snap = snapshotSimulation(original);
  const fork = (from: typeof snap) => {
    const f = forkSimulation(s, from);
    if (!f.ok) throw new Error(f.error);
    return f.value;
  };
  const forked = fork(snap);
  expect({ cut: cut.name, ...simulationEnd(s, forked) }).toEqual({ cut: cut.name, ...simulationEnd(s, original) });
  original.run(stop);
  forked.run(stop);
  // Built from a copy of the snapshot after both ran on: neither changed it.
  const cloned = fork(structuredClone(snap));
  cloned.run(stop);
  const end = { cut: cut.name, ...simulationEnd(s, original) };
  const forkedEnd = simulationEnd(s, forked);
  expect({ cut: cut.name, ...forkedEnd }).toEqual(end);
  expect({ cut: cut.name, ...simulationEnd(s, cloned) }).toEqual(end);
  return forkedEnd;
}

describe("engine snapshots over the scenario library", () => {
  const files = scenarioFiles();
  it("has scenarios", () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(`${file}: a fork at every cut runs to the same end as the original`, () => {
      const s = loadScenario(file);
      const stop = stopConditionOf(s);
      const cuts = cutsOf(s, stop);
      expect(cuts[0]?.stop).toEqual({ untilHeight: 1 });
      const forkedAtBlock1 = cuts.map((cut) => checkCut(s, cut, stop))[0];
      if (s.run.maxBlocks === undefined) {
        // A chain forked at block 1 ends where a run without a cut ends (a file's maxBlocks counts per run call).
        expect(forkedAtBlock1).toEqual(referenceEnd(file));
      }
    });
  }
  // Every planted fault, nondeterministic-genesis included: a fork shares its original's app host (and genesis).
  for (const { fault, scenarios } of libraryUnderFaults(files, [])) {
    it(`under the planted fault ${fault}: a fork at every cut runs to the same end`, () => {
      for (const s of scenarios()) {
        const own = stopConditionOf(s);
        const stop = { ...own, maxBlocks: Math.min(own.maxBlocks ?? FAULT_BLOCKS_MAX, FAULT_BLOCKS_MAX) };
        for (const cut of cutsOf(s, stop)) checkCut(s, cut, stop);
      }
      // The whole library under one fault: about 25 s on a quiet machine, so room for a busy one.
    }, 240_000);
  }
});
