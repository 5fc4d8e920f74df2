import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { predict } from "../../models/oracle.js";
import { FAULT_NAMES } from "../faults/index.js";
import { parseScenario, scenarioFromData } from "../scenario/load.js";
import { scenarioToYaml } from "../scenario/serialize.js";
import { buildSimulation } from "../scenario/simulate.js";
import { type CommandData, emptyModel, HarnessCommand, runCommand } from "./commands.js";
import { commandArbitraries } from "./commands-arbitraries.js";
import { govArb, runArbitrary, runSession, sidecarArb } from "./run-property.js";
import { Session } from "./session.js";
import { type ValidatorName, WORLD_VARIANTS, type WorldOptions, worldDocument } from "./world.js";
import { parsedWorld, readyChainIsShared } from "./world-cache.js";

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
        govArb,
        (sidecars, variant, faults, seed, gov) => {
          const o: WorldOptions = {
            seed,
            variant,
            faults,
            sidecars: clean(sidecars),
            ...(gov === undefined ? {} : { gov }),
          };
          const parsed = scenarioFromData("property-world.yaml", worldDocument(o));
          expect(parsed.ok).toBe(true);
          if (parsed.ok) expect(parsedWorld(o)).toEqual(parsed.value);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("shares one app host between the runs of a world, whatever their seed and sidecars", () => {
    const a = buildSimulation(parsedWorld({ seed: 3, sidecars: { val1: 10, val3: 5000 } }));
    const b = buildSimulation(parsedWorld({ seed: 3, sidecars: { val1: 70_000, val3: 0 } }));
    const other = buildSimulation(parsedWorld({ seed: 8, sidecars: { val1: 10 } }));
    const none = buildSimulation(parsedWorld({ seed: 9 }));
    const faulty = buildSimulation(parsedWorld({ seed: 3, sidecars: { val1: 10 }, faults: ["ignore-cancel"] }));
    const stores = buildSimulation(parsedWorld({ seed: 3, variant: "store-upgrades" }));
    if (!a.ok || !b.ok || !other.ok || !none.ok || !faulty.ok || !stores.ok) throw new Error("world is invalid");
    expect(a.value.host).toBe(b.value.host);
    expect(other.value.host).toBe(a.value.host);
    expect(none.value.host).toBe(a.value.host);
    expect(faulty.value.host).not.toBe(a.value.host);
    expect(stores.value.host).not.toBe(a.value.host);
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

/** Drives `commands` on a session of `world` (built fresh, or forked from the world's ready chain). */
function drive(world: WorldOptions, commands: readonly CommandData[], readyChain: boolean) {
  const s = new Session(world, { readyChain });
  const model = emptyModel();
  for (const data of commands) {
    const c = new HarnessCommand(data);
    if (c.check(model)) c.run(model, { execute: (d, label) => runCommand(s, d, label) });
  }
  const sim = s.sim;
  return {
    traceHash: sim.traceHash(),
    trace: sim.traceLines(),
    oracle: predict(s.oracle.snapshot),
    fired: [...s.firedCounts].sort(),
    blocks: s.blocks,
    execs: s.execs,
    steps: s.steps,
    nodes: sim
      .nodeNames()
      .map((n) => ({ status: sim.nodeStatus(n), upgradeInfo: sim.host.readUpgradeInfo(sim.nodeState(n)!) })),
  };
}

describe("a session forked from its world's ready chain", () => {
  // Every planted fault, and none: the same trace, oracle, records and nodes as a chain built fresh. One ready
  // chain per world serves every seed and sidecar set (readyChainIsShared), so the runs below fork the same
  // snapshot with different seeds and sidecars.
  for (const fault of [undefined, ...FAULT_NAMES]) {
    it(`equals the chain built fresh${fault === undefined ? "" : ` under ${fault}`}, for any seed and sidecars`, () => {
      const runs = fc.sample(
        fc.tuple(
          sidecarArb,
          fc.array(fc.oneof(...commandArbitraries()), { maxLength: 20 }),
          fc.constantFrom(...WORLD_VARIANTS),
          fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          govArb,
        ),
        { seed: 42, numRuns: 8 },
      );
      for (const [sidecars, commands, variant, seed, gov] of runs) {
        const world: WorldOptions = {
          seed,
          variant,
          sidecars: clean(sidecars),
          ...(gov === undefined ? {} : { gov }),
          ...(fault === undefined ? {} : { faults: [fault] }),
        };
        expect(drive(world, commands, true)).toEqual(drive(world, commands, false));
      }
    });
  }

  it("is one snapshot per world: the ready chain of the property worlds is shared across seeds and sidecars", () => {
    for (const variant of WORLD_VARIANTS) {
      const world: WorldOptions = { seed: 1, variant, sidecars: { val2: 5 } };
      drive(world, [], true);
      expect(readyChainIsShared(world)).toBe(true);
    }
  });
});
