/**
 * The `drift` block-time model (docs/block-time-model.md): a chain's local mean block time wanders, so over days the
 * error of a height forecast comes from the drift of the mean, not from the spread of single blocks.
 *
 * The model, per segment of `segmentBlocks` blocks after the anchor (segment s holds heights
 * anchor + s·L + 1 … anchor + (s + 1)·L; heights at or below the anchor belong to segment 0):
 * 1. a regime level λ_s (log ms): λ_{-1} = ln(meanMs); with probability `shifts.rate` per segment it jumps by
 *    N(0, shifts.size²) and stays there (a slowdown after an upgrade, a validator-set change);
 * 2. a deviation d_s = φ·d_{s-1} + σ·N(0, 1) (AR(1), φ = `persistence`, σ = `wander`), d_{-1} = ln(rateMs/meanMs):
 *    the anchor's recent rate decays towards the level;
 * 3. a daily cycle c_s = A·cos(2π(τ_s − peak)/day), τ_s the UTC time of day of the segment's middle on the expected
 *    path (anchor time plus the expected durations of the segments before, stalls counted at their mean:
 *    deterministic, no block draw in it);
 * 4. the segment's local mean m_s = exp(λ_s + d_s + c_s);
 * 5. per block h: m_s × (1 + jitter·√6·(u1 + u2 − 1)) (a triangular factor of mean 1 and coefficient of variation
 *    `jitter`; u1, u2 the two 16-bit halves of the block's word x = counterU32(h)), plus, with probability
 *    `outages.rate`, an exponential stall of mean `outages.meanMs` (its uniform from a second mix of x under its
 *    own key); rounded half up to whole ms, at least 1.
 *
 * Contract: every draw is counter-based (core/random.ts `counterU32`) from (seed, h) for blocks and (seed, s) for
 * segments, so interval(h) depends only on (seed, model, h) and nothing is computed from height 1: a model anchored
 * at height 20,000,000 costs the segments between its anchor and h, never the heights below.
 */
import { assert } from "../core/assert.js";
import { formatDurationNs } from "../core/go/duration.js";
import { formatRfc3339 } from "../core/go/time.js";
import { type CounterKey, counterKey, counterU32, counterUniform, GOLDEN, mix32 } from "../core/random.js";

export interface DriftBlockTime {
  readonly kind: "drift";
  /** The long-run mean local block time of the current regime, in ms (fractional allowed). */
  readonly meanMs: number;
  /** Where the model's state is known: a height, its time, and the local mean there (daily cycle removed), ms. */
  readonly anchor: { readonly height: number; readonly timeMs: number; readonly rateMs: number };
  /** Blocks per segment (the mean's step), ≥ 1. */
  readonly segmentBlocks: number;
  /** AR(1) coefficient per segment, in [0, 1). */
  readonly persistence: number;
  /** Standard deviation of the log mean's innovation per segment, ≥ 0. */
  readonly wander: number;
  /** Daily cycle: amplitude on the log mean, and the UTC time of day (ms after midnight) of the slowest blocks. */
  readonly daily: { readonly amplitude: number; readonly peakMs: number };
  /** Regime shifts: probability per segment, standard deviation of the log jump. */
  readonly shifts: { readonly rate: number; readonly size: number };
  /** Outages: probability per block of a stall, and the stall's mean length in ms. */
  readonly outages: { readonly rate: number; readonly meanMs: number };
  /** Coefficient of variation of a single block around its segment's mean, in [0, 0.4]. */
  readonly jitter: number;
  /**
   * The fit's sampling uncertainty, drawn once per seed (a parametric bootstrap): the level ln(meanMs) moves by
   * N(0, level²), ln(1 − persistence) by N(0, persistence²) (at most PERSISTENCE_DRAW_MAX) and the wander is
   * multiplied by exp(N(0, wander²)). Absent: every seed uses the point estimates.
   */
  readonly uncertainty?: DriftUncertainty;
}

/** Standard deviations of the parameters' sampling distribution (see DriftBlockTime.uncertainty). */
export interface DriftUncertainty {
  readonly level: number;
  readonly persistence: number;
  readonly wander: number;
}

/** A drawn persistence stays at or below this: a half-life of about 7,000 segments, a random walk over weeks. */
export const PERSISTENCE_DRAW_MAX = 0.9999;

export const DAY_MS = 86_400_000;
const SQRT6 = Math.sqrt(6);
/** counterU32's high-word term for indexes below 2^32. */
const HI0 = Math.imul(1, GOLDEN);
/** Segments a path computes at most: ~ 1,000 years of hourly segments, far beyond any horizon asked. */
const SEGMENTS_MAX = 10_000_000;

