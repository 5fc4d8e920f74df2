/**
 * The small statistics the block-time fit (block-time-fit.ts) rests on: a daily cycle by least squares, and steps
 * of a series' moving mean. Pure functions over plain arrays.
 */
import { DAY_MS } from "./block-time-drift.js";

export interface DailyCycle {
  /** Amplitude on the log mean (0 when not significant). */
  readonly amplitude: number;
  /** UTC time of day of the slowest blocks, ms after midnight. */
  readonly peakMs: number;
  /** Standard error of the amplitude, autocorrelation counted. */
  readonly se: number;
  /** The cycle's value at a time. */
  at(timeMs: number): number;
}

const angle = (t: number): number => (2 * Math.PI * ((((t % DAY_MS) + DAY_MS) % DAY_MS) / DAY_MS)) % (2 * Math.PI);

/** Solves the 3×3 system a·x = b (Cramer); undefined when singular. */
function solve3(a: number[][], b: number[]): number[] | undefined {
  const det = (m: number[][]): number =>
    m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
    m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
    m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
  const d = det(a);
  if (Math.abs(d) < 1e-12) return undefined;
  return [0, 1, 2].map((c) => det(a.map((row, i) => row.map((v, j) => (j === c ? (b[i] as number) : v)))) / d);
}

/**
 * y ≈ a + b·cos θ + c·sin θ, θ the time of day of each point. Kept when `enough` (the window covers a day) and the
 * amplitude exceeds twice its standard error, computed with the residuals' effective sample size n(1−φ)/(1+φ).
 */
export function dailyCycle(y: readonly number[], timesMs: readonly number[], enough: boolean): DailyCycle {
  const none: DailyCycle = { amplitude: 0, peakMs: 0, se: 0, at: () => 0 };
  const n = y.length;
  if (!enough || n < 24) return none;
  const xtx = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const xty = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const th = angle(timesMs[i] as number);
    const x = [1, Math.cos(th), Math.sin(th)];
    for (let r = 0; r < 3; r++) {
      xty[r] = (xty[r] as number) + (x[r] as number) * (y[i] as number);
      for (let c = 0; c < 3; c++)
        (xtx[r] as number[])[c] = (xtx[r]![c] as number) + (x[r] as number) * (x[c] as number);
    }
  }
  const beta = solve3(xtx, xty);
  if (beta === undefined) return none;
  const [a, b, c] = beta as [number, number, number];
  const res = y.map((v, i) => {
    const th = angle(timesMs[i] as number);
    return v - a - b * Math.cos(th) - c * Math.sin(th);
  });
  let s0 = 0;
  let s1 = 0;
  for (let i = 0; i < n; i++) {
    s0 += (res[i] as number) ** 2;
    if (i > 0) s1 += (res[i] as number) * (res[i - 1] as number);
  }
  const phi = s0 > 0 ? Math.min(0.99, Math.max(0, s1 / s0)) : 0;
  const nEff = Math.max(2, (n * (1 - phi)) / (1 + phi));
  const se = Math.sqrt((2 * (s0 / n)) / nEff);
  const amplitude = Math.hypot(b, c);
  if (amplitude <= 2 * se) return { ...none, se };
  const peakAngle = Math.atan2(c, b);
  const peakMs = ((((peakAngle / (2 * Math.PI)) * DAY_MS) % DAY_MS) + DAY_MS) % DAY_MS;
  const peakMinute = Math.floor(peakMs / 60_000) * 60_000;
  return {
    amplitude,
    peakMs: peakMinute,
    se,
    at: (t) => amplitude * Math.cos(angle(t) - (2 * Math.PI * peakMinute) / DAY_MS),
  };
}

export interface Step {
  /** The first index after the step. */
  readonly index: number;
  /** The step's size (after − before). */
  readonly size: number;
}

/** Steps found at most (a week of hourly segments holds a few). */
const STEPS_MAX = 16;

/**
 * Steps of the moving mean: D_k = mean(y[k, k+w)) − mean(y[k−w, k)), kept where |D_k| exceeds `sigmas` robust
 * deviations (1.4826 × MAD) of all D, largest first, at least w apart; sorted by index.
 */
export function movingSteps(y: readonly number[], w: number, sigmas: number): Step[] {
  const n = y.length;
  if (n < 4 * w) return [];
  const d: { index: number; size: number }[] = [];
  for (let k = w; k <= n - w; k++) {
    let before = 0;
    let after = 0;
    for (let j = 0; j < w; j++) {
      before += y[k - w + j] as number;
      after += y[k + j] as number;
    }
    d.push({ index: k, size: (after - before) / w });
  }
  const abs = d.map((x) => Math.abs(x.size)).sort((p, q) => p - q);
  const mad = 1.4826 * (abs[abs.length >> 1] as number);
  if (mad === 0) return [];
  const cut = sigmas * mad;
  const found: Step[] = [];
  for (const c of [...d].sort((p, q) => Math.abs(q.size) - Math.abs(p.size))) {
    if (found.length >= STEPS_MAX || Math.abs(c.size) <= cut) break;
    if (found.every((f) => Math.abs(f.index - c.index) >= w)) found.push(c);
  }
  return found.sort((p, q) => p.index - q.index);
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((p, q) => p - q);
  return s.length === 0 ? 0 : (s[s.length >> 1] as number);
};

/**
 * A one-sided Hampel filter: a point more than `sigmas` robust deviations above the median of its `half`-neighbourhood
 * (the scale: 1.4826 × the median absolute first difference / √2) is replaced by that median. It takes out an
 * isolated spike (a stall hidden between sampled pages inflates one segment's mean) and keeps a wander or a step.
 */
export function despike(y: readonly number[], half: number, sigmas: number): { y: number[]; replaced: number } {
  const meds = y.map((_, i) => median(y.slice(Math.max(0, i - half), i + half + 1)));
  const dist = y.map((v, i) => v - (meds[i] as number));
  const scale = (1.4826 * median(y.slice(1).map((v, i) => Math.abs(v - (y[i] as number))))) / Math.SQRT2;
  let replaced = 0;
  const out = y.map((v, i) => {
    if (scale > 0 && (dist[i] as number) > sigmas * scale) {
      replaced++;
      return meds[i] as number;
    }
    return v;
  });
  return { y: out, replaced };
}
