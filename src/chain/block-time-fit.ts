/**
 * Fits the `drift` block-time model (block-time-drift.ts, docs/block-time-model.md) to a chain's sampled history:
 * (height, time) pairs, sorted by height, possibly sparse and uneven (bursts of consecutive headers, the last hour
 * dense). The model is anchored at the last sample with the recent rate.
 *
 * Steps:
 * 1. Means: the window's, the last day's and the last hour's (interpolated heights at those times).
 * 2. Per-block jitter and outages from consecutive headers: an interval above `OUTAGE_FACTOR` × the median is a
 *    stall (exponential: its mean is the mean excess over the cut, its rate corrected for those below the cut);
 *    the coefficient of variation of the rest around their burst's mean is the jitter.
 * 3. Segments of about an hour of blocks counted back from the last sample; the log of each segment's mean
 *    (interpolated times at the segment bounds), isolated spikes (stalls between sampled pages) filtered out.
 * 4. The daily cycle: least squares of the log means on cos/sin of the time of day, kept when the amplitude stands
 *    above its standard error (with autocorrelation counted) and the window covers a day.
 * 5. Regime shifts: steps of the residuals' moving mean (before/after `SHIFT_WINDOW` segments) beyond
 *    `SHIFT_SIGMAS` robust deviations; the level is the mean since the last one.
 * 6. AR(1) on the residuals with the steps removed: persistence = lag-1 autocorrelation, wander = innovation sd.
 * 7. The anchor: the last sample, its rate the last hour's mean with the daily cycle removed.
 * 8. The parameters' sampling uncertainty (a week is a few independent looks at a day-long memory), which the model
 *    draws per seed: a parametric bootstrap that widens the planner's band.
 */
import { err, ok, type Result } from "../core/errors.js";
import type { BlockTimeModel } from "./block-time.js";
import { DAY_MS, type DriftBlockTime, type DriftUncertainty, driftDocument } from "./block-time-drift.js";
import { dailyCycle, despike, movingSteps } from "./fit-stats.js";

export interface BlockTimeSample {
  readonly height: number;
  readonly timeMs: number;
}

export interface BlockTimeFit {
  /** Always of kind "drift". */
  readonly model: BlockTimeModel;
  /** The chain.blockTime value as a scenario file writes it (`{drift: {...}}`). */
  readonly document: { drift: Record<string, unknown> };
  readonly meanBlockTime: { readonly lastHourMs: number; readonly lastDayMs: number; readonly windowMs: number };
  /** The mean block time of each whole hour of the window, oldest first, in ms. */
  readonly hourlyMs: number[];
  /** Diagnostics: named numbers (docs/block-time-model.md §2). */
  readonly fit: Record<string, number>;
}

const HOUR_MS = 3_600_000;
/** A consecutive interval above this multiple of the median is a stall (an outage), not jitter. */
const OUTAGE_FACTOR = 5;
const SHIFT_WINDOW = 6;
/** The Hampel filter of the segment series: ±3 segments, 4 robust deviations above. */
const SPIKE_HALF = 3;
const SPIKE_SIGMAS = 4;
const SHIFT_SIGMAS = 4;
/** Below this many consecutive intervals, the jitter and outages are not estimated. */
const CONSECUTIVE_MIN = 30;
const SAMPLES_MAX = 10_000_000;
/**
 * Regime shifts seen in a week are rare, so the rate adds one shift to the count (a prior: never seeing one in a
 * week does not make one unlikely in the next two; chains change validator sets and binaries), and a shift's size is
 * at least `SHIFT_SIZE_MIN` (5% on the mean).
 */
const SHIFT_PRIOR = 1;
/** The prior's shift is spread over at least a week of hourly segments (a short history is not a shift an hour). */
const PRIOR_SEGMENTS = 168;
const SHIFT_SIZE_MIN = 0.05;
/** Caps of the parameter uncertainty (step 8): 30% on the level, 2 on ln(1 − φ). */
const LEVEL_SE_MAX = 0.3;
const PERSISTENCE_SE_MAX = 2;

