import { describe, expect, it } from "vitest";
import { TraceWriter } from "./trace.js";

const write = (w: TraceWriter, observe: boolean) => {
  w.emit({ t: "genesis" });
  for (let h = 1; h <= 5; h++) {
    w.plainBlock(h, h * 1000, "aa");
    if (observe) {
      w.hash();
      w.lines();
    }
  }
  w.emit({ t: "halt", height: 6 });
  w.plainBlock(6, 6000, "aa");
  w.plainBlock(7, 7000, "bb");
};

describe("TraceWriter", () => {
  it("merges consecutive plain blocks with the same app hash into one range line", () => {
    const w = new TraceWriter(true);
    write(w, false);
    expect(w.lines().map((l) => JSON.parse(l))).toEqual([
      { t: "genesis" },
      { t: "blocks", from: 1, to: 5, timeFromMs: 1000, timeToMs: 5000, appHash: "aa" },
      { t: "halt", height: 6 },
      { t: "blocks", from: 6, to: 6, timeFromMs: 6000, timeToMs: 6000, appHash: "aa" },
      { t: "blocks", from: 7, to: 7, timeFromMs: 7000, timeToMs: 7000, appHash: "bb" },
    ]);
    expect(w.lineCount).toBe(5);
  });

  it("reading the hash or the lines mid-way never changes the trace", () => {
    const observed = new TraceWriter(true);
    const plain = new TraceWriter(true);
    write(observed, true);
    write(plain, false);
    expect(observed.lines()).toEqual(plain.lines());
    expect(observed.hash()).toBe(plain.hash());
  });

  it("the hash covers the pending range and changes with any event", () => {
    const a = new TraceWriter(false);
    const b = new TraceWriter(false);
    a.plainBlock(1, 1000, "aa");
    b.plainBlock(1, 1000, "aa");
    expect(a.hash()).toBe(b.hash());
    b.plainBlock(2, 2000, "aa");
    expect(a.hash()).not.toBe(b.hash());
    a.plainBlock(2, 2001, "aa");
    expect(a.hash()).not.toBe(b.hash());
  });

  it("a clone continues independently", () => {
    const a = new TraceWriter(true);
    a.plainBlock(1, 1000, "aa");
    const c = a.clone();
    c.plainBlock(2, 2000, "aa");
    expect(a.lines()).toHaveLength(1);
    expect(JSON.parse(a.lines()[0]!).to).toBe(1);
    expect(JSON.parse(c.lines()[0]!).to).toBe(2);
  });
});
