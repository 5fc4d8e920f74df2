/**
 * Counter-based draws for the operator model (docs/scenario-format.md §2.4). A draw is a pure function of the run's
 * seed, the node, the purpose and two counters: the episode (the halt height in a run, the trial index in
 * `explore halt-recovery`) and the attempt within it. No stream is consumed, so adding a step or a purpose never
 * shifts another draw, as block times are indexed by height (block-time.ts).
 *
 * The mixer is MurmurHash3's 32-bit finaliser over an FNV-1a hash of the key (a counter-based generator in the
 * manner of Philox/Threefry, much simpler): good enough for Monte Carlo, not for cryptography.
 */

export type DrawPurpose =
  | "detect"
  | "backup"
  | "download"
  | "download-failure"
  | "pre-upgrade"
  | "absent"
  | "reaction"
  | "wrong-binary"
  | "early"
  | "early-lead"
  | "fix-reaction";

function fmix32(h0: number): number {
  let h = h0 >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** The draws of one node under one seed. */
export class OperatorDraws {
  readonly #keys = new Map<DrawPurpose, number>();
  readonly #prefix: string;

  constructor(seed: number, node: string, stream = "") {
    this.#prefix = `${seed}/operator/${node}/${stream}`;
  }

  /** The draws of a separate stream of the same node (a staged upgrade's sequence: its own detect, backup, ...). */
  stream(name: string): OperatorDraws {
    return new OperatorDraws(0, "", `${this.#prefix}${name}/`);
  }

  #key(purpose: DrawPurpose): number {
    let k = this.#keys.get(purpose);
    if (k === undefined) {
      k = hashString(this.#prefix + purpose);
      this.#keys.set(purpose, k);
    }
    return k;
  }

  /** Uniform in [0, 1): the draw for `purpose` in episode `episode` (a non-negative integer), attempt `attempt`. */
  uniform(purpose: DrawPurpose, episode: number, attempt: number): number {
    const lo = episode >>> 0;
    const hi = Math.floor(episode / 4294967296) >>> 0;
    let h = fmix32(this.#key(purpose) ^ fmix32(lo + 0x9e3779b9));
    h = fmix32(h ^ fmix32(hi ^ Math.imul(attempt + 1, 0x27d4eb2d)));
    const h2 = fmix32(h ^ 0x5bd1e995);
    return (h * 2097152 + (h2 >>> 11)) / 9007199254740992;
  }
}
