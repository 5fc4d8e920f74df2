import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CampaignOptions, runCampaign } from "./campaign.js";
import { type CampaignUnit, campaignUnits, shardUnits, unitSeed, unitSizes } from "./campaign-units.js";
import { conformance } from "./conformance.js";
import { HOLDS, type Property, Violation, violated } from "./property.js";
import type { PropertyOutcome, PropertyRunOptions } from "./run-property.js";

/** A property stub: the campaign machinery under test never runs its check. */
const stub = (name: string): Property => ({
  name,
  statement: `always: ${name} holds`,
  kind: "always",
  catches: [],
  check: () => HOLDS,
});

/** The oracle and the chain agree (as properties/model-agreement.ts states it): a real property for real runs. */
const agreement: Property = {
  name: "model-agreement",
  statement: "always: the model and the chain agree",
  kind: "always",
  catches: [],
  check: (s) => (conformance(s).length === 0 ? HOLDS : violated(conformance(s).join("; "))),
};

const key = (u: CampaignUnit) => `${u.property.name}/${u.block}/${u.seed}/${u.numRuns}`;

/** A fake runProperty: records the calls and passes (or fails a chosen property), without running the chain. */
function fakeRunner(fail: ReadonlySet<string> = new Set(), crash: ReadonlySet<string> = new Set()) {
  const calls: PropertyRunOptions[] = [];
  const run = (o: PropertyRunOptions): PropertyOutcome => {
    calls.push(o);
    const name = o.property.name;
    const base = { property: name, interrupted: false, fired: new Set([`t.${name}`]), commandsRun: 3 };
    if (crash.has(name)) return { ...base, runs: 1, passed: false, error: "TypeError: boom" };
    if (!fail.has(name)) return { ...base, runs: o.numRuns, passed: true };
    return {
      ...base,
      runs: 1,
      passed: false,
      counterexample: {
        property: name,
        violation: new Violation(name, "planted").detail,
        world: { seed: o.seed },
        commands: [{ kind: "advance", blocks: 1 }],
        document: { name: "x", binaries: { v1: {} }, chain: { validators: [{ name: "v", power: 1 }] } },
        seed: o.seed,
        path: "0",
        numShrinks: 0,
      },
    };
  };
  return { calls, run };
}

const NAMES = ["run-once", "correct-height", "graceful-halt", "liveness", "determinism", "model-agreement"];

const base: CampaignOptions = {
  seed: 20261122,
  properties: NAMES.map(stub),
  runsPerProperty: 120,
  runsPerUnit: 50,
  generationSamples: 0,
};

describe("campaign units and shards", () => {
  it("cuts each property's runs into a ramp (a tenth, a fifth, a half) then units of runsPerUnit, property by property", () => {
    const units = campaignUnits({ ...base, properties: [stub("run-once"), stub("liveness")] });
    expect(units.map((u) => [u.index, u.property.name, u.block, u.numRuns])).toEqual([
      [0, "run-once", 0, 5],
      [1, "run-once", 1, 10],
      [2, "run-once", 2, 25],
      [3, "run-once", 3, 50],
      [4, "run-once", 4, 30],
      [5, "liveness", 0, 5],
      [6, "liveness", 1, 10],
      [7, "liveness", 2, 25],
      [8, "liveness", 3, 50],
      [9, "liveness", 4, 30],
    ]);
  });

  it("sizes units to add up to the runs asked for, ramping only units of at least 10 runs", () => {
    expect(unitSizes(3, 50)).toEqual([3]);
    expect(unitSizes(12, 50)).toEqual([5, 7]);
    expect(unitSizes(7, 3)).toEqual([3, 3, 1]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 200 }), (runs, per) => {
        const sizes = unitSizes(runs, per);
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(runs);
        for (const s of sizes) expect(s >= 1 && s <= per).toBe(true);
      }),
    );
  });

  it("derives distinct, stable unit seeds from (seed, property, block)", () => {
    expect(unitSeed(1, "run-once", 0)).toBe(unitSeed(1, "run-once", 0));
    const seeds = campaignUnits(base).map((u) => u.seed);
    expect(new Set(seeds).size).toBe(seeds.length);
    expect(unitSeed(1, "run-once", 0)).not.toBe(unitSeed(2, "run-once", 0));
    for (const s of seeds) expect(Number.isSafeInteger(s) && s >= 0 && s < 2 ** 31).toBe(true);
  });

  it("shards of any N partition exactly the units of one machine", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 12 }),
        (seed, runs, per, n) => {
          const o = { ...base, seed, runsPerProperty: runs, runsPerUnit: per };
          const all = campaignUnits(o);
          const shards = Array.from({ length: n }, (_, i) => shardUnits(all, { index: i + 1, count: n }));
          const union = shards.flat().map(key).sort();
          expect(union).toEqual(all.map(key).sort());
          expect(new Set(union).size).toBe(union.length); // disjoint
          // The units do not depend on the shard count.
          expect(campaignUnits(o)).toEqual(all);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("runs, shard by shard, exactly the fast-check checks (seed, runs) one machine runs", () => {
    const one = fakeRunner();
    runCampaign(base, { clock: () => 0, runProperty: one.run });
    const shards = [1, 2, 3].map((index) => {
      const r = fakeRunner();
      const result = runCampaign({ ...base, shard: { index, count: 3 } }, { clock: () => 0, runProperty: r.run });
      return { calls: r.calls, result };
    });
    const sig = (c: PropertyRunOptions) => `${c.property.name}/${c.seed}/${c.numRuns}`;
    expect(shards.flatMap((s) => s.calls.map(sig)).sort()).toEqual(one.calls.map(sig).sort());
    expect(shards.reduce((n, s) => n + s.result.runs, 0)).toBe(NAMES.length * 120);
  });
});

