import { describe, expect, it } from "vitest";
import { durationMs } from "../core/brand.js";
import { BlockStore } from "./block-store.js";
import { BlockTimeSource } from "./block-time.js";

const store = () =>
  new BlockStore<string>("c", "00", "VH", [new Uint8Array([1]), new Uint8Array([2])], (tx) =>
    new TextEncoder().encode(tx),
  );

/** Everything a reader of the store sees, for every height. */
const view = (s: BlockStore<string>, heights: number) => ({
  height: s.height,
  blocks: Array.from({ length: heights + 1 }, (_, h) => [s.get(h), s.appHash(h), s.timeMs(h)]),
});

describe("BlockStore.appendIdleRun: a run of idle blocks in one call", () => {
  const model = { kind: "uniform", minMs: durationMs(5000), maxMs: durationMs(7000) } as const;

  it("gives the store that appending the same blocks one by one gives, across chunks and app-hash changes", () => {
    const bulk = store();
    const single = store();
    const times = new BlockTimeSource(5, model);
    // A block with transactions and another hash first, so the run starts on a new hash.
    for (const s of [bulk, single]) s.append(1, 6000, ["tx"], "aa");
    const limitMs = 6000 + 70_000 * 6000;
    const n = bulk.appendIdleRun(Number.MAX_SAFE_INTEGER, 6000, limitMs, times, "bb");
    let t = 6000;
    let h = 2;
    for (;;) {
      const next = t + times.interval(h);
      if (next >= limitMs) break;
      single.append(h, next, [], "bb");
      t = next;
      h++;
    }
    expect(n).toBe(h - 2);
    expect(n).toBeGreaterThan(65_536);
    expect(view(bulk, h)).toEqual(view(single, h));
    // Both continue alike: one executed block, then a short run stopped by the height bound.
    for (const s of [bulk, single]) s.append(h, t + 1, ["tx2"], "cc");
    expect(bulk.appendIdleRun(h + 4, t + 1, Number.POSITIVE_INFINITY, times, "cc")).toBe(3);
    for (let k = 1; k <= 3; k++) single.append(h + k, bulk.timeMs(h + k)!, [], "cc");
    expect(view(bulk, h + 5)).toEqual(view(single, h + 5));
    expect(bulk.meta(h + 2)).toEqual(single.meta(h + 2));
  });

  it("appends nothing when the first block would reach the limit or the height bound", () => {
    const s = store();
    const times = new BlockTimeSource(1, model);
    expect(s.appendIdleRun(100, 0, 4000, times, "aa")).toBe(0);
    expect(s.appendIdleRun(1, 0, Number.POSITIVE_INFINITY, times, "aa")).toBe(0);
    expect(s.height).toBe(0);
  });
});

describe("BlockStore app hashes", () => {
  it("reads back the app hash appended at every height, runs of equal hashes and changes alike", () => {
    const s = store();
    // Runs of 1 … 6 blocks, a hash seen earlier coming back, and a change at every block for a while.
    const hashes = Array.from({ length: 300 }, (_, i) =>
      i < 100 ? `r${Math.floor(Math.sqrt(i))}` : i < 200 ? `h${i}` : `r${i % 3}`,
    );
    hashes.forEach((h, i) => {
      s.append(i + 1, (i + 1) * 1000, i % 7 === 0 ? [`tx${i}`] : [], h);
    });
    expect(Array.from({ length: 300 }, (_, i) => s.appHash(i + 1))).toEqual(hashes);
    expect(Array.from({ length: 300 }, (_, i) => s.get(i + 1)?.appHash)).toEqual(hashes);
    expect(s.appHash(0)).toBe("00");
    expect(s.appHash(301)).toBeUndefined();
    expect(
      Array.from({ length: 300 }, (_, i) =>
        BlockStore.fromSnapshot(s.snapshot(), (tx: string) => new TextEncoder().encode(tx)).appHash(i + 1),
      ),
    ).toEqual(hashes);
  });
});

describe("BlockStore snapshots", () => {
  it("restore the same store, through structuredClone too, and both continue alike", () => {
    const s = store();
    const times = new BlockTimeSource(2, { kind: "uniform", minMs: durationMs(5000), maxMs: durationMs(7000) });
    s.append(1, 6000, ["tx"], "aa");
    const h = 1 + s.appendIdleRun(Number.MAX_SAFE_INTEGER, 6000, 6000 + 9000 * 6000, times, "aa");
    s.append(h + 1, s.timeMs(h)! + 6000, ["tx2"], "bb");
    for (const copy of [
      BlockStore.fromSnapshot(s.snapshot(), (tx: string) => new TextEncoder().encode(tx)),
      BlockStore.fromSnapshot(structuredClone(s.snapshot()), (tx: string) => new TextEncoder().encode(tx)),
    ]) {
      const viaClone = BlockStore.fromSnapshot(structuredClone(s.snapshot()), (tx: string) =>
        new TextEncoder().encode(tx),
      );
      expect(view(copy, h + 2)).toEqual(view(s, h + 1 + 1));
      expect(view(viaClone, h + 2)).toEqual(view(s, h + 2));
      expect(copy.meta(h + 1)).toEqual(s.meta(h + 1));
      copy.append(h + 2, 1e13, [], "cc");
      expect(s.height).toBe(h + 1);
    }
  });
});
