/**
 * Block-time histories for the fit's tests and the planner's backtest: a whole chain's block times drawn from a
 * model, and the samples `chainsim import` would read from it (the sampling plan of docs/profile-format.md: the
 * last hour whole, and a page of 20 consecutive headers every 10 minutes of chain time over the window).
 */
import { type BlockTimeModel, BlockTimeSource } from "../../src/chain/block-time.js";
import type { BlockTimeSample } from "../../src/chain/block-time-fit.js";

/** The times of heights `from` … `from + count − 1` (block `from − 1` at `startMs`), drawn by the engine's source. */
export function drawTimes(seed: number, model: BlockTimeModel, from: number, count: number, startMs: number) {
  const out = new Float64Array(count);
  const n = new BlockTimeSource(seed, model).idleTimes(from, from + count, startMs, Number.POSITIVE_INFINITY, out, 0);
  if (n !== count) throw new Error("drawTimes: fewer blocks than asked");
  return out;
}

const PAGE = 20;
const HOUR_MS = 3_600_000;

/**
 * The importer's samples of a history: `times[i]` is the time of height `first + i`. The last hour whole, and one
 * page of 20 consecutive headers every `spacingMs` of chain time before it (spaced evenly in height).
 */
export function importerSamples(times: Float64Array, first: number, spacingMs = 600_000): BlockTimeSample[] {
  const n = times.length;
  const lastMs = times[n - 1] as number;
  let hourStart = n - 1;
  while (hourStart > 0 && (times[hourStart] as number) > lastMs - HOUR_MS) hourStart--;
  const meanMs = (lastMs - (times[0] as number)) / Math.max(1, n - 1);
  const step = Math.max(PAGE, Math.round(spacingMs / meanMs));
  const out: BlockTimeSample[] = [];
  for (let i = 0; i + PAGE <= hourStart; i += step)
    for (let j = i; j < i + PAGE; j++) out.push({ height: first + j, timeMs: times[j] as number });
  const from = Math.max(hourStart, out.length === 0 ? 0 : (out[out.length - 1] as BlockTimeSample).height - first + 1);
  for (let j = from; j < n; j++) out.push({ height: first + j, timeMs: times[j] as number });
  return out;
}
