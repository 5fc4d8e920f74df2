/**
 * TEMPORARY ADAPTER — replace with `fitBlockTimes` from src/chain/block-time-fit.ts once branch wt/drift lands it
 * (same signature and result shape; then delete this file and change the one import in ./import.ts).
 *
 * Until then the "fit" is the plain means: the mean block time over the last hour, the last day and the whole window
 * (time between the first sample inside each span and the last sample, over the blocks between them), the standard
 * deviation of single-block intervals (consecutive samples), and a `{mean, stddev}` (normal) `chain.blockTime` with
 * the window's mean. It models no drift.
 */

import { err, ok, type Result } from "../core/errors.js";
import { formatDurationNs } from "../core/go/duration.js";

interface Sample {
  readonly height: number;
  readonly timeMs: number;
}

export interface BlockTimeFitResult {
  /** The `chain.blockTime` value as a scenario file writes it. */
  readonly document: string | Readonly<Record<string, string>>;
  readonly meanBlockTime: { readonly lastHourMs: number; readonly lastDayMs: number; readonly windowMs: number };
  readonly hourlyMs: readonly number[];
  readonly fit: Readonly<Record<string, number>>;
}

/** A duration string of fractional milliseconds (to the microsecond). */
export const durationText = (ms: number): string => formatDurationNs(BigInt(Math.round(ms * 1_000)) * 1_000n);

/** Mean ms per block from the first sample at or after `sinceMs` to the last sample. */
function meanSince(samples: readonly Sample[], sinceMs: number): number {
  const last = samples[samples.length - 1]!;
  let i = samples.findIndex((s) => s.timeMs >= sinceMs);
  if (i < 0 || i === samples.length - 1) i = Math.max(0, samples.length - 2);
  const first = samples[i]!;
  return (last.timeMs - first.timeMs) / (last.height - first.height);
}

export function fitBlockTimes(samples: readonly Sample[]): Result<BlockTimeFitResult, string> {
  if (samples.length < 2) return err("at least two samples are needed");
  const last = samples[samples.length - 1]!;
  const windowMs = meanSince(samples, Number.NEGATIVE_INFINITY);
  const intervals: number[] = [];
  for (let i = 1; i < samples.length; i++)
    if (samples[i]!.height === samples[i - 1]!.height + 1) intervals.push(samples[i]!.timeMs - samples[i - 1]!.timeMs);
  const mean = intervals.length === 0 ? windowMs : intervals.reduce((a, b) => a + b, 0) / intervals.length;
  const variance =
    intervals.length < 2 ? 0 : intervals.reduce((a, b) => a + (b - mean) ** 2, 0) / (intervals.length - 1);
  const stddevMs = Math.sqrt(variance);
  return ok({
    document: { mean: durationText(windowMs), stddev: durationText(stddevMs) },
    meanBlockTime: {
      lastHourMs: meanSince(samples, last.timeMs - 3_600_000),
      lastDayMs: meanSince(samples, last.timeMs - 86_400_000),
      windowMs,
    },
    hourlyMs: [],
    fit: { intervals: intervals.length, stddevMs },
  });
}
