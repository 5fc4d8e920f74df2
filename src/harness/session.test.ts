import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FAULT_NAMES } from "../faults/index.js";
import { parseScenario, scenarioFromData } from "../scenario/load.js";
import { scenarioToYaml } from "../scenario/serialize.js";
import { buildSimulation } from "../scenario/simulate.js";
import { runArbitrary, runSession, sidecarArb } from "./run-property.js";
import { parsedWorld } from "./session.js";
import { type ValidatorName, WORLD_VARIANTS, type WorldOptions, worldDocument } from "./world.js";

const clean = (o: Record<string, number | undefined>): Partial<Record<ValidatorName, number>> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

describe("the world cache", () => {
  it("gives every run the scenario its own world document parses to", () => {
    fc.assert(
      fc.property(
        sidecarArb,
        fc.constantFrom(...WORLD_VARIANTS),
        fc.subarray([...FAULT_NAMES], { maxLength: 2 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (sidecars, variant, faults, seed) => {
          const o: WorldOptions = { seed, variant, faults, sidecars: clean(sidecars) };
          const parsed = scenarioFromData("property-world.yaml", worldDocument(o));
          expect(parsed.ok).toBe(true);
          if (parsed.ok) expect(parsedWorld(o)).toEqual(parsed.value);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("shares one app host between runs that differ only in their sidecar delays", () => {
    const a = buildSimulation(parsedWorld({ seed: 3, sidecars: { val1: 10, val3: 5000 } }));
    const b = buildSimulation(parsedWorld({ seed: 3, sidecars: { val1: 70_000, val3: 0 } }));
    const other = buildSimulation(parsedWorld({ seed: 3, sidecars: { val1: 10 } }));
    if (!a.ok || !b.ok || !other.ok) throw new Error("world is invalid");
    expect(a.value.host).toBe(b.value.host);
    expect(other.value.host).not.toBe(a.value.host);
  });
});

describe("a session's scenario document", () => {
  it("written as YAML loads to the scenario the document is (what the determinism property replays)", () => {
    fc.assert(
      fc.property(runArbitrary(20), fc.subarray([...FAULT_NAMES], { maxLength: 1 }), ([sidecars, cmds], faults) => {
        const { session } = runSession({ seed: 9, sidecars: clean(sidecars), faults }, cmds, []);
        const doc = session.document();
        const fromText = parseScenario("replay.yaml", scenarioToYaml(doc));
        const fromData = scenarioFromData("replay.yaml", doc);
        expect(fromText.ok && fromData.ok).toBe(true);
        if (fromText.ok && fromData.ok) expect(fromText.value).toEqual(fromData.value);
      }),
      { numRuns: 40 },
    );
  });
});
