import { present } from "../core/assert.js";
import type { DurationMs } from "../core/brand.js";
import { type RandomStream, restoreStream, type StreamState, streamFor } from "../core/random.js";

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
    };

/** A block-time source as plain data (see `BlockTimeSource.snapshot`). */
export interface BlockTimeSnapshot {
  readonly model: BlockTimeModel;
  readonly stream: StreamState;
  /** interval(h) for h = 1..drawn. */
  readonly intervals: Float64Array;
  readonly drawn: number;
}

/**
 * The block-interval source. Contract: `interval(h)` depends only on (seed, model, h). It is backed by a dedicated
 * alea stream that is consumed exactly twice per height, in height order, and memoised, so retries and the rest of
 * the simulation never shift it, and adding a proposal to a scenario never changes its block times.
 */
export class BlockTimeSource {
  readonly #model: BlockTimeModel;
  readonly #stream: RandomStream;
  /** intervals[h - 1] = interval(h) for every height drawn so far. */
  #intervals: Float64Array;
  #drawn = 0;

  constructor(
    seed: number,
    model: BlockTimeModel,
    state?: { stream: StreamState; intervals: Float64Array; drawn: number },
  ) {
    this.#model = model;
    this.#stream = state ? restoreStream(state.stream) : streamFor(seed, "blockTime");
    this.#intervals = state ? state.intervals.slice() : new Float64Array(1024);
    this.#drawn = state?.drawn ?? 0;
  }

  get model(): BlockTimeModel {
    return this.#model;
  }

  /** The interval before block `h` (h ≥ 1), in ms. */
  interval(h: number): DurationMs {
    while (this.#drawn < h) this.#drawNext();
    return present(this.#intervals[h - 1], "intervals are drawn up to h") as DurationMs;
  }

  #drawNext(): void {
    const u1 = this.#stream.next();
    const u2 = this.#stream.next();
    if (this.#drawn === this.#intervals.length) {
      const grown = new Float64Array(this.#intervals.length * 2);
      grown.set(this.#intervals);
      this.#intervals = grown;
    }
    this.#intervals[this.#drawn++] = sampleInterval(this.#model, u1, u2);
  }

  /** The source as plain data: the model, the stream's state and the intervals drawn so far. */
  snapshot(): BlockTimeSnapshot {
    return {
      model: this.#model,
      stream: this.#stream.state(),
      intervals: this.#intervals.slice(0, this.#drawn),
      drawn: this.#drawn,
    };
  }

  static fromSnapshot(snap: BlockTimeSnapshot): BlockTimeSource {
    const intervals = new Float64Array(Math.max(1024, 2 ** Math.ceil(Math.log2(snap.drawn + 1))));
    intervals.set(snap.intervals);
    return new BlockTimeSource(0, snap.model, { stream: snap.stream, intervals, drawn: snap.drawn });
  }
}

/** One interval from two uniforms in [0, 1). Pure. */
export function sampleInterval(model: BlockTimeModel, u1: number, u2: number): number {
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
  }
}
