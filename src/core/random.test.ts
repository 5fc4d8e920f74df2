import seedrandom from "seedrandom";
import { describe, expect, it } from "vitest";
import { restoreStream, streamFor } from "./random.js";

describe("random streams are seedrandom's alea, draw for draw", () => {
  it("gives the same numbers and the same states as seedrandom for many seeds and subsystems", () => {
    for (const seed of [0, 1, 7, 42, 2_147_483_647, 123_456_789]) {
      for (const subsystem of ["blockTime", "explore/cancel-window/trials", ""]) {
        const ours = streamFor(seed, subsystem);
        const theirs = seedrandom.alea(`${seed}/${subsystem}`, { state: true });
        for (let i = 0; i < 20_000; i++) expect(ours.next()).toBe(theirs());
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
