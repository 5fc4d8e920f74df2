import { serialize } from "node:v8";
import { describe, expect, it } from "vitest";
import type { StopCondition } from "../src/chain/engine.js";
import type { TraceEvent } from "../src/chain/trace-events.js";
import type { Scenario } from "../src/scenario/index.js";
import {
  buildSimulation,
  forkSimulation,
  type Simulation,
  type SimulationSnapshot,
  snapshotSimulation,
  stopConditionOf,
} from "../src/scenario/simulate.js";
import { referenceEnd } from "./kit/reference-runs.js";
import { FAULT_BLOCKS_MAX, libraryUnderFaults, loadScenario, scenarioFiles, simulationEnd } from "./scenario-suite.js";

/**
 * Engine snapshots must be invisible: every library scenario, alone and under each planted fault, cut at several
 * points (block 1, a proposal voting, a node halted with its sidecar pending, the chain stalled, half way), then
 * snapshotted and forked, runs to the same trace hash, report and per-node final state as the run without a cut;
 * the fork equals its original at the cut, and so does a fork from a structuredClone of the snapshot, which neither
 * the original nor the fork changed by running on. The run without a cut (its trace kept, for the cut points) ends
 * where the library's reference run ends (test/kit/reference-runs.ts, no trace kept). One original stops at every
 * cut in turn, then runs on to the end too. Cuts that stop at the same condition (the first halt is often the
 * sidecar's) are one cut: the same computation.
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
  return { ref, end: simulationEnd(s, ref), endStop, fromHeight };
}

type End = ReturnType<typeof simulationEnd>;

/**
 * Where `cut` stops a run in `ref`'s course, to order the cuts: the time, and at one time a height stop before a time
 * stop. A height at or below the first block stops at the start; one past `ref`'s last block, never.
 */
function positionOf(ref: Simulation, cut: Cut): readonly [number, number] {
  const { untilHeight, untilTimeMs = Number.POSITIVE_INFINITY } = cut.stop;
  const heightAtMs =
    untilHeight === undefined || untilHeight > ref.height
      ? Number.POSITIVE_INFINITY
      : (ref.blocks.timeMs(untilHeight) ?? Number.NEGATIVE_INFINITY);
  return heightAtMs <= untilTimeMs ? [heightAtMs, 0] : [untilTimeMs, 1];
}

const fork = (s: Scenario, from: SimulationSnapshot): Simulation => {
  const f = forkSimulation(s, from);
  if (!f.ok) throw new Error(f.error);
  return f.value;
};

/**
 * Cuts `original` (a run of `s`) at `cut` and forks it: the fork equals the original at the cut, and run on to
 * `run.endStop` it ends where the run without a cut ends (`run.end`). Returns what `checkSnapshotKept` checks once the
 * original has run on too.
 */
function checkCut(s: Scenario, original: Simulation, cut: Cut, run: ReturnType<typeof uncutRun>) {
  const { endStop, end, fromHeight } = run;
  // The original has not passed the cut (a height at or below the first block stops at the start).
  const { untilHeight = Number.POSITIVE_INFINITY, untilTimeMs = Number.POSITIVE_INFINITY } = cut.stop;
  const before = original.height <= Math.max(untilHeight, fromHeight) && original.nowMs <= untilTimeMs;
  expect({ cut: cut.name, before }).toEqual({
    cut: cut.name,
    before: true,
  });
  original.run(cut.stop);
  const snap = snapshotSimulation(original);
  const atCut = { cut: cut.name, ...simulationEnd(s, original) };
  const forked = fork(s, snap);
  expect({ cut: cut.name, ...simulationEnd(s, forked) }).toEqual(atCut);
  forked.run(endStop);
  expect({ cut: cut.name, ...simulationEnd(s, forked) }).toEqual({ cut: cut.name, ...end });
  return { cut, snap, bytes: serialize(snap), atCut };
}

/**
 * After the original and the fork ran on, the snapshot is as it was (its v8 serialization, every byte), and a fork
 * from a structuredClone of it equals the original at the cut.
 */
function checkSnapshotKept(s: Scenario, kept: ReturnType<typeof checkCut>): void {
  const { cut, snap, bytes, atCut } = kept;
  expect({ cut: cut.name, unchanged: serialize(snap).equals(bytes) }).toEqual({ cut: cut.name, unchanged: true });
  expect({ cut: cut.name, ...simulationEnd(s, fork(s, structuredClone(snap))) }).toEqual(atCut);
}

/**
 * Every cut of `s` (under `stop`) against the run without a cut; that run's end is returned. One original stops at
 * every cut in the order the run meets them, then runs on to the end, which is the uncut run's end too. Under a
 * planted fault a chain may never settle (`missed-halt`), so every run ends at the uncut run's height, not
 * FAULT_BLOCKS_MAX past its cut.
 */
function checkCuts(s: Scenario, stop: StopCondition): End {
  const run = uncutRun(s, stop);
  const { ref, end, endStop } = run;
  const cuts = cutsOf(s, ref, stop);
  expect(cuts[0]?.stop).toEqual({ untilHeight: 1 });
  const ordered = cuts
    .map((cut) => ({ cut, at: positionOf(ref, cut) }))
    .sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1]);
  const original = build(s);
  const kept = ordered.map(({ cut }) => checkCut(s, original, cut, run));
  original.run(endStop);
  expect(simulationEnd(s, original)).toEqual(end);
  for (const k of kept) checkSnapshotKept(s, k);
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
