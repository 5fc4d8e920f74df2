import { describe, expect, it } from "vitest";
import { type CommandData, emptyModel, HarnessCommand, sessionTarget } from "./commands.js";
import {
  addSession,
  emptyRegionCounts,
  mergeRegionCounts,
  type RegionName,
  regionPercentages,
  sessionRegions,
  sessionSimulated,
} from "./regions.js";
import { Session } from "./session.js";

function session(cmds: readonly CommandData[]): Session {
  const s = new Session({ seed: 1 });
  const m = emptyModel();
  for (const c of cmds) new HarnessCommand(c).run(m, sessionTarget(s, []));
  return s;
}
const regions = (cmds: readonly CommandData[]) => [...sessionRegions(session(cmds))].sort();

describe("sessionRegions", () => {
  it("an idle chain reaches no region", () => {
    expect(regions([{ kind: "advance", blocks: 3 }])).toEqual([]);
  });

  it("a halt at a due plan, a stall, and the upgrade applied once every validator swaps", () => {
    expect(
      regions([
        { kind: "emergency-upgrade", name: "v2", offset: 2 },
        { kind: "advance", blocks: 5 },
        { kind: "swap-all", binary: "v2" },
        { kind: "advance", blocks: 3 },
      ]),
    ).toEqual(["halt-upgrade-needed", "stall", "upgrade-applied"]);
  });

  it("a swap to the new binary before the plan height halts binary-too-early", () => {
    expect(
      regions([
        { kind: "emergency-upgrade", name: "v2", offset: 10 },
        { kind: "swap", node: "val1", binary: "v2" },
      ]),
    ).toEqual(["halt-binary-too-early"]);
  });

  it("a cancel clears a scheduled plan; a cancel with no plan does not count", () => {
    expect(regions([{ kind: "emergency-upgrade", name: "v2", offset: 10 }, { kind: "emergency-cancel" }])).toEqual([
      "cancel-cleared-plan",
    ]);
    expect(regions([{ kind: "emergency-cancel" }])).toEqual([]);
  });

  it("a validator that skips the plan height while the others apply it diverges (app-hash mismatch)", () => {
    expect(
      regions([
        { kind: "emergency-upgrade", name: "v2", offset: 3 },
        { kind: "restart", node: "val1", skipPlanHeight: true },
        { kind: "advance", blocks: 5 },
        { kind: "swap", node: "val2", binary: "v2" },
        { kind: "swap", node: "val3", binary: "v2" },
        { kind: "swap", node: "val4", binary: "v2" },
        { kind: "advance", blocks: 5 },
      ]),
    ).toContain("app-hash-mismatch");
  });
});

describe("region counters", () => {
  it("count runs per region, simulated blocks and chain time, and percentages", () => {
    const a = session([{ kind: "emergency-upgrade", name: "v2", offset: 10 }, { kind: "emergency-cancel" }]);
    const b = session([{ kind: "advance", blocks: 3 }]);
    expect(sessionSimulated(b)).toEqual({ heights: 4, chainMs: 4 * 6000 });
    const c1 = addSession(emptyRegionCounts(), a);
    const c2 = addSession(c1, b);
    expect(c2.runs).toBe(2);
    expect(c2.hits["cancel-cleared-plan"]).toBe(1);
    expect(c2.simHeights).toBe(sessionSimulated(a).heights + 4);
    const merged = mergeRegionCounts(c2, c1);
    expect(merged.runs).toBe(3);
    expect(merged.hits["cancel-cleared-plan"]).toBe(2);
    const pct = regionPercentages(merged);
    expect(pct["cancel-cleared-plan"]).toBe(66.67);
    expect(pct.stall).toBe(0);
    expect(regionPercentages(emptyRegionCounts())).toEqual(
      Object.fromEntries(Object.keys(pct).map((k) => [k as RegionName, 0])),
    );
  });
});
