import { describe, expect, it } from "vitest";
import { runCampaign } from "./campaign.js";
import { HOLDS, type Property, Violation } from "./property.js";
import { REGION_NAMES } from "./regions.js";
import type { PropertyOutcome, PropertyRunOptions } from "./run-property.js";
import { checkSummary, verdictExitCode } from "./summary.js";

/** A property stub: the campaign machinery under test never runs its check. */
const stub = (name: string): Property => ({
  name,
  statement: `always: ${name} holds`,
  kind: "always",
  catches: [],
  check: () => HOLDS,
});

const run = (o: PropertyRunOptions): PropertyOutcome => {
  const base = { property: o.property.name, interrupted: false, fired: new Set(["NODE_STOPPED.stop"]), commandsRun: 5 };
  if (o.property.name !== "run-once") return { ...base, runs: o.numRuns, passed: true };
  return {
    ...base,
    runs: 2,
    passed: false,
    counterexample: {
      property: "run-once",
      violation: new Violation("run-once", 'handler of "v2" committed 2 times').detail,
      world: { seed: o.seed, sidecars: { val2: 1500 } },
      commands: [{ kind: "advance", blocks: 2 }],
      document: { name: "x", binaries: { v1: {} }, chain: { validators: [{ name: "v", power: 1 }] } },
      seed: o.seed,
      path: "1:0",
      numShrinks: 3,
    },
  };
};

describe("verdictExitCode", () => {
  it("maps passed/failed/crashed to 0/1/3", () => {
    expect([verdictExitCode("passed"), verdictExitCode("failed"), verdictExitCode("crashed")]).toEqual([0, 1, 3]);
  });
});

describe("checkSummary", () => {
  it("has the seed, commit, options, per-property outcomes, coverage, statistics and speed", () => {
    let t = 0;
    const r = runCampaign(
      {
        seed: 9,
        properties: [stub("run-once"), stub("liveness")],
        runsPerProperty: 60,
        shard: { index: 1, count: 1 },
        faults: ["skip-done-marker"],
        timeLimitMs: 60_000,
        generationSamples: 20,
      },
      { clock: () => (t += 100), runProperty: run },
    );
    const s = checkSummary(r, {
      runId: "check-20261122-064500-9",
      command: "check",
      startedAt: "2026-11-22T06:45:00.000Z",
      commit: "abc1234",
      regressionFiles: new Map([["run-once", "scenarios/regressions/run-once-00000000.yaml"]]),
    });
    const back = JSON.parse(JSON.stringify(s)) as typeof s;
    expect(back).toEqual(s); // plain JSON
    expect(Object.keys(s)).toEqual([
      "format",
      "runId",
      "command",
      "startedAt",
      "seed",
      "commit",
      "options",
      "verdict",
      "exitCode",
      "runs",
      "failures",
      "commands",
      "wallMs",
      "runsPerS",
      "simulated",
      "properties",
      "coverage",
      "generation",
      "regions",
    ]);
    expect(s).toMatchObject({
      format: "chainsim-check/1",
      seed: 9,
      commit: "abc1234",
      verdict: "failed",
      exitCode: 1,
      options: {
        properties: ["run-once", "liveness"],
        runsPerProperty: 60,
        runsPerUnit: 50,
        shard: "1/1",
        unitsTotal: 8,
        unitsInShard: 8,
        timeLimitMs: 60_000,
        maxCommands: 30,
        faults: ["skip-done-marker"],
      },
      runs: 62,
      failures: 1,
    });
    expect(s.wallMs).toBeGreaterThan(0);
    expect(s.runsPerS).toBeCloseTo(62 / (s.wallMs / 1000), 1);
    const [p0, p1] = s.properties;
    expect(p0).toMatchObject({
      property: "run-once",
      passed: false,
      runs: 2,
      failures: 1,
      counterexample: {
        violation: 'handler of "v2" committed 2 times',
        commands: ["advance(2 blocks)"],
        sidecars: { val2: 1500 },
        path: "1:0",
        numShrinks: 3,
        file: "scenarios/regressions/run-once-00000000.yaml",
      },
    });
    expect(p0!.units.map((u) => u.status)).toEqual(["failed", ...Array(3).fill("skipped-after-failure")]);
    expect(p1).toMatchObject({ property: "liveness", passed: true, runs: 60, interrupted: false });
    expect(p1!.counterexample).toBeUndefined();
    expect(s.coverage.fired).toBe(1);
    expect(s.coverage.total).toBe(s.coverage.fired + s.coverage.missing.length);
    expect(s.generation?.samples).toBe(20);
    expect(Object.keys(s.generation!.classes)).toContain("plan near decision height");
    expect(Object.keys(s.regions.counts)).toEqual(REGION_NAMES);
    expect(Object.keys(s.regions.descriptions)).toEqual(REGION_NAMES);
  });
});
