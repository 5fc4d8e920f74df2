import seedrandom from "seedrandom";

/**
 * Seeded random streams. One stream per subsystem (block times, workload, faults, ...), each derived from the run
 * seed and the subsystem's name, so that adding draws to one subsystem never shifts another. Backed by
 * seedrandom's alea (the user's choice), whose state can be captured and restored for cheap simulation copies.
 */
export interface RandomStream {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** Writes the next `to - from` draws to `out[from]` … `out[to - 1]`, exactly as that many `next()` calls would. */
  fill(out: Float64Array, from: number, to: number): void;
  /** Opaque, JSON-serialisable state for `restoreStream`. */
  state(): StreamState;
}

export interface StreamState {
  readonly key: string;
  readonly alea: seedrandom.State.Alea;
}

/**
 * Alea (Baagøe), stepped here rather than through seedrandom's closure: the block-time source draws two numbers
 * per block, hundreds of thousands per run. seedrandom still seeds it (its `mash`) and the state has seedrandom's
 * shape, so draws and states are exactly seedrandom's (random.test.ts compares them draw for draw).
 */
class AleaStream implements RandomStream {
  readonly #key: string;
  #c: number;
  #s0: number;
  #s1: number;
  #s2: number;
  constructor(key: string, state: seedrandom.State.Alea | true) {
    this.#key = key;
    const s = state === true ? seedrandom.alea(key, { state: true }).state() : state;
    this.#c = s.c;
    this.#s0 = s.s0;
    this.#s1 = s.s1;
    this.#s2 = s.s2;
  }
  next(): number {
    const t = 2091639 * this.#s0 + this.#c * 2.3283064365386963e-10; // 2^-32
    this.#s0 = this.#s1;
    this.#s1 = this.#s2;
    this.#c = t | 0;
    this.#s2 = t - this.#c;
    return this.#s2;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  fill(out: Float64Array, from: number, to: number): void {
    let c = this.#c;
    let s0 = this.#s0;
    let s1 = this.#s1;
    let s2 = this.#s2;
    for (let i = from; i < to; i++) {
      const t = 2091639 * s0 + c * 2.3283064365386963e-10;
      s0 = s1;
      s1 = s2;
      c = t | 0;
      s2 = t - c;
      out[i] = s2;
    }
    this.#c = c;
    this.#s0 = s0;
    this.#s1 = s1;
    this.#s2 = s2;
  }
  state(): StreamState {
    return { key: this.#key, alea: { c: this.#c, s0: this.#s0, s1: this.#s1, s2: this.#s2 } };
  }
}

/** The stream for `subsystem` under `seed`. Seeds are always passed to seedrandom as strings. */
export const streamFor = (seed: number, subsystem: string): RandomStream =>
  new AleaStream(`${seed}/${subsystem}`, true);

export const restoreStream = (s: StreamState): RandomStream => new AleaStream(s.key, { ...s.alea });

/**
 * A counter-based generator: `counterU32(key, i)` is a pure function of (key, i), so the i-th draw costs the same
 * whatever was drawn before and nothing is computed from index 0. Used where draws must be addressable by height
 * without walking a stream from height 1 (the `drift` block-time model anchored at a live chain's height). The
 * mixer is Wellons' lowbias32 applied twice, with the index's high word folded in for indexes beyond 2^32.
 */
export interface CounterKey {
  readonly k0: number;
  readonly k1: number;
}

/** 2^32 / φ, the high word's multiplier. */
export const GOLDEN = 0x9e3779b9;

/** The key of `subsystem` under `seed`: two words from the alea stream `<seed>/<subsystem>`. */
export function counterKey(seed: number, subsystem: string): CounterKey {
  const s = streamFor(seed, subsystem);
  return { k0: Math.floor(s.next() * 4294967296) | 0, k1: Math.floor(s.next() * 4294967296) | 0 };
}

/** Wellons' lowbias32: a bijective mix of a 32-bit word, returned as a signed int32 (the same bits; `>>> 0` reads it unsigned). */
export function mix32(v: number): number {
  let x = v | 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  return x ^ (x >>> 16);
}

/** A uniform 32-bit unsigned integer for index `i` (an integer in [0, 2^53)). Pure. */
export function counterU32(key: CounterKey, i: number): number {
  const lo = i >>> 0;
  const hi = Math.floor(i / 4294967296) >>> 0;
  return mix32(mix32(lo ^ key.k0) ^ Math.imul(hi + 1, GOLDEN) ^ key.k1) >>> 0;
}

/** A uniform in (0, 1) for index `i`: never 0, so `Math.log(u)` is finite. Pure. */
export const counterUniform = (key: CounterKey, i: number): number => (counterU32(key, i) + 0.5) / 4294967296;
