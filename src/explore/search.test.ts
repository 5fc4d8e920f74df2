import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { landedAt, safeOffsets, smallestOffset, sortedLandings } from "./search.js";

describe("search", () => {
  it("counts trials landed at an offset (landing offset ≤ offset); +∞ never lands", () => {
    const s = sortedLandings([105, Number.POSITIVE_INFINITY, 100, 103, 103]);
    expect(s).toEqual([100, 103, 103, 105]);
    expect([99, 100, 102, 103, 104, 105, 1e9].map((o) => landedAt(s, o))).toEqual([0, 1, 1, 3, 3, 4, 4]);
  });

  test.prop([fc.integer({ min: -50, max: 50 }), fc.integer({ min: -60, max: 60 }), fc.integer({ min: 0, max: 70 })])(
    "binary search equals a linear scan for any threshold predicate",
    (min, threshold, width) => {
      const max = min + width;
      const pred = (o: number) => o >= threshold;
      let linear: number | null = null;
      for (let o = min; o <= max; o++)
        if (pred(o)) {
          linear = o;
          break;
        }
      expect(smallestOffset(min, max, pred)).toBe(linear);
    },
  );

  it("finds the smallest offset per criterion", () => {
    const landings = Array.from({ length: 100 }, (_, i) => 1000 + i);
    const s = sortedLandings(landings);
    // Point estimate ≥ 0.95: 95 landed → offset 1094; lower bound ≥ 0.95 only at 100 of 100 (0.963) → 1099.
    expect(safeOffsets(s, 100, 0.95, 1, 5000)).toEqual({ byPoint: 1094, byLowerBound: 1099 });
    // Lower bound ≥ 0.97 is out of reach with 100 runs.
    expect(safeOffsets(s, 100, 0.97, 1, 5000)).toEqual({ byPoint: 1096, byLowerBound: null });
    // Lower bound ≥ 0.9 needs k with wilson(k, 100).lo ≥ 0.9: k = 96 (lo 0.9016), k = 95 gives 0.8883.
    expect(safeOffsets(s, 100, 0.9, 1, 5000).byLowerBound).toBe(1095);
    // The range clamps: below it nothing is searched, above it nothing qualifies.
    expect(safeOffsets(s, 100, 0.5, 1060, 5000).byPoint).toBe(1060);
    expect(safeOffsets(s, 100, 0.5, 1, 1040).byPoint).toBeNull();
  });
});
