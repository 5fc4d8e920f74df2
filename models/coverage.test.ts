import { describe, expect, it } from "vitest";
import {
  COVERAGE_WORLD,
  coarseKey,
  coverageFromIds,
  coveragePaths,
  machineTransitions,
  replayCoverage,
  transitionCoverage,
  type VisitedStep,
} from "./coverage.js";
import { createOracle, step } from "./oracle.js";

describe("machineTransitions", () => {
  it("lists every transition definition once, each named by a trace action", () => {
    const ids = machineTransitions().map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id.includes("#untraced"))).toEqual([]);
    expect(ids).toContain("scheduled.BLOCK.apply");
    expect(ids).toContain("stalled.BLOCK.commit");
    expect(ids).toContain("NODE_CAUGHT_UP.catchUp");
  });

  it("records sources and targets of the plan lifecycle", () => {
    const apply = machineTransitions().find((t) => t.id === "scheduled.BLOCK.apply");
    expect(apply).toEqual({
      id: "scheduled.BLOCK.apply",
      source: "upgradeLifecycle.plan.scheduled",
      event: "BLOCK",
      targets: ["upgradeLifecycle.plan.noneScheduled"],
    });
  });
});

describe("coveragePaths", () => {
  const paths = coveragePaths();

  it("cover 100% of the machine's transitions when replayed from the initial state", () => {
    const report = replayCoverage(paths);
    expect(report.missing).toEqual([]);
    expect(report.ratio).toBe(1);
    expect(report.covered.length).toBe(machineTransitions().length);
  });

  it("each path's last event fires the transitions it claims", () => {
    for (const path of paths) {
      let oracle = createOracle(COVERAGE_WORLD);
      for (const event of path.events) oracle = step(oracle, event);
      for (const id of path.covers) expect(oracle.fired).toContain(id);
    }
  });

  it("transitionCoverage over the visited (state, event) pairs of the paths is complete", () => {
    const visited: VisitedStep[] = [];
    for (const path of paths) {
      let oracle = createOracle(COVERAGE_WORLD);
      for (const event of path.events) {
        visited.push({ snapshot: oracle.snapshot, event });
        oracle = step(oracle, event);
      }
    }
    expect(transitionCoverage(visited).ratio).toBe(1);
  });
});

describe("coverage reports", () => {
  it("report what is missing from a partial run, and ignore unknown ids", () => {
    const report = coverageFromIds(["scheduled.BLOCK.apply", "not-a-transition"]);
    expect(report.covered).toEqual(["scheduled.BLOCK.apply"]);
    expect(report.missing).toContain("scheduled.BLOCK.skip");
    expect(report.total).toBe(machineTransitions().length);
    expect(report.ratio).toBeCloseTo(1 / report.total);
  });

  it("a single BLOCK from genesis covers the no-plan block and a commit", () => {
    const report = transitionCoverage([
      { snapshot: createOracle(COVERAGE_WORLD).snapshot, event: { type: "BLOCK", height: 1 } },
    ]);
    expect(report.covered).toEqual(["noneScheduled.BLOCK.noPlan", "progressing.BLOCK.commit"]);
  });

  it("the coarse key ignores heights once past genesis", () => {
    const one = step(createOracle(COVERAGE_WORLD), { type: "BLOCK", height: 1 });
    const two = step(one, { type: "BLOCK", height: 2 });
    expect(coarseKey(two.snapshot)).toBe(coarseKey(one.snapshot));
    expect(coarseKey(one.snapshot)).not.toBe(coarseKey(createOracle(COVERAGE_WORLD).snapshot));
  });
});
