import { assert, present } from "../core/assert.js";
import { BoundedCache } from "../core/bounded-cache.js";
import type { DurationMs } from "../core/brand.js";
import { type RandomStream, streamFor } from "../core/random.js";
import { type DriftBlockTime, DriftPath, driftMeanInterval } from "./block-time-drift.js";

export type { DriftBlockTime };

/** How long a block takes: the `chain.blockTime` models of docs/scenario-format.md. All values are whole milliseconds. */
export type BlockTimeModel =
  | { readonly kind: "fixed"; readonly intervalMs: DurationMs }
  | { readonly kind: "uniform"; readonly minMs: DurationMs; readonly maxMs: DurationMs }
  | {
      readonly kind: "normal";
      readonly meanMs: DurationMs;
      readonly stddevMs: DurationMs;
      /** Draws are clipped to [minMs, maxMs]; `minMs` defaults to 1 ms. */
      readonly minMs: DurationMs;
      /** Absent: no upper clip. */
      readonly maxMs?: DurationMs | undefined;
    }
  | DriftBlockTime;

/** A block-time source as plain data (see `BlockTimeSource.snapshot`). */
export interface BlockTimeSnapshot {
  readonly seed: number;
  readonly model: BlockTimeModel;
}

/**
 * The uniform draws of one seed's block-time stream, the pair (u1, u2) of height h at `u1(h)` and `u2(h)`, drawn a
 * chunk of `DRAW_CHUNK` heights at a time (fixed buffers, never copied). Append-only (a height's pair never changes
 * once drawn), so every source of the seed shares them, whatever its model: a sweep over the block-time spread runs
 * each trial seed under several models, and draws once.
 */
class StreamDraws {
  readonly #stream: RandomStream;
  /** chunks[c][2k], chunks[c][2k + 1]: the pair of height c·DRAW_CHUNK + k + 1. */
  readonly chunks: Float64Array[] = [];
  /** Heights whose pair is drawn. */
  heights = 0;

  constructor(seed: number) {
    this.#stream = streamFor(seed, "blockTime");
  }

  /** Draws at least up to height `h` (h ≥ 1). */
  drawTo(h: number): void {
    while (this.heights < h) {
      const c = new Float64Array(2 * DRAW_CHUNK);
      this.#stream.fill(c, 0, c.length);
      this.chunks.push(c);
      this.heights += DRAW_CHUNK;
    }
  }

  u1(h: number): number {
    const i = h - 1;
    return present(this.chunks[i >> DRAW_CHUNK_BITS]?.[2 * (i & DRAW_CHUNK_MASK)], DRAWN);
  }

  u2(h: number): number {
    const i = h - 1;
    return present(this.chunks[i >> DRAW_CHUNK_BITS]?.[2 * (i & DRAW_CHUNK_MASK) + 1], DRAWN);
  }
}

const DRAWN = "the draws reach the height read (drawTo before)";
const COMPUTED = "a normal model's intervals are computed up to the height read";
const DRIFT = "a drift model's source holds its path";

/** Heights drawn per chunk (16 KiB of draws). */
const DRAW_CHUNK_BITS = 10;
const DRAW_CHUNK = 1 << DRAW_CHUNK_BITS;
const DRAW_CHUNK_MASK = DRAW_CHUNK - 1;
/** Seeds whose draws the source keeps for the next source of the same seed (most recently used). */
const SHARED_SEEDS_MAX = 4;
const sharedDraws = new BoundedCache<number, StreamDraws>(SHARED_SEEDS_MAX, { policy: "lru" });

/** The draws of `seed`: shared with the sources of the same seed made recently. A memo of a pure function. */
const drawsOf = (seed: number): StreamDraws => sharedDraws.getOrCompute(seed, () => new StreamDraws(seed));

/**
 * The block-interval source. Contract: `interval(h)` depends only on (seed, model, h). It is backed by a dedicated
 * alea stream (`<seed>/blockTime`) that is consumed exactly twice per height, in height order: interval(h) is
 * `sampleInterval(model, u1, u2)` of the stream's draws 2h-1 and 2h. So retries and the rest of the simulation
 * never shift it, and adding a proposal to a scenario never changes its block times. The draws are shared by every
 * source of the same seed (StreamDraws); a normal model's intervals are memoised per source.
 */
export class BlockTimeSource {
  readonly #model: BlockTimeModel;
  readonly #seed: number;
  #draws: StreamDraws | undefined;
  /** fixed: the interval; uniform: the minimum. */
  readonly #base: number;
  /** uniform: the number of whole-ms values (max − min + 1). */
  readonly #width: number;
  /** normal only: intervals[h - 1] = interval(h) for every height computed so far. */
  #intervals: Float64Array | undefined;
  #computed = 0;
  /** drift only: the segment means and the counter-based block draws (docs/block-time-model.md). */
  readonly #drift: DriftPath | undefined;

  constructor(seed: number, model: BlockTimeModel) {
    this.#model = model;
    this.#seed = seed;
    this.#drift = model.kind === "drift" ? new DriftPath(seed, model) : undefined;
    this.#base = model.kind === "fixed" ? model.intervalMs : model.kind === "uniform" ? model.minMs : 0;
    this.#width = model.kind === "uniform" ? model.maxMs - model.minMs + 1 : 0;
  }

  get model(): BlockTimeModel {
    return this.#model;
  }

