import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CommandData } from "./commands.js";
import { runArbitrary } from "./run-property.js";
import {
  classifyCommands,
  commandsOf,
  GENERATION_CLASSES,
  type GenerationClass,
  generationStatistics,
  lengthLabel,
} from "./statistics.js";

const up = (offset: number): CommandData => ({
  kind: "propose-upgrade",
  name: "v2",
  offset,
  expedited: false,
  deposit: "full",
});
const swap = (binary: "v1" | "v2" | "v3-only"): CommandData => ({ kind: "swap", node: "val1", binary });
const classes = (cmds: CommandData[], sidecars = 0) =>
  classifyCommands(cmds, sidecars).filter((c) => !c.startsWith("length"));

describe("classifyCommands", () => {
  it("plan near the decision height: an upgrade with |offset| <= 2, proposal or authority", () => {
    expect(classes([up(2)])).toContain("plan near decision height");
    expect(classes([up(-2)])).toContain("plan near decision height");
    expect(classes([{ kind: "emergency-upgrade", name: "v3", offset: 0 }])).toContain("plan near decision height");
    expect(classes([up(3)])).not.toContain("plan near decision height");
    expect(classes([up(-3)])).not.toContain("plan near decision height");
  });

  it("early swap: a swap to a binary with a handler after an upgrade and before any advance-to-plan", () => {
    expect(classes([up(9), swap("v2")])).toContain("early swap");
    expect(classes([up(9), { kind: "swap-all", binary: "v3-only" }])).toContain("early swap");
    expect(classes([swap("v2"), up(9)])).not.toContain("early swap");
    expect(classes([up(9), swap("v1")])).not.toContain("early swap");
    expect(classes([up(9), { kind: "advance-to-plan", delta: -1 }, swap("v2")])).not.toContain("early swap");
  });

  it("cancel proposal, restart with skip height, sidecars", () => {
    expect(classes([{ kind: "propose-cancel", expedited: false, deposit: "full" }])).toEqual(["cancel proposal"]);
    expect(classes([{ kind: "emergency-cancel" }])).toEqual([]);
    expect(classes([{ kind: "restart", node: "val2", skipPlanHeight: true }])).toEqual(["restart with skip height"]);
    expect(classes([{ kind: "restart", node: "val2", skipPlanHeight: false }])).toEqual([]);
    expect(classes([], 1)).toEqual(["with sidecars"]);
  });

  it("cancel by another validator, gov transactions on a closed proposal, abstentions", () => {
    expect(classes([{ kind: "withdraw", target: "newest", by: "other" }])).toEqual(["cancel by another validator"]);
    expect(classes([{ kind: "withdraw", target: "oldest", by: "proposer" }])).toEqual([]);
    expect(classes([{ kind: "deposit", target: "closed", amounts: ["valid"] }])).toEqual([
      "gov tx on a closed proposal",
    ]);
    expect(classes([{ kind: "vote", target: "closed", outcome: "pass" }])).toEqual(["gov tx on a closed proposal"]);
    expect(classes([{ kind: "vote", target: "newest", outcome: "abstain" }])).toEqual(["abstentions"]);
    expect(classes([{ kind: "vote", target: "newest", outcome: "pass-over-abstain" }])).toEqual(["abstentions"]);
    expect(classes([{ kind: "vote", target: "newest", outcome: "veto" }])).toEqual([]);
  });

  it("labels the length bucket", () => {
    expect([0, 1, 5, 6, 10, 11, 20, 21, 30, 31].map(lengthLabel)).toEqual([
      "length 0",
      "length 1-5",
      "length 1-5",
      "length 6-10",
      "length 6-10",
      "length 11-20",
      "length 11-20",
      "length 21-30",
      "length 21-30",
      "length 31+",
    ]);
    expect(classifyCommands([up(0), up(0)], 0)).toContain("length 1-5");
  });
});

describe("generationStatistics", () => {
  it("reports the percentages of the sequences fc.check would generate with the same seed", () => {
    const seed = 77;
    const samples = 300;
    const g = generationStatistics({ seed, samples, maxCommands: 30 });
    // The same values, classified by hand.
    const counts = new Map<string, number>();
    for (const [sidecars, cmds] of fc.sample(runArbitrary(30), { seed, numRuns: samples })) {
      const n = Object.values(sidecars).filter((v) => v !== undefined).length;
      for (const c of classifyCommands(commandsOf(cmds), n)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    const pct = (c: string) => Math.round(((counts.get(c) ?? 0) * 10000) / samples) / 100;
    for (const c of Object.keys(GENERATION_CLASSES) as GenerationClass[]) expect(g.classes[c]).toBe(pct(c));
    for (const [k, v] of Object.entries(g.lengths)) expect(v).toBe(pct(`length ${k}`));
    expect(Object.values(g.lengths).reduce((a, b) => a + b, 0)).toBeCloseTo(100, 1);
    // The interesting region is reached: generation is weighted towards it.
    expect(g.classes["plan near decision height"]).toBeGreaterThan(20);
  });

  it("samples exactly the inputs of fc.check's runs with the same seed", () => {
    const seen: string[] = [];
    fc.check(
      fc.property(runArbitrary(30), ([s, c]) => {
        seen.push(JSON.stringify([s, commandsOf(c)]));
      }),
      { seed: 9, numRuns: 5 },
    );
    const sampled = fc
      .sample(runArbitrary(30), { seed: 9, numRuns: 5 })
      .map(([s, c]) => JSON.stringify([s, commandsOf(c)]));
    expect(seen).toEqual(sampled);
  });
});