/** Checks a model's invariants (the schema enforces them for files; code that builds models directly is held here). */
export function assertDrift(m: DriftBlockTime): void {
  assert(m.meanMs > 0 && m.anchor.rateMs > 0, "drift: positive means");
  assert(Number.isInteger(m.segmentBlocks) && m.segmentBlocks >= 1, "drift: segmentBlocks is an integer ≥ 1");
  assert(m.persistence >= 0 && m.persistence < 1, "drift: persistence in [0, 1)");
  assert(m.wander >= 0 && m.shifts.size >= 0 && m.daily.amplitude >= 0, "drift: non-negative spreads");
  assert(m.shifts.rate >= 0 && m.shifts.rate <= 1 && m.outages.rate >= 0 && m.outages.rate <= 1, "drift: rates");
  assert(m.jitter >= 0 && m.jitter <= 0.4, "drift: jitter in [0, 0.4]");
  const u = m.uncertainty;
  assert(u === undefined || (u.level >= 0 && u.persistence >= 0 && u.wander >= 0), "drift: non-negative uncertainty");
}

/**
 * One block's interval from its 32-bit word `x` (two 16-bit uniforms: the triangular jitter factor, mean 1) and, when
 * the model has stalls (`stallU32` > 0: the stall probability × 2^32), a second word from `x` under the key `k2`
 * (half a lowbias32 round: a stall is rare, its word needs no more): below `stallU32` it is a stall of exponential
 * length, mean `stallMs`. Rounded half up to whole ms, at least 1.
 */
function drawInterval(meanMs: number, x: number, k2: number, jit: number, stallU32: number, stallMs: number): number {
  const tri = ((x >>> 16) + (x & 0xffff) + 1) / 65536 - 1; // u1 + u2 − 1, u_i = (16-bit + 0.5) / 2^16
  let v = meanMs * (1 + jit * tri);
  if (stallU32 > 0) {
    const m = Math.imul(x ^ k2, 0x7feb352d);
    const y = (m ^ (m >>> 15)) >>> 0;
    if (y < stallU32) v -= stallMs * Math.log((y + 0.5) / stallU32);
  }
  const r = Math.floor(v + 0.5);
  return r < 1 ? 1 : r;
}

/** A standard normal from two uniforms in (0, 1) (Box–Muller). */
const normal = (u1: number, u2: number): number => Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);

/**
 * The level (log ms), persistence and wander of one seed: the model's, or with `uncertainty` drawn from the seed's
 * own counter stream ("blockTime/drift/params", three normals), so the other draws are those of the point model.
 */
function drawParameters(seed: number, m: DriftBlockTime): SeedParameters {
  const level = Math.log(m.meanMs);
  const u = m.uncertainty;
  if (u === undefined) return { level, phi: m.persistence, sigma: m.wander };
  const k = counterKey(seed, "blockTime/drift/params");
  const z = (j: number): number => normal(counterUniform(k, 2 * j), counterUniform(k, 2 * j + 1));
  // On the scale of ln(1 − φ), where the draw keeps φ's median and stays below 1.
  const phi = Math.min(PERSISTENCE_DRAW_MAX, 1 - (1 - m.persistence) * Math.exp(u.persistence * z(1)));
  return { level: level + u.level * z(0), phi, sigma: m.wander * Math.exp(u.wander * z(2)) };
}

interface SeedParameters {
  readonly level: number;
  readonly phi: number;
  readonly sigma: number;
}

/**
 * The segment means of one (seed, model), computed in segment order from the anchor and memoised, and the per-block
 * draw. A pure function of (seed, model) in every observable way.
 */
export class DriftPath {
  readonly model: DriftBlockTime;
  /** The block draw's key; k2 keys the stall draw, a second mix of the block's word. */
  readonly blockKey: CounterKey & { readonly k2: number };
  readonly jitterScale: number;
  /** The stall probability × 2^32 (0: no stalls). */
  readonly stallU32: number;
  readonly stallMs: number;
  readonly #segmentKey: CounterKey;
  #means = new Float64Array(64);
  #computed = 0;
  #level: number;
  #dev: number;
  #startMs: number;
  /** This seed's persistence and wander (the model's, or drawn from its uncertainty). */
  readonly #phi: number;
  readonly #sigma: number;

  constructor(seed: number, model: DriftBlockTime) {
    assertDrift(model);
    this.model = model;
    const stall = counterKey(seed, "blockTime/drift/stall");
    this.blockKey = { ...counterKey(seed, "blockTime/drift/block"), k2: stall.k0 };
    this.jitterScale = model.jitter * SQRT6;
    this.stallU32 = model.outages.rate * 4294967296;
    this.stallMs = model.outages.meanMs;
    this.#segmentKey = counterKey(seed, "blockTime/drift/segment");
    const p = drawParameters(seed, model);
    this.#phi = p.phi;
    this.#sigma = p.sigma;
    this.#level = p.level;
    // The anchor's rate is measured: the path starts there whatever level it fades to (the point model keeps its
    // original expression, so its draws are bit for bit those of before the uncertainty).
    this.#dev =
      model.uncertainty === undefined
        ? Math.log(model.anchor.rateMs / model.meanMs)
        : Math.log(model.anchor.rateMs) - p.level;
    this.#startMs = model.anchor.timeMs;
  }

  /** The segment of height h. */
  segmentOf(h: number): number {
    const k = h - this.model.anchor.height - 1;
    return k < 0 ? 0 : Math.floor(k / this.model.segmentBlocks);
  }

