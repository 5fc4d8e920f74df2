import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { predict } from "../../models/oracle.js";
import { PROPERTIES } from "../../properties/index.js";
import { timeless } from "../../test/kit/campaign.js";
import { neverStopped } from "../../test/kit/never-stopped.js";
import { FAULT_NAMES, type Fault } from "../faults/index.js";
import { parseScenario } from "../scenario/load.js";
import { runScenario } from "../scenario/runner.js";
import { scenarioToYaml } from "../scenario/serialize.js";
import { type CampaignOptions, runCampaign } from "./campaign.js";
import { type CommandData, emptyModel, HarnessCommand, type HarnessModel, runCommand } from "./commands.js";
import { commandArbitraries } from "./commands-arbitraries.js";
import { checkProperty, HOLDS, type Property } from "./property.js";
import { govArb, runProperty, sidecarArb } from "./run-property.js";
import { Session } from "./session.js";
import { SHARED_PREFIX_DEFAULTS } from "./shared-prefix.js";
import { type ValidatorName, WORLD_VARIANTS, type WorldOptions } from "./world.js";

const clean = (o: Record<string, number | undefined>): Partial<Record<ValidatorName, number>> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const ALWAYS = PROPERTIES.filter((p) => p.kind === "always");

/** Runs `commands` on `s` from `model`, with every `always` property of the registry checked after each. */
function drive(s: Session, model: HarnessModel, commands: readonly CommandData[], verdicts: string[]): void {
  for (const data of commands) {
    const c = new HarnessCommand(data);
    if (!c.check(model)) continue;
    c.run(model, { execute: (d, label) => runCommand(s, d, label) });
    for (const p of ALWAYS) {
      const v = checkProperty(s, p);
      verdicts.push(v.holds ? "holds" : `${p.name}: ${v.detail}`);
    }
  }
}

/** What a session shows: its trace, oracle, records, steps, nodes and the property verdicts along the way. */
function observed(s: Session, verdicts: readonly string[]) {
  const sim = s.sim;
  return {
    traceHash: sim.traceHash(),
    trace: sim.traceLines(),
    oracle: predict(s.oracle.snapshot),
    fired: [...s.firedCounts].sort(),
    blocks: s.blocks,
    execs: s.execs,
    accountTxs: s.accountTxs,
    upgradeLines: s.upgradeLines,
    gaps: s.intents.gaps,
    steps: s.steps,
    document: s.document(),
    plans: s.blocksWithPlan(),
    verdicts,
    nodes: sim
      .nodeNames()
      .map((n) => ({ status: sim.nodeStatus(n), upgradeInfo: sim.host.readUpgradeInfo(sim.nodeState(n)!) })),
  };
}

describe("a session forked from its image", () => {
  // The prefix once, then two forks of its image, each extended, and the original session itself driven on after
  // the image was taken: each fork equals the whole sequence run on one session, and neither fork, nor the original,
  // shows in the other (an image restores any number of times).
  for (const fault of [undefined, ...FAULT_NAMES] as (Fault | undefined)[]) {
    it(`continues as the session would${fault === undefined ? "" : ` under ${fault}`}`, () => {
      const commands = fc.array(fc.oneof(...commandArbitraries()), { maxLength: 12 });
      const runs = fc.sample(
        fc.tuple(sidecarArb, commands, commands, commands, fc.constantFrom(...WORLD_VARIANTS), govArb),
        { seed: 28, numRuns: 3 },
      );
      for (const [sidecars, prefix, extension, other, variant, gov] of runs) {
        const world: WorldOptions = {
          seed: 5,
          variant,
          sidecars: clean(sidecars),
          ...(gov === undefined ? {} : { gov }),
          ...(fault === undefined ? {} : { faults: [fault] }),
        };
        const whole = (ext: readonly CommandData[]) => {
          const s = new Session(world);
          const verdicts: string[] = [];
          drive(s, emptyModel(), [...prefix, ...ext], verdicts);
          return observed(s, verdicts);
        };
        const original = new Session(world);
        const model = emptyModel();
        const before: string[] = [];
        drive(original, model, prefix, before);
        const image = original.image();
        const at = { ...model, proposals: [...model.proposals], log: [...model.log] };
        const verdictsAt = [...before];
        const forked = (ext: readonly CommandData[]) => {
          const s = new Session({ image });
          const verdicts = [...verdictsAt];
          drive(s, { ...at, proposals: [...at.proposals], log: [...at.log] }, ext, verdicts);
          return observed(s, verdicts);
        };
        const first = forked(extension);
        drive(original, model, other, before);
        expect(observed(original, before)).toEqual(whole(other));
        expect(forked(other)).toEqual(whole(other));
        expect(first).toEqual(whole(extension));
      }
    });
  }
});

