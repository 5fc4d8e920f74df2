import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  earliestRetained,
  PRUNE_DEFAULT,
  PRUNE_EVERYTHING,
  PRUNE_NOTHING,
  type PruningOptions,
  prunesAt,
  pruningOptions,
} from "./pruning.js";

const custom = (keepRecent: number, interval: number): PruningOptions => ({ strategy: "custom", keepRecent, interval });
const errorOf = (r: ReturnType<typeof pruningOptions>): string => (r.ok ? "ok" : r.error.message);

describe("pruningOptions", () => {
  it("maps the presets to their keep-recent and interval", () => {
    expect(pruningOptions("default")).toEqual({
      ok: true,
      value: { strategy: "default", keepRecent: 362880, interval: 10 },
    });
    expect(pruningOptions("everything")).toEqual({
      ok: true,
      value: { strategy: "everything", keepRecent: 2, interval: 10 },
    });
    expect(pruningOptions("nothing")).toEqual({ ok: true, value: { strategy: "nothing", keepRecent: 0, interval: 0 } });
  });

  it("lower-cases the strategy and reads empty as default; presets ignore keep-recent and interval", () => {
    expect(pruningOptions("EveryThing", 1, 1)).toEqual({ ok: true, value: PRUNE_EVERYTHING });
    expect(pruningOptions("")).toEqual({ ok: true, value: PRUNE_DEFAULT });
    expect(pruningOptions("NOTHING")).toEqual({ ok: true, value: PRUNE_NOTHING });
  });

  it("rejects an unknown strategy with the lower-cased value", () => {
    expect(errorOf(pruningOptions("Sometimes"))).toBe("unknown pruning strategy sometimes");
  });

  it("validates custom options in the reference order", () => {
    const p = "invalid custom pruning options: ";
    expect(errorOf(pruningOptions("custom", 0, 0))).toBe(
      `${p}'pruning-interval' must not be 0. If you want to disable pruning, select pruning = "nothing"`,
    );
    expect(errorOf(pruningOptions("custom", 0, 9))).toBe(
      `${p}'pruning-interval' must not be less than 10. For the most aggressive pruning, select pruning = "everything"`,
    );
    expect(errorOf(pruningOptions("custom", 1, 10))).toBe(
      `${p}'pruning-keep-recent' must not be less than 2. For the most aggressive pruning, select pruning = "everything"`,
    );
    expect(pruningOptions("custom", 2, 10)).toEqual({ ok: true, value: custom(2, 10) });
    expect(pruningOptions("Custom", 100, 10)).toEqual({ ok: true, value: custom(100, 10) });
  });

  it("reads missing or negative custom values as 0", () => {
    expect(errorOf(pruningOptions("custom"))).toContain("'pruning-interval' must not be 0");
    expect(errorOf(pruningOptions("custom", 5, -20))).toContain("'pruning-interval' must not be 0");
    expect(errorOf(pruningOptions("custom", -5, 20))).toContain("'pruning-keep-recent' must not be less than 2");
  });
});

describe("earliestRetained (docs/node-api.md §1.3 table)", () => {
  it.each([
    [9, 1],
    [10, 8],
    [19, 8],
    [20, 18],
    [25, 18],
  ])("everything, L=%i -> earliest %i", (latest, earliest) => {
    expect(earliestRetained(latest, PRUNE_EVERYTHING)).toBe(earliest);
  });

  it.each([
    [105, 1],
    [110, 10],
  ])("custom 100/10, L=%i -> earliest %i", (latest, earliest) => {
    expect(earliestRetained(latest, custom(100, 10))).toBe(earliest);
  });

  it.each([
    [362889, 1],
    [362890, 10],
  ])("default, L=%i -> earliest %i", (latest, earliest) => {
    expect(earliestRetained(latest, PRUNE_DEFAULT)).toBe(earliest);
  });

  it("nothing keeps every version", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000_000 }), (l) => earliestRetained(l, PRUNE_NOTHING) === 1));
  });

  it("respects the initial version", () => {
    expect(earliestRetained(105, PRUNE_EVERYTHING, 100)).toBe(100);
    expect(earliestRetained(110, PRUNE_EVERYTHING, 100)).toBe(108);
  });

  it("equals the result of applying the per-commit rule at every height", () => {
    const opts = fc.oneof(
      fc.constant(PRUNE_EVERYTHING),
      fc.record({
        strategy: fc.constant("custom" as const),
        keepRecent: fc.integer({ min: 2, max: 40 }),
        interval: fc.integer({ min: 10, max: 30 }),
      }),
    );
    fc.assert(
      fc.property(opts, fc.integer({ min: 1, max: 300 }), (o, latest) => {
        let earliest = 1;
        for (let h = 1; h <= latest; h++) if (prunesAt(h, o)) earliest = Math.max(earliest, h - o.keepRecent);
        return earliestRetained(latest, o) === earliest;
      }),
    );
  });

  it("prunes only at multiples of the interval above keep-recent", () => {
    expect(prunesAt(10, PRUNE_EVERYTHING)).toBe(true);
    expect(prunesAt(11, PRUNE_EVERYTHING)).toBe(false);
    expect(prunesAt(100, custom(100, 10))).toBe(false);
    expect(prunesAt(110, custom(100, 10))).toBe(true);
    expect(prunesAt(10, PRUNE_NOTHING)).toBe(false);
  });
});
