/** One benchmark result line: `ratio` = value / baseline (the baseline measured in the same run). */
export interface BenchResult {
  readonly bench: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline: number;
  readonly ratio: number;
}

/** A benchmark module: `run.ts` imports each and prints its results. */
export interface BenchModule {
  readonly name: string;
  run(): Promise<BenchResult[]>;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Wall time in ms of each of `runs` measured calls of `fn`, after `warmup` unmeasured ones. */
export function timeRuns(fn: () => void, warmup: number, runs: number): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

export const round3 = (x: number): number => Math.round(x * 1000) / 1000;

export const result = (bench: string, value: number, unit: string, baseline: number): BenchResult => ({
  bench,
  value: round3(value),
  unit,
  baseline: round3(baseline),
  ratio: round3(value / baseline),
});