const sharing = (campaignSeed: number) => ({ ...SHARED_PREFIX_DEFAULTS, families: 2, campaignSeed });

describe("a campaign with shared prefixes", () => {
  const base: CampaignOptions = {
    seed: 3,
    properties: PROPERTIES,
    runsPerProperty: 4,
    runsPerUnit: 3,
    generationSamples: 0,
    sharedPrefixes: { ...SHARED_PREFIX_DEFAULTS, families: 2 },
  };
  const clock = () => 0;
  // The reference runs every run whole on chains built fresh: no prefix cache, no fork (freshChains).
  const reference = (o: CampaignOptions) =>
    timeless(runCampaign(o, { clock, runProperty: (r) => runProperty({ ...r, freshChains: true }) }));

  it("every property, no fault: the same campaign as every run run whole on a fresh chain", () => {
    const fast = timeless(runCampaign(base, { clock }));
    expect(fast.verdict).toBe("passed");
    expect(fast.options.sharedPrefixes).toEqual(base.sharedPrefixes);
    expect(fast).toEqual(reference(base));
  }, 300_000);

  for (const [fault, verdict] of [
    ["off-by-one-due-height", "failed"],
    ["allow-past-plans", "failed"],
  ] as const) {
    it(`under ${fault}: the same campaign, counterexamples (shrunk from forked runs) included`, () => {
      const o: CampaignOptions = { ...base, faults: [fault] };
      const fast = timeless(runCampaign(o, { clock }));
      expect(fast.verdict).toBe(verdict);
      expect(fast).toEqual(reference(o));
    }, 300_000);
  }
});

describe("shrinking a run that extends a shared prefix", () => {
  it("ends at a minimal run: one or two commands, a stop without sidecars or a proposal with one", () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const cx = runProperty({
        property: neverStopped,
        seed,
        numRuns: 100,
        sharedPrefixes: sharing(seed),
      }).counterexample;
      expect(cx, `seed ${seed}`).toBeDefined();
      if (cx === undefined) continue;
      if (cx.violation === "a validator was stopped") {
        expect(cx.world.sidecars, `seed ${seed}`).toEqual({});
        expect(cx.commands.length, `seed ${seed}`).toBeLessThanOrEqual(2);
      } else {
        expect(Object.keys(cx.world.sidecars ?? {}), `seed ${seed}`).toHaveLength(1);
        expect(cx.commands, `seed ${seed}`).toHaveLength(1);
      }
    }
  });

  it("writes a counterexample scenario that replays to the failure (chainsim run)", () => {
    const property = PROPERTIES.find((p) => p.name === "model-agreement")!;
    const r = runProperty({
      property,
      seed: 1,
      numRuns: 100,
      faults: ["off-by-one-due-height"],
      sharedPrefixes: sharing(1),
    });
    const cx = r.counterexample!;
    expect(cx.commands.length).toBeLessThanOrEqual(6);
    const parsed = parseScenario("model-agreement.yaml", scenarioToYaml(cx.document));
    expect(parsed.ok ? [] : parsed.error).toEqual([]);
    if (parsed.ok) expect(runScenario(parsed.value).report.passed).toBe(false);
  });
});

describe("the families of a property checked in several world variants", () => {
  // A property that always holds, checked in every world variant: which variants its runs meet is the sampling's.
  const everywhere: Property = {
    name: "holds-everywhere",
    statement: "always holds",
    kind: "always",
    catches: [],
    worlds: WORLD_VARIANTS,
    check: () => HOLDS,
  };
  /** The world variant a session runs in, read from the scenario it writes (plan v2's store upgrades). */
  const variantOf = (s: Session) => JSON.stringify(s.document().binaries?.v2?.upgrades?.v2?.storeUpgrades ?? {});

  it("cover every variant at every campaign seed, so that a few families cannot all miss one", () => {
    for (const campaignSeed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) {
      const seen = new Set<string>();
      const r = runProperty({
        property: everywhere,
        seed: campaignSeed,
        numRuns: 24,
        maxCommands: 3,
        // Every run extends a family: the variants met are the families' own.
        sharedPrefixes: { families: 4, prefixCommands: 2, extensionPercent: 100, campaignSeed },
        onSession: (s) => seen.add(variantOf(s)),
      });
      expect(r.passed, `campaign seed ${campaignSeed}`).toBe(true);
      expect(seen.size, `campaign seed ${campaignSeed}: ${[...seen].join(" ")}`).toBe(WORLD_VARIANTS.length);
    }
  });
});
