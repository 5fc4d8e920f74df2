import seedrandom from "seedrandom";
import { describe, expect, it } from "vitest";
import { counterKey, counterU32, counterUniform, restoreStream, streamFor } from "./random.js";

describe("random streams are seedrandom's alea, draw for draw", () => {
  it("gives the same numbers and the same states as seedrandom for many seeds and subsystems", () => {
    for (const seed of [0, 1, 7, 42, 2_147_483_647, 123_456_789]) {
      for (const subsystem of ["blockTime", "explore/cancel-window/trials", ""]) {
        const ours = streamFor(seed, subsystem);
        const theirs = seedrandom.alea(`${seed}/${subsystem}`, { state: true });
        // One comparison of the two sequences (toEqual compares each number with Object.is, as toBe does).
        const draws = (next: () => number) => Array.from({ length: 20_000 }, next);
        expect(draws(() => ours.next())).toEqual(draws(theirs));
        expect(ours.state()).toEqual({ key: `${seed}/${subsystem}`, alea: theirs.state() });
      }
    }
  });

  it("restores a state to continue the same sequence, and int() draws as before", () => {
    const a = streamFor(5, "x");
    for (let i = 0; i < 1000; i++) a.next();
    const b = restoreStream(a.state());
    const theirs = seedrandom.alea("", { state: a.state().alea });
    for (let i = 0; i < 1000; i++) {
      const u = theirs();
      expect(b.next()).toBe(u);
      expect(a.int(3, 9)).toBe(3 + Math.floor(u * 7));
    }
  });

  it("fills a buffer with exactly the draws next() would give, and continues the same sequence", () => {
    for (const seed of [0, 3, 2_147_483_647]) {
      const a = streamFor(seed, "blockTime");
      const b = streamFor(seed, "blockTime");
      const out = new Float64Array(700);
      a.fill(out, 100, 700);
      for (let i = 100; i < 700; i++) expect(out[i]).toBe(b.next());
      expect(out[99]).toBe(0);
      expect(a.state()).toEqual(b.state());
      expect(a.next()).toBe(b.next());
    }
  });
});

describe("counterU32: a counter-based draw", () => {
  it("is a pure function of (key, index): the same word in any order, other words under another key", () => {
    const k = counterKey(7, "blockTime/drift/block");
    expect(counterKey(7, "blockTime/drift/block")).toEqual(k);
    const forward = Array.from({ length: 1000 }, (_, i) => counterU32(k, 20_000_000 + i));
    const backward = Array.from({ length: 1000 }, (_, i) => counterU32(k, 20_000_999 - i)).reverse();
    expect(backward).toEqual(forward);
    const other = counterKey(8, "blockTime/drift/block");
    expect(forward.filter((x, i) => x === counterU32(other, 20_000_000 + i))).toHaveLength(0);
    expect(counterU32(k, 2 ** 32 + 5)).not.toBe(counterU32(k, 5));
  });

  it("spreads its uniforms evenly: 160,000 draws pass a χ² test over 16 bins, lag-1 correlation near 0", () => {
    const k = counterKey(1, "test");
    const bins = new Array<number>(16).fill(0);
    let prev = 0.5;
    let cross = 0;
    const n = 160_000;
    for (let i = 0; i < n; i++) {
      const u = counterUniform(k, i);
      expect(u > 0 && u < 1).toBe(true);
      bins[Math.floor(u * 16)]! += 1;
      cross += (u - 0.5) * (prev - 0.5);
      prev = u;
    }
    // χ² with 15 degrees of freedom: below 37.7 with probability 0.999 for a uniform source.
    const e = n / 16;
    expect(bins.reduce((s, b) => s + (b - e) ** 2 / e, 0)).toBeLessThan(37.7);
    expect(Math.abs(cross / n / (1 / 12))).toBeLessThan(0.01);
  });
});