  /** The first height after segment s. */
  segmentEnd(s: number): number {
    return this.model.anchor.height + (s + 1) * this.model.segmentBlocks + 1;
  }

  /** The local mean of segment s, in ms. */
  meanOf(s: number): number {
    if (s >= this.#computed) this.#computeTo(s);
    return this.#means[s] as number;
  }

  /** The interval of block h in a segment of local mean `meanMs`. */
  intervalIn(h: number, meanMs: number): number {
    const k = this.blockKey;
    const x = counterU32(k, h);
    return drawInterval(meanMs, x, k.k2, this.jitterScale, this.stallU32, this.stallMs);
  }

  /**
   * The times of blocks from..heightEnd−1 after `startMs`, below `limitMs`, into `out[at…]`; how many. The same
   * values as adding `intervalIn(h, meanOf(segmentOf(h)))` one by one (the same draw, inlined per segment for speed).
   */
  idleTimes(from: number, heightEnd: number, startMs: number, limitMs: number, out: Float64Array, at: number): number {
    const { k0, k1, k2 } = this.blockKey;
    const jit = this.jitterScale;
    const stallU32 = this.stallU32;
    const stallMs = this.stallMs;
    let t = startMs;
    let h = from;
    while (h < heightEnd) {
      const s = this.segmentOf(h);
      const mean = this.meanOf(s);
      const end = Math.min(heightEnd, this.segmentEnd(s));
      for (; h < end; h++) {
        const hiKey = h < 4294967296 ? HI0 ^ k1 : Math.imul(Math.floor(h / 4294967296) + 1, GOLDEN) ^ k1;
        const x = mix32(mix32((h >>> 0) ^ k0) ^ hiKey);
        t += drawInterval(mean, x, k2, jit, stallU32, stallMs);
        if (t >= limitMs) return h - from;
        out[at + h - from] = t;
      }
    }
    return h - from;
  }

  #computeTo(s: number): void {
    assert(s < SEGMENTS_MAX, "drift: a segment within SEGMENTS_MAX of the anchor");
    if (s >= this.#means.length) {
      const grown = new Float64Array(Math.max(s + 1, 2 * this.#means.length));
      grown.set(this.#means.subarray(0, this.#computed));
      this.#means = grown;
    }
    const m = this.model;
    const k = this.#segmentKey;
    for (let i = this.#computed; i <= s; i++) {
      const u = (j: number): number => counterUniform(k, 5 * i + j);
      if (m.shifts.rate > 0 && u(0) < m.shifts.rate) this.#level += m.shifts.size * normal(u(1), u(2));
      this.#dev = this.#phi * this.#dev + this.#sigma * normal(u(3), u(4));
      const base = Math.exp(this.#level + this.#dev);
      const tod = (((this.#startMs + (m.segmentBlocks * base) / 2) % DAY_MS) + DAY_MS) % DAY_MS;
      const cycle = m.daily.amplitude * Math.cos((2 * Math.PI * (tod - m.daily.peakMs)) / DAY_MS);
      const mean = base * Math.exp(cycle);
      this.#means[i] = mean;
      this.#startMs += m.segmentBlocks * (mean + m.outages.rate * m.outages.meanMs);
    }
    this.#computed = s + 1;
  }
}

/** The long-run mean interval of a drift model: the level's mean plus the outages' share (wander ignored). */
export const driftMeanInterval = (m: DriftBlockTime): number => m.meanMs + m.outages.rate * m.outages.meanMs;

/** A duration in ms (fractional) as a Go duration string to the nanosecond. */
export const driftDuration = (ms: number): string => formatDurationNs(BigInt(Math.round(ms * 1e6)));

/** A UTC time of day in ms as `HH:MM` (minutes rounded down). */
export function timeOfDay(ms: number): string {
  const minutes = Math.floor((((ms % DAY_MS) + DAY_MS) % DAY_MS) / 60_000);
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/**
 * The scenario file form (docs/scenario-format.md §2.2 `chain.blockTime`) of a drift model: `{drift: {...}}`, keys
 * with their default value left out. The scenario resolver reads it back to the same model (durations to the
 * nanosecond, the daily peak to the minute).
 */
export function driftDocument(m: DriftBlockTime): { drift: Record<string, unknown> } {
  return {
    drift: {
      mean: driftDuration(m.meanMs),
      anchor: { height: m.anchor.height, time: formatRfc3339(m.anchor.timeMs), rate: driftDuration(m.anchor.rateMs) },
      segmentBlocks: m.segmentBlocks,
      persistence: m.persistence,
      wander: m.wander,
      ...(m.daily.amplitude > 0 ? { daily: { amplitude: m.daily.amplitude, peak: timeOfDay(m.daily.peakMs) } } : {}),
      ...(m.shifts.rate > 0 ? { shifts: { rate: m.shifts.rate, size: m.shifts.size } } : {}),
      ...(m.outages.rate > 0 ? { outages: { rate: m.outages.rate, mean: driftDuration(m.outages.meanMs) } } : {}),
      jitter: m.jitter,
      ...(m.uncertainty === undefined ? {} : { uncertainty: { ...m.uncertainty } }),
    },
  };
}
