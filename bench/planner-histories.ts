/**
 * Block-time histories for the planner's backtest (docs/block-time-model.md §4). They are NOT drawn from the drift
 * model the planner fits (that would make the test circular): each is its own generator, per block, from a seeded
 * alea stream.
 * - `daily`: a sinusoidal daily cycle of the mean (3–10%, random peak hour);
 * - `shift`: a slowdown after an upgrade (+5–25%, with a 2-hour +30% transient) somewhere in the last 4 days of the
 *   past week or in the future two weeks, plus validator-set changes: lasting jumps of ±8% (log sd) at 1 per 5 days;
 * - `outage`: stalls at 2 per week, log-normal length (median 15 min, log sd 1: minutes to hours);
 * - `wander`: a random walk of the log mean (0.8% per hour, not mean-reverting) plus a 4–9-day swell of 4%;
 * - `mixed`: all four at reduced strength.
 * Every block also has a log-normal jitter of 15%.
 */
import { streamFor } from "../src/core/random.js";

export const GENERATORS = ["daily", "shift", "outage", "wander", "mixed"] as const;
export type Generator = (typeof GENERATORS)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface History {
  /** times[i]: the time of height first + i. */
  readonly times: Float64Array;
  readonly first: number;
  /**
   * The generator's own state, for the oracle (never shown to the planner): logLevel[i] is the random part of block
   * i's log mean, the validator-set jumps, the walk and a past upgrade (not the cycle, the swell, the upgrade's
   * 2-hour transient or the jitter); `law` the deterministic parts.
   */
  readonly logLevel: Float32Array;
  readonly law: {
    readonly baseMs: number;
    readonly amp: number;
    readonly peakMs: number;
    readonly stallMs: number;
    /** The swell: log amplitude, period and phase. */
    readonly swell: number;
    readonly swellPeriodMs: number;
    readonly swellPhase: number;
  };
}

/** The mean length of a stall (log-normal, median 15 min, log sd 1). */
const STALL_MEAN_MS = 15 * 60_000 * Math.exp(0.5);

/** A generator's chain: `days` days of blocks from height `first` at `startMs`. */
export function history(kind: Generator, seed: number, days: number, first: number, startMs: number): History {
  const r = streamFor(seed, `backtest/${kind}`);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - r.next())) * Math.cos(2 * Math.PI * r.next());
  const on = (k: Generator): number => (kind === k ? 1 : kind === "mixed" ? 0.6 : 0);
  const base = 5500 + 1000 * r.next();
  const amp = on("daily") * (0.03 + 0.07 * r.next());
  const peak = r.next() * DAY_MS;
  // The upgrade slowdown: from day 3 (in the past week) to day 21 (the end of the future).
  const upgradeAt = startMs + (3 + 18 * r.next()) * DAY_MS;
  const upgrade = on("shift") * Math.log(1.05 + 0.2 * r.next());
  const swellPeriod = (4 + 5 * r.next()) * DAY_MS;
  const swellPhase = r.next() * 2 * Math.PI;
  const endMs = startMs + days * DAY_MS;
  const out: number[] = [];
  const logLevel: number[] = [];
  let t = startMs;
  let level = 0;
  let walk = 0;
  let nextHour = startMs + HOUR_MS;
  for (let i = 0; t < endMs && i < 10_000_000; i++) {
    if (t >= nextHour) {
      nextHour += HOUR_MS;
      walk += on("wander") * 0.008 * normal();
      if (on("shift") > 0 && r.next() < 1 / (5 * 24)) level += on("shift") * 0.08 * normal();
    }
    const cycle = amp * Math.sin((2 * Math.PI * (t - peak)) / DAY_MS);
    const swell = on("wander") * 0.04 * Math.sin((2 * Math.PI * t) / swellPeriod + swellPhase);
    const up = t >= upgradeAt ? upgrade + (t < upgradeAt + 2 * HOUR_MS ? on("shift") * 0.3 : 0) : 0;
    logLevel.push(level + walk + (t >= upgradeAt ? upgrade : 0));
    let ms = base * Math.exp(level + walk + cycle + swell + up + 0.15 * normal() - 0.15 ** 2 / 2);
    if (on("outage") > 0 && r.next() < (on("outage") * 2 * base) / (7 * DAY_MS)) ms += 15 * 60_000 * Math.exp(normal());
    t += Math.max(1, Math.round(ms));
    out.push(t);
  }
  const stallMs = (on("outage") * 2 * base * STALL_MEAN_MS) / (7 * DAY_MS);
  return {
    times: Float64Array.from(out),
    first,
    logLevel: Float32Array.from(logLevel),
    law: {
      baseMs: base,
      amp,
      peakMs: peak,
      stallMs,
      swell: on("wander") * 0.04,
      swellPeriodMs: swellPeriod,
      swellPhase,
    },
  };
}

/**
 * The oracle's time for `blocks` blocks after block `now`: it knows the generator's law (the base, the daily cycle,
 * the swell's period and phase, the stalls' rate and length) and its exact current state (logLevel[now]: the jumps,
 * the walk, a past upgrade) but not the future's random steps, so it holds that state where it is (the best forecast
 * of a random walk and of zero-mean jumps), follows the deterministic parts and adds the stalls' expected share,
 * minute by minute. No estimator that learns the chain from its past can know more than this; its error is the part
 * of the future nobody can see (a future upgrade, future jumps and walk steps, the jitter and stalls).
 */
export function oracleTime(h: History, now: number, blocks: number): number {
  const { baseMs, amp, peakMs, stallMs, swell, swellPeriodMs, swellPhase } = h.law;
  const m = baseMs * Math.exp(h.logLevel[now] as number);
  const stepMs = 60_000;
  let t = h.times[now] as number;
  let left = blocks;
  for (let i = 0; i < 10_000_000 && left > 0; i++) {
    const mid = t + stepMs / 2;
    const cycle = amp * Math.sin((2 * Math.PI * (mid - peakMs)) / DAY_MS);
    const sw = swell * Math.sin((2 * Math.PI * mid) / swellPeriodMs + swellPhase);
    const interval = m * Math.exp(cycle + sw) + stallMs;
    const k = stepMs / interval;
    if (k >= left) return t + left * interval;
    left -= k;
    t += stepMs;
  }
  return t;
}

/** The index of the last block at or before `timeMs` (−1 if none). */
export function indexAt(times: Float64Array, timeMs: number): number {
  let lo = -1;
  let hi = times.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] as number) <= timeMs) lo = mid;
    else hi = mid;
  }
  return lo;
}
