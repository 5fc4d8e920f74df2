import { serialize } from "node:v8";
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
 * The cut points `ref` (a run of `s` to `stop`, its trace kept) offers: block 1, and when they happen, a vote, a halt, a stall; and half way. Cuts with
 * the same stop condition are merged (their names joined): checking both would repeat one computation.
 */
function cutsOf(s: Scenario, ref: Simulation, stop: StopCondition): Cut[] {
  const merged = new Map<string, Cut>();
  for (const c of candidateCuts(s, ref, stop)) {
    const key = JSON.stringify(c.stop);
    const seen = merged.get(key);
    merged.set(key, seen === undefined ? c : { ...seen, name: `${seen.name} = ${c.name}` });
  }
  return [...merged.values()];
}

function candidateCuts(s: Scenario, ref: Simulation, stop: StopCondition): Cut[] {
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
 * The run of `s` to `stop` without a cut: its end, the trace events that name the cut points, and the stop condition
 * every run from a cut continues under so that it ends at the same point. `maxBlocks` counts the blocks of one run
 * call, so a run it ended ends at its height instead (a run from a cut would otherwise go on that many blocks past the
 * cut); any other end (a height, a time, settling, nothing left to happen) is the same condition from any cut.
 */
function uncutRun(s: Scenario, stop: StopCondition) {
  const ref = build(s, true);
  const fromHeight = ref.height;
  ref.run(stop);
  const byMaxBlocks = stop.maxBlocks !== undefined && ref.height - fromHeight >= stop.maxBlocks;
  const endStop: StopCondition = byMaxBlocks
    ? { ...stop, untilHeight: Math.min(stop.untilHeight ?? Number.POSITIVE_INFINITY, ref.height) }
    : stop;
  return { ref, end: simulationEnd(s, ref), endStop };
}

/**
 * Cuts a run of `s` at `cut`, forks it, and checks the fork at the cut and at the end: the original and the fork, run on
 * to `endStop`, both end where the run without a cut ends (`end`). The snapshot stays as it was while both ran on (its
 * v8 serialization, every byte), and a fork from a structuredClone of it equals the original at the cut.
 */
function checkCut(s: Scenario, cut: Cut, endStop: StopCondition, end: ReturnType<typeof simulationEnd>): void {
  const original = build(s);
  original.run(cut.stop);
  const snap = snapshotSimulation(original);
  const snapBytes = serialize(snap);
  const fork = (from: typeof snap) => {
    const f = forkSimulation(s, from);
    if (!f.ok) throw new Error(f.error);
    return f.value;
  };
  const forked = fork(snap);
  const atCut = { cut: cut.name, ...simulationEnd(s, original) };
  expect({ cut: cut.name, ...simulationEnd(s, forked) }).toEqual(atCut);
  original.run(endStop);
  forked.run(endStop);
  const tagged = { cut: cut.name, ...end };
  expect({ cut: cut.name, ...simulationEnd(s, original) }).toEqual(tagged);
  expect({ cut: cut.name, ...simulationEnd(s, forked) }).toEqual(tagged);
  // Neither run changed the snapshot, and a copy of it forks to the same chain.
  expect({ cut: cut.name, unchanged: serialize(snap).equals(snapBytes) }).toEqual({ cut: cut.name, unchanged: true });
  expect({ cut: cut.name, ...simulationEnd(s, fork(structuredClone(snap))) }).toEqual(atCut);
}

/**
 * Every cut of `s` (under `stop`) against the run without a cut; that run's end is returned. Under a planted fault a
 * chain may never settle (`missed-halt`), so every run ends at the uncut run's height, not FAULT_BLOCKS_MAX past its cut.
 */
function checkCuts(s: Scenario, stop: StopCondition): ReturnType<typeof simulationEnd> {
  const { ref, end, endStop } = uncutRun(s, stop);
  const cuts = cutsOf(s, ref, stop);
  expect(cuts[0]?.stop).toEqual({ untilHeight: 1 });
  for (const cut of cuts) checkCut(s, cut, endStop, end);
  return end;
}

describe("engine snapshots over the scenario library", () => {
  const files = scenarioFiles();
  it("has scenarios", () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(`${file}: a fork at every cut runs to the same end as the run without a cut`, () => {
      const s = loadScenario(file);
      // That run, its trace kept, ends where the library's reference run (no trace kept) ends.
      expect(checkCuts(s, stopConditionOf(s))).toEqual(referenceEnd(file));
    });
  }
  // Every planted fault, nondeterministic-genesis included: a fork shares its original's app host (and genesis).
  for (const { fault, scenarios } of libraryUnderFaults(files, [])) {
    it(`under the planted fault ${fault}: a fork at every cut runs to the same end`, () => {
      for (const s of scenarios()) {
        const own = stopConditionOf(s);
        const end = checkCuts(s, { ...own, maxBlocks: Math.min(own.maxBlocks ?? FAULT_BLOCKS_MAX, FAULT_BLOCKS_MAX) });
        // Two builds differ under nondeterministic-genesis (a fork shares its original's build): no reference run.
        if (fault !== "nondeterministic-genesis") expect(end).toEqual(referenceEnd(s.file, fault));
      }
      // The whole library under one fault: about 25 s on a quiet machine, so room for a busy one.
    }, 240_000);
  }
});
