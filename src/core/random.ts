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
  /** Opaque, JSON-serialisable state for `restoreStream`. */
  state(): StreamState;
}

export interface StreamState {
  readonly key: string;
  readonly alea: seedrandom.State.Alea;
}

class AleaStream implements RandomStream {
  readonly #key: string;
  readonly #prng: seedrandom.StatefulPRNG<seedrandom.State.Alea>;
  constructor(key: string, state: seedrandom.State.Alea | true) {
    this.#key = key;
    this.#prng = seedrandom.alea(key, { state });
  }
  next(): number {
    return this.#prng();
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.#prng() * (max - min + 1));
  }
  state(): StreamState {
    return { key: this.#key, alea: this.#prng.state() };
  }
}

/** The stream for `subsystem` under `seed`. Seeds are always passed to seedrandom as strings. */
export const streamFor = (seed: number, subsystem: string): RandomStream =>
  new AleaStream(`${seed}/${subsystem}`, true);

export const restoreStream = (s: StreamState): RandomStream => new AleaStream(s.key, { ...s.alea });
