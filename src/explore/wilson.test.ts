import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { trialsNeededForLowerBound, wilson, Z_95 } from "./wilson.js";

describe("wilson", () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion", Statistics in Medicine 17, Table I
  // (method 3, score interval without continuity correction), printed to four decimals.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])("%i of %i → [%f, %f] (Newcombe 1998)", (k, n, lo, hi) => {
    const w = wilson(k, n);
    expect(w.lo).toBeCloseTo(lo, 4);
    expect(w.hi).toBeCloseTo(hi, 4);
    expect(w.p).toBe(k / n);
  });

  it("is exactly 0 or 1 at the edges and n/(n+z²) below n of n", () => {
    expect(wilson(0, 50).lo).toBe(0);
    expect(wilson(50, 50).hi).toBe(1);
    expect(wilson(200, 200).lo).toBeCloseTo(200 / (200 + Z_95 * Z_95), 12);
    expect(wilson(200, 200).lo).toBeCloseTo(0.9812, 4);
  });

  it("gives the uninformative interval without trials", () => {
    expect(wilson(0, 0)).toEqual({ successes: 0, trials: 0, p: 0, lo: 0, hi: 1 });
  });

  test.prop([fc.integer({ min: 1, max: 5000 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)))])(
    "is symmetric, contains k/n and grows with k",
    ([k, n]) => {
      const w = wilson(k, n);
      const mirror = wilson(n - k, n);
      expect(w.lo).toBeCloseTo(1 - mirror.hi, 12);
      expect(w.lo).toBeLessThanOrEqual(w.p);
      expect(w.hi).toBeGreaterThanOrEqual(w.p);
      if (k < n) expect(wilson(k + 1, n).lo).toBeGreaterThan(w.lo);
    },
  );

  it("counts the runs a lower bound needs", () => {
    // n / (n + z²) ≥ 0.999 ⇔ n ≥ 999 z² = 3837.6…
    expect(trialsNeededForLowerBound(0.999)).toBe(3838);
    expect(wilson(3838, 3838).lo).toBeGreaterThanOrEqual(0.999);
    expect(wilson(3837, 3837).lo).toBeLessThan(0.999);
    expect(trialsNeededForLowerBound(0.9)).toBe(35);
  });
});