describe("runCampaign", () => {
  it("aggregates per property and overall: runs, commands, coverage ids, verdict", () => {
    const r = fakeRunner();
    const res = runCampaign(
      { ...base, properties: [stub("run-once"), stub("liveness")] },
      { clock: () => 0, runProperty: r.run },
    );
    expect(res.verdict).toBe("passed");
    expect(res.unitsTotal).toBe(10);
    expect(res.properties.map((p) => [p.property, p.runs, p.commands, p.failures, p.passed])).toEqual([
      ["run-once", 120, 15, 0, true],
      ["liveness", 120, 15, 0, true],
    ]);
    expect(res.fired).toEqual(["t.liveness", "t.run-once"]);
    expect(res.coverage.total).toBeGreaterThan(0);
    expect(res.runs).toBe(240);
  });

  it("stops a property at its first failure and skips its later units; the verdict is failed", () => {
    const r = fakeRunner(new Set<string>(["run-once"]));
    const res = runCampaign(
      { ...base, properties: [stub("run-once"), stub("liveness")] },
      { clock: () => 0, runProperty: r.run },
    );
    expect(res.verdict).toBe("failed");
    const p = res.properties[0]!;
    expect(p.units.map((u) => u.status)).toEqual(["failed", ...Array(4).fill("skipped-after-failure")]);
    expect(p.failures).toBe(1);
    expect(p.counterexample?.violation).toBe("planted");
    expect(r.calls.filter((c) => c.property.name === "run-once")).toHaveLength(1);
    expect(res.properties[1]!.passed).toBe(true);
  });

  it("reports a harness crash (an outcome with an error) as the crashed verdict", () => {
    const r = fakeRunner(new Set<string>(["liveness"]), new Set<string>(["run-once"]));
    const res = runCampaign(
      { ...base, properties: [stub("run-once"), stub("liveness")] },
      { clock: () => 0, runProperty: r.run },
    );
    expect(res.verdict).toBe("crashed");
    expect(res.properties[0]!.error).toContain("boom");
  });

  it("splits the time limit: each unit gets up to twice the time left over the units left; none left skips the rest", () => {
    let now = 0;
    const r = fakeRunner();
    const run = (o: PropertyRunOptions) => {
      now += 400; // every unit takes 400 ms
      return r.run(o);
    };
    const res = runCampaign(
      { ...base, properties: [stub("run-once"), stub("liveness")], timeLimitMs: 1000 },
      { clock: () => now, runProperty: run },
    );
    // Up to twice the fair share (time left / units left), never more than the time left.
    expect(r.calls.map((c) => c.timeLimitMs)).toEqual([
      Math.floor((2 * 1000) / 10),
      Math.floor((2 * 600) / 9),
      Math.floor((2 * 200) / 8),
    ]);
    // Units run block by block, so the limit cuts both properties alike.
    expect(r.calls.map((c) => c.property.name)).toEqual(["run-once", "liveness", "run-once"]);
    const cut = (ran: number) => [...Array(ran).fill("passed"), ...Array(5 - ran).fill("skipped-time-limit")];
    expect(res.properties.map((p) => p.units.map((u) => u.status))).toEqual([cut(2), cut(1)]);
    expect(res.properties.map((p) => [p.runs, p.interrupted])).toEqual([
      [15, true],
      [5, true],
    ]);
  });

  it("passes faults and maxCommands through to every unit", () => {
    const r = fakeRunner();
    runCampaign(
      {
        ...base,
        properties: [stub("cancel-effective")],
        runsPerProperty: 10,
        faults: ["ignore-cancel"],
        maxCommands: 7,
      },
      { clock: () => 0, runProperty: r.run },
    );
    expect(r.calls.map((c) => c.numRuns)).toEqual([5, 5]);
    for (const c of r.calls) expect(c).toMatchObject({ faults: ["ignore-cancel"], maxCommands: 7 });
  });
});