  /** The interval before block `h` (h ≥ 1), in ms. */
  interval(h: number): DurationMs {
    switch (this.#model.kind) {
      case "fixed":
        return this.#base as DurationMs;
      case "uniform": {
        const d = this.#streamDraws();
        if (h > d.heights) d.drawTo(h);
        return (this.#base + Math.floor(d.u1(h) * this.#width)) as DurationMs;
      }
      case "normal":
        if (h > this.#computed) this.#computeTo(h);
        return present(this.#intervals?.[h - 1], COMPUTED) as DurationMs;
      case "drift": {
        const p = present(this.#drift, DRIFT);
        return p.intervalIn(h, p.meanOf(p.segmentOf(h))) as DurationMs;
      }
    }
  }

  /**
   * The times of a run of blocks, for a bulk fast-forward: `out[at + i]` = the time of block `from + i`, the first
   * `startMs + interval(from)`, each next one `interval` later, for heights below `heightEnd` while the time stays
   * below `limitMs`. Returns how many (0 … heightEnd − from); `out` must hold them. The same times as adding
   * `interval(h)` one by one (tested), without a call per block.
   */
  idleTimes(from: number, heightEnd: number, startMs: number, limitMs: number, out: Float64Array, at: number): number {
    let t = startMs;
    let h = from;
    switch (this.#model.kind) {
      case "fixed": {
        const step = this.#base;
        for (; h < heightEnd; h++) {
          t += step;
          if (t >= limitMs) break;
          out[at + h - from] = t;
        }
        break;
      }
      case "uniform":
        return this.#uniformIdleTimes(from, heightEnd, startMs, limitMs, out, at);
      case "normal":
        for (; h < heightEnd; h++) {
          if (h > this.#computed) this.#computeTo(h);
          t += present(this.#intervals?.[h - 1], COMPUTED);
          if (t >= limitMs) break;
          out[at + h - from] = t;
        }
        break;
      case "drift":
        return present(this.#drift, DRIFT).idleTimes(from, heightEnd, startMs, limitMs, out, at);
    }
    return h - from;
  }

  /**
   * `idleTimes` of a uniform model: the hot loop of an explorer trial (about 130,000 idle blocks each). The same sums
   * in the same order as adding `interval(h)` one by one, read straight from each chunk of draws (no call, no bounds
   * check of the chunk per block).
   */
  #uniformIdleTimes(
    from: number,
    heightEnd: number,
    startMs: number,
    limitMs: number,
    out: Float64Array,
    at: number,
  ): number {
    const d = this.#streamDraws();
    const base = this.#base;
    const width = this.#width;
    const shift = at - from;
    let t = startMs;
    let h = from;
    // Each pass ends a chunk of draws (or the run): at most one pass per DRAW_CHUNK heights.
    while (h < heightEnd) {
      if (h > d.heights) d.drawTo(h);
      const i = h - 1;
      const draws = present(d.chunks[i >> DRAW_CHUNK_BITS], DRAWN);
      const stop = Math.min(heightEnd, h + DRAW_CHUNK - (i & DRAW_CHUNK_MASK));
      for (let k = 2 * (i & DRAW_CHUNK_MASK); h < stop; h++, k += 2) {
        t += base + Math.floor((draws[k] as number) * width);
        if (t >= limitMs) return h - from;
        out[shift + h] = t;
      }
    }
    return h - from;
  }

  #streamDraws(): StreamDraws {
    this.#draws ??= drawsOf(this.#seed);
    return this.#draws;
  }

  #computeTo(h: number): void {
    const model = this.#model;
    assert(model.kind !== "drift", "only a stream model memoises its intervals");
    const d = this.#streamDraws();
    d.drawTo(h);
    const target = Math.min(d.heights, Math.max(h, 2 * this.#computed));
    if (this.#intervals === undefined || target > this.#intervals.length) {
      const grown = new Float64Array(Math.max(target, DRAW_CHUNK));
      if (this.#intervals !== undefined) grown.set(this.#intervals.subarray(0, this.#computed));
      this.#intervals = grown;
    }
    for (let i = this.#computed; i < target; i++) this.#intervals[i] = sampleInterval(model, d.u1(i + 1), d.u2(i + 1));
    this.#computed = target;
  }

  /**
   * The source as plain data: its seed and model, which determine every interval (the draws and a normal model's
   * memo are caches, rebuilt or shared on demand).
   */
  snapshot(): BlockTimeSnapshot {
    return { seed: this.#seed, model: this.#model };
  }

  static fromSnapshot(snap: BlockTimeSnapshot): BlockTimeSource {
    return new BlockTimeSource(snap.seed, snap.model);
  }
}

/** The models drawn from the seed's alea stream, two draws per height (a drift model draws by counter). */
export type StreamModel = Exclude<BlockTimeModel, DriftBlockTime>;

/** One interval from two uniforms in [0, 1). Pure. */
export function sampleInterval(model: StreamModel, u1: number, u2: number): number {
  switch (model.kind) {
    case "fixed":
      return model.intervalMs;
    case "uniform":
      return model.minMs + Math.floor(u1 * (model.maxMs - model.minMs + 1));
    case "normal": {
      // Box–Muller with 1 - u1 in (0, 1], then clipped (not rejected) so each height uses exactly two draws.
      const z = Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
      const v = Math.round(model.meanMs + z * model.stddevMs);
      const lo = Math.max(1, model.minMs);
      const hi = model.maxMs ?? Number.POSITIVE_INFINITY;
      return Math.min(hi, Math.max(lo, v));
    }
  }
}

/** Mean interval of a model in ms (ignoring clipping for the normal model). */
export function meanInterval(model: BlockTimeModel): number {
  switch (model.kind) {
    case "fixed":
      return model.intervalMs;
    case "uniform":
      return (model.minMs + model.maxMs) / 2;
    case "normal":
      return model.meanMs;
    case "drift":
      return driftMeanInterval(model);
  }
}
