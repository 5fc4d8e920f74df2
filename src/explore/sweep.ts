/**
 * `chainsim explore cancel-window --sweep`: the cancel-window exploration (explore.ts) repeated over the values of one
 * axis, the spread of block times or the deposit delay, with the same trial seeds for every value and one offset grid
 * shared by every series (spanning the transitions of all values).
 *
 * 1. Apply each value to the configuration (`applySweepValue`); a value the axis cannot take fails the sweep.
 * 2. One batch of probe runs, seed-major, so each group of jobs shares its seed's block-time draws.
 * 3. Measure each series, lay the shared grid, and verify every series' recommendation in one more batch.
 */
import { meanInterval } from "../chain/block-time.js";
import { durationMs } from "../core/brand.js";
import { err, ok, type Result } from "../core/errors.js";
import { type ExploreOptions, type Exploring, runBatches } from "./batch.js";
import { trialScenario } from "./chain.js";
import { measured, searchRange, trialInputs, verifyAll } from "./explore.js";
import type { CancelWindowConfig, SweepAxis, SweepSpec } from "./model.js";
import { sortedLandings } from "./search.js";
import { type Exploration, evenly, measure, transition } from "./summarize.js";

export interface SweepExploration {
  readonly kind: "cancel-window-sweep";
  /** The configuration the swept values replace a part of. */
  readonly base: CancelWindowConfig;
  readonly axis: SweepAxis;
  readonly valuesMs: readonly number[];
  /** The offset grid shared by every series. */
  readonly offsets: readonly number[];
  /** One exploration per swept value, in value order, with `points` on the shared grid. */
  readonly series: readonly Exploration[];
  readonly engineRuns: number;
}

/** Most offsets a sweep grid may have. */
export const GRID_MAX = 5000;

/** The configuration at one value of a sweep axis; fails (one line) for a value the axis cannot take. */
export function applySweepValue(
  cfg: CancelWindowConfig,
  axis: SweepAxis,
  valueMs: number,
): Result<CancelWindowConfig, string> {
  if (!Number.isInteger(valueMs) || valueMs < 0) return err(`${valueMs} ms is not a non-negative whole number of ms`);
  if (axis === "deposit-delay") {
    if (valueMs > cfg.depositPeriodMs)
      return err(`deposit delay ${valueMs} ms exceeds the deposit period (${cfg.depositPeriodMs} ms)`);
    const d = { kind: "fixed", ms: valueMs } as const;
    return ok({ ...cfg, depositDelay: d, cancelDepositDelay: d });
  }
  const m = cfg.blockTime;
  if (m.kind === "normal") return ok({ ...cfg, blockTime: { ...m, stddevMs: durationMs(valueMs) } });
  const mean = meanInterval(m);
  if (valueMs === 0) return ok({ ...cfg, blockTime: { kind: "fixed", intervalMs: durationMs(Math.round(mean)) } });
  const lo = Math.round(mean - valueMs);
  if (lo < 1) return err(`spread ${valueMs} ms is not below the mean block time (${mean} ms)`);
  return ok({
    ...cfg,
    blockTime: { kind: "uniform", minMs: durationMs(lo), maxMs: durationMs(Math.round(mean + valueMs)) },
  });
}

/**
 * A grid: the offset against a spread of block times or a deposit delay. Every value reuses the same trial seeds.
 * The offset grid spans the transitions of all values, `points` offsets or every `offsetStep` blocks.
 */
export function* sweepingCancelWindow(cfg: CancelWindowConfig, sweep: SweepSpec): Exploring<SweepExploration> {
  const configs: CancelWindowConfig[] = [];
  for (const v of sweep.valuesMs) {
    const c = applySweepValue(cfg, sweep.axis, v);
    if (!c.ok) return c;
    configs.push(c.value);
  }
  for (const c of configs) {
    const s = trialScenario(c);
    if (!s.ok) return s;
  }
  const planned = configs.map((c) => {
    const range = searchRange(c);
    return { c, range, inputs: trialInputs(c, range.max) };
  });
  // Seed-major: trial i under every value, then trial i + 1, so that each group shares its seed's block-time draws.
  const runs = cfg.runs;
  const jobs = Array.from({ length: runs * configs.length }, (_, j) => ({
    config: j % configs.length,
    input: planned[j % configs.length]!.inputs[Math.floor(j / configs.length)]!,
  }));
  const results = yield { configs, jobs, plannedAfter: 2 * configs.length, group: configs.length };
  const prepared = planned.map((p, config) => ({
    ...p,
    m: measure(
      p.c,
      p.inputs,
      p.inputs.map((_, i) => results[i * configs.length + config]!),
    ),
  }));
  const all = sortedLandings(prepared.flatMap((p) => p.m.landings));
  const range = {
    min: Math.min(...prepared.map((p) => p.range.min)),
    max: Math.max(...prepared.map((p) => p.range.max)),
  };
  const { lo, hi } = transition(all, range);
  const step = sweep.offsetStep;
  if (step !== undefined && (hi - lo) / step + 1 > GRID_MAX)
    return err(`an offset step of ${step} gives more than ${GRID_MAX} offsets over ${lo}..${hi}`);
  const offsets =
    step === undefined
      ? evenly(lo, hi, sweep.points)
      : Array.from({ length: Math.floor((hi - lo) / step) + 1 }, (_, i) => lo + i * step);
  if (offsets[offsets.length - 1]! < hi) offsets.push(hi);
  const series = yield* verifyAll(
    configs,
    prepared.map((p) => measured(p.c, p.range, p.inputs, p.m, offsets)),
  );
  return ok({
    kind: "cancel-window-sweep",
    base: cfg,
    axis: sweep.axis,
    valuesMs: sweep.valuesMs,
    offsets,
    series,
    engineRuns: jobs.length + series.reduce((n, x) => n + x.engineRuns - x.landingOffsets.length, 0),
  });
}

/** `sweepingCancelWindow` run in this thread. */
export function sweepCancelWindow(
  cfg: CancelWindowConfig,
  sweep: SweepSpec,
  o: ExploreOptions = {},
): Result<SweepExploration, string> {
  return runBatches(sweepingCancelWindow(cfg, sweep), o);
}