describe("a real campaign", () => {
  it("finds a planted bug, counts regions and progress, and shards reproduce one machine's coverage", () => {
    const o: CampaignOptions = {
      seed: 5,
      properties: [agreement],
      runsPerProperty: 40,
      runsPerUnit: 20,
      faults: ["off-by-one-due-height"],
      generationSamples: 50,
    };
    const progress: number[] = [];
    const res = runCampaign(o, { clock: () => 0, onProgress: (p) => progress.push(p.done) });
    expect(res.verdict).toBe("failed");
    const p = res.properties[0]!;
    expect(p.counterexample?.property).toBe("model-agreement");
    // Progress counts generated runs up to the failing one, once each; shrink runs are not counted.
    expect(progress).toEqual(Array.from({ length: progress.length }, (_, i) => i + 1));
    expect(progress[progress.length - 1]).toBe(p.runs);
    expect(res.regions.runs).toBe(p.runs);
    expect(res.generation?.samples).toBe(50);

    const clean: CampaignOptions = { ...o, faults: [], runsPerProperty: 6, runsPerUnit: 2, generationSamples: 0 };
    const whole = runCampaign(clean, { clock: () => 0 });
    const parts = [1, 2].map((index) => runCampaign({ ...clean, shard: { index, count: 2 } }, { clock: () => 0 }));
    expect(parts.reduce((n, s) => n + s.runs, 0)).toBe(whole.runs);
    expect(parts.reduce((n, s) => n + s.commands, 0)).toBe(whole.commands);
    expect([...new Set(parts.flatMap((s) => s.fired))].sort()).toEqual(whole.fired);
    expect(parts.reduce((n, s) => n + s.regions.simHeights, 0)).toBe(whole.regions.simHeights);
  });
});

describe("a bailing campaign (a verdict for mutation testing)", () => {
  it("stops at the first failing run: that failure is not shrunk and every later unit is skipped", () => {
    const r = fakeRunner(new Set(["graceful-halt"]));
    const result = runCampaign({ ...base, bail: true }, { clock: () => 0, runProperty: r.run });
    // Block 0 of run-once and correct-height ran and passed, then graceful-halt failed: nothing ran after it.
    expect(r.calls.map((c) => `${c.property.name}/${c.endOnFailure}`)).toEqual([
      "run-once/true",
      "correct-height/true",
      "graceful-halt/true",
    ]);
    expect(result.properties.filter((p) => !p.passed).map((p) => p.property)).toEqual(["graceful-halt"]);
    const statuses = result.properties.flatMap((p) => p.units.map((u) => u.status));
    expect(statuses.filter((s) => s === "skipped-after-failure")).toHaveLength(statuses.length - 3);
  });

  it("runs the properties that compare the chain with a model first in each block, so their failure ends it soonest", () => {
    const r = fakeRunner(new Set(["model-agreement"]));
    const modelled: Property = { ...stub("model-agreement"), runsMultiplier: 2 };
    const properties = [...NAMES.filter((n) => n !== "model-agreement").map(stub), modelled];
    const result = runCampaign({ ...base, properties, bail: true }, { clock: () => 0, runProperty: r.run });
    // Last in report order, first in run order: its first unit is the campaign's first, and nothing runs after it.
    expect(r.calls.map((c) => c.property.name)).toEqual(["model-agreement"]);
    expect(result.properties.map((p) => p.property)).toEqual([
      ...NAMES.filter((n) => n !== "model-agreement"),
      "model-agreement",
    ]);
    // Without a failure every block still runs in full, the weighted property leading it.
    const all = fakeRunner();
    runCampaign({ ...base, properties }, { clock: () => 0, runProperty: all.run });
    expect(all.calls.slice(0, 6).map((c) => c.property.name)).toEqual([
      "model-agreement",
      ...NAMES.filter((n) => n !== "model-agreement"),
    ]);
    expect(all.calls.length).toBe(campaignUnits({ ...base, properties }).length);
  });

  it("runs and shrinks as usual without bail", () => {
    const r = fakeRunner(new Set(["graceful-halt"]));
    runCampaign(base, { clock: () => 0, runProperty: r.run });
    expect(r.calls.every((c) => c.endOnFailure === undefined)).toBe(true);
    expect(r.calls.length).toBeGreaterThan(3);
  });
});
