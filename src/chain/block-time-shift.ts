import type { DurationMs } from "../core/brand.js";
import { type BlockTimeModel, type BlockTimeSnapshot, BlockTimeSource } from "./block-time.js";

/**
 * The block times of a chain that starts at a later height (CometBFT's `initial_height`; a scenario `from:` a
 * profile): for a model drawn from height 1 on, block `base + k` takes the interval a chain from height 1 gives block `k`. So the first simulated block
 * draws first, whatever the imported height, and a chain at height 20,000,000 costs no draws for the blocks it never
 * simulates. With `base` 0 the engine uses the `BlockTimeSource` itself (existing traces are unchanged).
 */
export type ChainBlockTimes = Pick<BlockTimeSource, "model" | "interval" | "idleTimes" | "snapshot">;

class ShiftedBlockTimes implements ChainBlockTimes {
  readonly #inner: BlockTimeSource;
  readonly #base: number;

  constructor(inner: BlockTimeSource, base: number) {
    this.#inner = inner;
    this.#base = base;
  }

  get model(): BlockTimeModel {
    return this.#inner.model;
  }

  interval(h: number): DurationMs {
    return this.#inner.interval(h - this.#base);
  }

  idleTimes(from: number, heightEnd: number, startMs: number, limitMs: number, out: Float64Array, at: number): number {
    return this.#inner.idleTimes(from - this.#base, heightEnd - this.#base, startMs, limitMs, out, at);
  }

  snapshot(): BlockTimeSnapshot {
    return this.#inner.snapshot();
  }
}

/**
 * The block times of a chain whose first block is `base + 1`, from a source's snapshot (seed and model), by kind:
 * - fixed: every block the same interval; nothing to shift.
 * - uniform, normal: drawn from the seed's stream from height 1 on, so shifted: block `base + k` draws k.
 * - drift: anchored at an absolute height (its anchor, where `chainsim import` read the chain) and counter-based per
 *   height and per segment after the anchor, so read at absolute heights, never shifted: block `base + k` of a chain
 *   `from:` a profile anchored at `base` is the model's block `base + k`, the one the planner (explore/plan-height.ts)
 *   draws for the same seed.
 */
export function chainBlockTimes(snap: BlockTimeSnapshot, base: number): ChainBlockTimes {
  const source = BlockTimeSource.fromSnapshot(snap);
  const drawnFromOne = snap.model.kind === "uniform" || snap.model.kind === "normal";
  return base === 0 || !drawnFromOne ? source : new ShiftedBlockTimes(source, base);
}
