import { describe, expect, it } from "vitest";
import { durationMs } from "../core/brand.js";
import { streamFor } from "../core/random.js";
import { BlockTimeSource, type StreamModel, sampleInterval } from "./block-time.js";

const MODELS: readonly StreamModel[] = [
  { kind: "fixed", intervalMs: durationMs(6000) },
  { kind: "uniform", minMs: durationMs(5000), maxMs: durationMs(7000) },
  { kind: "uniform", minMs: durationMs(1), maxMs: durationMs(1) },
  { kind: "normal", meanMs: durationMs(6000), stddevMs: durationMs(1500), minMs: durationMs(1) },
  {
    kind: "normal",
    meanMs: durationMs(6000),
    stddevMs: durationMs(4000),
    minMs: durationMs(500),
    maxMs: durationMs(9000),
  },
];
const SEEDS = [0, 1, 7, 42, 2_147_483_647];

/** The contract written out: two draws of the seed's own stream per height, in height order, nothing shared. */
function reference(seed: number, model: StreamModel, heights: number): number[] {
  const s = streamFor(seed, "blockTime");
  return Array.from({ length: heights }, () => {
    const u1 = s.next();
    const u2 = s.next();
    return sampleInterval(model, u1, u2);
  });
}

describe("BlockTimeSource: interval(h) depends only on (seed, model, h)", () => {
  it("equals two draws per height of the seed's stream, for every model and seed", () => {
    for (const seed of SEEDS)
      for (const model of MODELS) {
        const src = new BlockTimeSource(seed, model);
        const got = Array.from({ length: 3000 }, (_, i) => src.interval(i + 1));
        expect(got).toEqual(reference(seed, model, 3000));
      }
  });

  it("gives the same intervals with the draws shared: sources of one seed under several models, interleaved", () => {
    const heights = 5000;
    for (const seed of SEEDS) {
      const sources = MODELS.map((m) => new BlockTimeSource(seed, m));
      const got = sources.map(() => [] as number[]);
      // Out of order, with repeats and jumps ahead, as retries, snapshots and fast-forwards ask for them.
      for (let h = 1; h <= heights; h++)
        sources.forEach((s, i) => {
          const at = (h * (i + 3)) % 7 === 0 ? Math.min(heights, h + 700) : h;
          s.interval(at);
          got[i]!.push(s.interval(h));
        });
      MODELS.forEach((m, i) => {
        expect(got[i]).toEqual(reference(seed, m, heights));
      });
    }
  });

  it("gives the same intervals after the shared draws of a seed were dropped for other seeds", () => {
    const model = MODELS[1]!;
    const first = new BlockTimeSource(3, model);
    first.interval(100);
    for (let seed = 100; seed < 120; seed++) new BlockTimeSource(seed, model).interval(2000);
    const again = new BlockTimeSource(3, model);
    const want = reference(3, model, 4000);
    expect(Array.from({ length: 4000 }, (_, i) => again.interval(i + 1))).toEqual(want);
    expect(Array.from({ length: 4000 }, (_, i) => first.interval(i + 1))).toEqual(want);
  });

  it("restores from a snapshot taken mid-way into an independent source with the same intervals", () => {
    for (const model of MODELS) {
      const a = new BlockTimeSource(9, model);
      a.interval(1234);
      const b = BlockTimeSource.fromSnapshot(a.snapshot());
      const want = reference(9, model, 6000);
      expect(Array.from({ length: 6000 }, (_, i) => b.interval(i + 1))).toEqual(want);
      expect(Array.from({ length: 6000 }, (_, i) => a.interval(i + 1))).toEqual(want);
    }
  });
});

describe("BlockTimeSource.idleTimes: a run of block times in one call", () => {
  /** The times one `interval` call per block gives. */
  function oneByOne(src: BlockTimeSource, from: number, heightEnd: number, startMs: number, limitMs: number) {
    const out: number[] = [];
    let t = startMs;
    for (let h = from; h < heightEnd; h++) {
      t += src.interval(h);
      if (t >= limitMs) break;
      out.push(t);
    }
    return out;
  }

  it("equals adding interval(h) block by block, for every model, limit and start", () => {
    for (const seed of SEEDS)
      for (const model of MODELS)
        for (const [from, heightEnd, limitMs] of [
          [1, 2000, Number.POSITIVE_INFINITY],
          [1, 5000, 1_000_000_000 + 3_000_000],
          [700, 9000, 1_000_000_000 + 20_000_000],
          [40, 41, Number.POSITIVE_INFINITY],
          [40, 41, 0],
          // Starting and ending on the boundaries of the chunks of draws (1,024 heights each).
          [1025, 3073, Number.POSITIVE_INFINITY],
          [1024, 2049, Number.POSITIVE_INFINITY],
        ] as const) {
          const startMs = 1_000_000_000;
          const out = new Float64Array(heightEnd - from + 3);
          const n = new BlockTimeSource(seed, model).idleTimes(from, heightEnd, startMs, limitMs, out, 3);
          const want = oneByOne(new BlockTimeSource(seed, model), from, heightEnd, startMs, limitMs);
          expect(n).toBe(want.length);
          expect([...out.subarray(3, 3 + n)]).toEqual(want);
          expect([...out.subarray(0, 3)]).toEqual([0, 0, 0]);
        }
  });
});

describe("BlockTimeSource snapshots", () => {
  it("restore a source with the same intervals, through structuredClone too", () => {
    for (const model of MODELS) {
      const a = new BlockTimeSource(4, model);
      a.interval(3000);
      const b = BlockTimeSource.fromSnapshot(structuredClone(a.snapshot()));
      expect(Array.from({ length: 5000 }, (_, i) => b.interval(i + 1))).toEqual(reference(4, model, 5000));
    }
  });
});