/** Piecewise-linear time at a height, and height at a time, over the samples. */
class Interp {
  readonly #h: Float64Array;
  readonly #t: Float64Array;
  constructor(samples: readonly BlockTimeSample[]) {
    this.#h = Float64Array.from(samples, (s) => s.height);
    this.#t = Float64Array.from(samples, (s) => s.timeMs);
  }
  timeAt(h: number): number {
    return lerp(this.#h, this.#t, h);
  }
  heightAt(t: number): number {
    return lerp(this.#t, this.#h, t);
  }
}

/** y at x on the polyline (xs ascending, clamped at both ends). */
function lerp(xs: Float64Array, ys: Float64Array, x: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  if (x <= (xs[0] as number)) return ys[0] as number;
  if (x >= (xs[hi] as number)) return ys[hi] as number;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((xs[mid] as number) <= x) lo = mid;
    else hi = mid;
  }
  const x0 = xs[lo] as number;
  const x1 = xs[hi] as number;
  const y0 = ys[lo] as number;
  const y1 = ys[hi] as number;
  return x1 === x0 ? y1 : y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}

function validate(samples: readonly BlockTimeSample[]): string | undefined {
  if (samples.length < 2) return `need at least 2 samples, got ${samples.length}`;
  if (samples.length > SAMPLES_MAX) return `at most ${SAMPLES_MAX} samples, got ${samples.length}`;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i] as BlockTimeSample;
    if (!Number.isSafeInteger(s.height) || s.height < 0) return `sample ${i}: height ${s.height} is not an integer ≥ 0`;
    if (!Number.isFinite(s.timeMs)) return `sample ${i}: time is not finite`;
    const p = samples[i - 1];
    if (p !== undefined && s.height <= p.height) return `sample ${i}: heights must increase (${p.height}, ${s.height})`;
    if (p !== undefined && s.timeMs < p.timeMs) return `sample ${i}: time goes backwards at height ${s.height}`;
  }
  const first = samples[0] as BlockTimeSample;
  const last = samples[samples.length - 1] as BlockTimeSample;
  if (last.timeMs <= first.timeMs) return "the samples span no time";
  return undefined;
}

/** Step 2: jitter (cv) and outages from runs of consecutive heights. */
function perBlock(samples: readonly BlockTimeSample[]): { jitter: number; rate: number; meanMs: number; n: number } {
  const runs: number[][] = [];
  let run: number[] = [];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1] as BlockTimeSample;
    const b = samples[i] as BlockTimeSample;
    if (b.height === a.height + 1) run.push(b.timeMs - a.timeMs);
    else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length > 0) runs.push(run);
  const all = runs.flat();
  if (all.length < CONSECUTIVE_MIN) return { jitter: 0, rate: 0, meanMs: 0, n: all.length };
  const median = [...all].sort((x, y) => x - y)[all.length >> 1] as number;
  const cut = OUTAGE_FACTOR * Math.max(1, median);
  let outages = 0;
  let excess = 0;
  let ss = 0;
  let dof = 0;
  for (const r of runs) {
    const ok = r.filter((x) => x <= cut);
    outages += r.length - ok.length;
    for (const x of r) if (x > cut) excess += x - cut;
    if (ok.length < 2) continue;
    const m = ok.reduce((s, x) => s + x, 0) / ok.length;
    for (const x of ok) ss += (x / m - 1) ** 2;
    dof += ok.length - 1;
  }
  const jitter = dof > 0 ? Math.min(0.4, Math.sqrt(ss / dof)) : 0;
  if (outages === 0) return { jitter, rate: 0, meanMs: 0, n: all.length };
  // Stalls are exponential: memoryless, so the excess over the cut has their mean, and only the share
  // exp(−(cut − median)/mean) of them exceeds the cut.
  const meanMs = excess / outages;
  const seen = Math.exp(-(cut - median) / meanMs);
  return { jitter, rate: Math.min(1, outages / all.length / seen), meanMs, n: all.length };
}

/** Step 1 and the hourly series. */
function means(ip: Interp, first: BlockTimeSample, last: BlockTimeSample) {
  const windowMs = (last.timeMs - first.timeMs) / (last.height - first.height);
  const over = (spanMs: number): number => {
    if (last.timeMs - spanMs <= first.timeMs) return windowMs;
    const blocks = last.height - ip.heightAt(last.timeMs - spanMs);
    return blocks > 0 ? spanMs / blocks : windowMs;
  };
  const hourlyMs: number[] = [];
  for (let t = first.timeMs; t + HOUR_MS <= last.timeMs; t += HOUR_MS) {
    const blocks = ip.heightAt(t + HOUR_MS) - ip.heightAt(t);
    hourlyMs.push(blocks > 0 ? Math.round((HOUR_MS / blocks) * 1000) / 1000 : HOUR_MS);
  }
  return { windowMs, lastHourMs: over(HOUR_MS), lastDayMs: over(DAY_MS), hourlyMs };
}

/**
 * Step 6: AR(1) of a series seen through white noise (the jitter's share of a segment mean, stalls between sampled
 * pages): the autocorrelations of an AR(1) plus noise are c·φ^k for k ≥ 1, so φ = ρ(2)/ρ(1) (at least ρ(1), with
 * Kendall's bias correction, at most 0.995), the AR variance γ(1)/φ (divided by the share a window of n sees,
 * 1 − (1 + φ)/(n(1 − φ)), at least 0.3), and the innovation sd √(var · (1 − φ²)).
 */
function ar1(e: readonly number[]): { phi: number; sigma: number; sd: number } {
  const n = e.length;
  if (n < 4) return { phi: 0, sigma: 0, sd: 0 };
  const mu = e.reduce((s, x) => s + x, 0) / n;
  const g = [0, 0, 0];
  for (let i = 0; i < n; i++)
    for (let k = 0; k < 3 && i - k >= 0; k++)
      g[k] = (g[k] as number) + ((e[i] as number) - mu) * ((e[i - k] as number) - mu);
  const [g0, g1, g2] = g.map((x) => x / n) as [number, number, number];
  if (g0 <= 0 || g1 <= 0) return { phi: 0, sigma: Math.sqrt(Math.max(0, g0)), sd: Math.sqrt(Math.max(0, g0)) };
  // Kendall's small-sample bias of the AR(1) estimate, −(1 + 3φ)/n, added back (a week is 168 segments).
  const raw = Math.max(g1 / g0, Math.min(1, g2 / g1));
  const phi = Math.min(0.995, raw + (1 + 3 * raw) / n);
  // A short window sees less than the stationary variance: E[sample var] ≈ var·(1 − (1 + φ)/(n(1 − φ))).
  const seen = Math.max(0.3, 1 - (1 + phi) / (n * (1 - phi)));
  const arVar = Math.min(g0, g1 / phi) / seen;
  return { phi, sigma: Math.sqrt(arVar * (1 - phi * phi)), sd: Math.sqrt(arVar) };
}

const round = (x: number, digits: number): number => Number(x.toFixed(digits));

/**
 * Step 8: the sampling uncertainty of the level, persistence and wander of an AR(1) fitted on `n` segments (`nLevel`
 * of them in the current regime), for the per-seed draw of block-time-drift.ts: the mean of an AR(1) has the variance
 * sd²·(1 + φ)/(n(1 − φ)) (at most 0.3 on the log); φ̂ has the asymptotic variance (1 − φ²)/n, at least 1/n² near 1
 * (where φ̂ − 1 is of order 1/n), taken to the scale of ln(1 − φ) by the delta method (÷ (1 − φ), at most 2); ln σ̂
 * has the variance 1/(2n).
 */
function uncertaintyOf(a: { phi: number; sd: number }, n: number, nLevel: number): DriftUncertainty {
  const oneMinus = Math.max(1e-3, 1 - a.phi);
  const level = a.sd * Math.sqrt((1 + a.phi) / (Math.max(1, nLevel) * oneMinus));
  const phiSe = Math.max(Math.sqrt((1 - a.phi * a.phi) / n), 1 / n);
  return {
    level: round(Math.min(LEVEL_SE_MAX, level), 5),
    persistence: round(Math.min(PERSISTENCE_SE_MAX, phiSe / oneMinus), 5),
    wander: round(Math.sqrt(1 / (2 * n)), 5),
  };
}

/** Fits the drift model to sampled (height, time) pairs. Never throws: bad samples come back as one message. */
export function fitBlockTimes(samples: readonly BlockTimeSample[]): Result<BlockTimeFit, string> {
  const bad = validate(samples);
  if (bad !== undefined) return err(bad);
  const first = samples[0] as BlockTimeSample;
  const last = samples[samples.length - 1] as BlockTimeSample;
  const ip = new Interp(samples);
  const m = means(ip, first, last);
  const pb = perBlock(samples);
  // Step 3: segments of about an hour, counted back from the anchor, oldest first.
  const L = Math.max(1, Math.round(HOUR_MS / m.windowMs));
  const count = Math.floor((last.height - first.height) / L);
  const logs: number[] = [];
  const mids: number[] = [];
  const starts: number[] = [];
  for (let k = count - 1; k >= 0; k--) {
    const hi = last.height - k * L;
    const t0 = ip.timeAt(hi - L);
    const t1 = ip.timeAt(hi);
    logs.push(Math.log(Math.max(1, t1 - t0) / L));
    mids.push((t0 + t1) / 2);
    starts.push(hi - L);
  }
  // Step 4: the daily cycle (needs about a day of segments), on the log means with spikes (hidden stalls) taken out.
  const clean = despike(logs, SPIKE_HALF, SPIKE_SIGMAS);
  const cyc = dailyCycle(clean.y, mids, last.timeMs - first.timeMs >= 0.9 * DAY_MS);
  const resid = clean.y.map((y, i) => y - cyc.at(mids[i] as number));
  // Step 5: regime shifts, then the level since the last one.
  const steps = movingSteps(resid, SHIFT_WINDOW, SHIFT_SIGMAS);
  const deshifted = resid.slice();
  for (const st of steps)
    for (let i = st.index; i < deshifted.length; i++) deshifted[i] = (deshifted[i] as number) - st.size;
  // Step 6: AR(1) on what is left.
  const a = ar1(deshifted);
  const lastShift = steps.at(-1);
  const since = lastShift === undefined ? first.height : (starts[lastShift.index] as number);
  const regimeMs = (last.timeMs - ip.timeAt(since)) / (last.height - since);
  // The window's mean per block is the level times E[exp(d)] over segments (uniform in blocks), and divided by
  // E_t[exp(−c)] = I0(A) ≈ 1 + A²/4 for the daily cycle (blocks crowd into the fast hours).
  const bias = Math.exp((a.sd * a.sd) / 2) / (1 + (cyc.amplitude * cyc.amplitude) / 4);
  const meanMs = Math.max(1, (regimeMs - pb.rate * pb.meanMs) / bias);
  const n = Math.max(1, logs.length);
  const shiftSize = steps.length > 0 ? Math.sqrt(steps.reduce((s, x) => s + x.size * x.size, 0) / steps.length) : 0;
  // Step 7: the anchor's rate, daily cycle removed.
  const rateMs = m.lastHourMs / Math.exp(cyc.at(last.timeMs - HOUR_MS / 2));
  const model: DriftBlockTime = {
    kind: "drift",
    meanMs: round(meanMs, 6),
    anchor: { height: last.height, timeMs: last.timeMs, rateMs: round(rateMs, 6) },
    segmentBlocks: L,
    persistence: round(a.phi, 4),
    wander: round(Math.min(1, a.sigma), 5),
    daily: { amplitude: round(Math.min(1, cyc.amplitude), 4), peakMs: Math.floor(cyc.peakMs / 60_000) * 60_000 },
    shifts: {
      rate: round(Math.min(1, (steps.length + SHIFT_PRIOR) / Math.max(n, PRIOR_SEGMENTS)), 5),
      size: round(Math.min(1, Math.max(SHIFT_SIZE_MIN, shiftSize)), 4),
    },
    outages: { rate: round(pb.rate, 6), meanMs: pb.rate > 0 ? round(pb.meanMs, 3) : 0 },
    jitter: round(pb.jitter, 4),
    uncertainty: uncertaintyOf(a, n, Math.round((last.height - since) / L)),
  };
  return ok({
    model,
    document: driftDocument(model),
    meanBlockTime: { lastHourMs: m.lastHourMs, lastDayMs: m.lastDayMs, windowMs: m.windowMs },
    hourlyMs: m.hourlyMs,
    fit: {
      samples: samples.length,
      consecutiveIntervals: pb.n,
      segments: logs.length,
      segmentBlocks: L,
      shiftsSeen: steps.length,
      spikes: clean.replaced,
      dailyAmplitudeSe: cyc.se,
      regimeMeanMs: regimeMs,
      persistence: a.phi,
      wander: a.sigma,
      jitter: pb.jitter,
    },
  });
}
