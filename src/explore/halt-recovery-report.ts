import { formatDuration } from "../core/go/duration.js";
import type { VegaLiteSpec } from "./chart.js";
import {
  type Critical,
  type Downtime,
  type HourResult,
  type RecoverySetup,
  rankHours,
  runTrials,
  summarize,
  timeOfDay,
} from "./halt-recovery.js";
import { alignTable } from "./render.js";
import type { WhatIf } from "./what-if.js";

/**
 * One `explore halt-recovery` result as plain data (its JSON output), and its text and chart views. Pure: the same
 * setup, runs and what-ifs give the same result.
 */

export interface RecoverySeries {
  readonly label: string;
  readonly downtime: Downtime;
  /** Downtime quantiles at 0%, 1%, … 100% in ms (null: never), for the chart. */
  readonly quantilesMs: readonly (number | null)[];
}

export interface HaltRecoveryExploration {
  readonly kind: "halt-recovery";
  /** The scenario or profile file, and where the halt comes from. */
  readonly source: string;
  readonly haltTime: string;
  readonly haltFrom: string;
  readonly binary: string;
  readonly seed: number;
  readonly runs: number;
  readonly validators: number;
  readonly totalPower: number;
  readonly baseline: RecoverySeries;
  readonly critical: readonly Critical[];
  readonly timeOfDay: {
    readonly runsPerHour: number;
    readonly hours: readonly HourResult[];
    readonly best: HourResult;
    readonly worst: HourResult;
  };
  readonly whatIfs: readonly RecoverySeries[];
}

function series(label: string, downtimes: Float64Array): RecoverySeries {
  const sorted = Float64Array.from(downtimes).sort();
  const quantilesMs = Array.from({ length: 101 }, (_, q) => {
    const v = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1))];
    return v === undefined || !Number.isFinite(v) ? null : v;
  });
  return { label, downtime: summarize(downtimes), quantilesMs };
}

export interface HaltRecoveryRequest {
  readonly setup: RecoverySetup;
  readonly runs: number;
  readonly whatIfs: readonly WhatIf[];
  readonly source: string;
  readonly haltFrom: string;
}

export function exploreHaltRecovery(r: HaltRecoveryRequest): HaltRecoveryExploration {
  const { setup, runs } = r;
  const base = runTrials(setup, runs);
  const runsPerHour = Math.max(100, Math.ceil(runs / 24));
  const hours = timeOfDay(setup, runsPerHour);
  const ranked = rankHours(hours);
  return {
    kind: "halt-recovery",
    source: r.source,
    haltTime: new Date(setup.haltMs).toISOString(),
    haltFrom: r.haltFrom,
    binary: setup.binary,
    seed: setup.seed,
    runs,
    validators: setup.members.length,
    totalPower: setup.members.reduce((p, m) => p + m.power, 0),
    baseline: series("as configured", base.downtimes),
    critical: criticalOf(setup, base.critical, runs),
    timeOfDay: { runsPerHour, hours, best: ranked[0]!, worst: ranked[ranked.length - 1]! },
    whatIfs: r.whatIfs.map((w) => series(w.label, runTrials({ ...setup, members: w.members }, runs).downtimes)),
  };
}

function criticalOf(setup: RecoverySetup, counts: Uint32Array, runs: number): Critical[] {
  return setup.members
    .map((m, k) => ({ node: m.name, power: m.power, share: runs === 0 ? 0 : counts[k]! / runs }))
    .filter((c) => c.share > 0)
    .sort((a, b) => b.share - a.share || a.node.localeCompare(b.node));
}

const dur = (ms: number | null): string => (ms === null ? "never" : formatDuration(Math.round(ms / 1000) * 1000));
const pct = (p: number): string => `${(100 * p).toFixed(1)}%`;

function downtimeRow(label: string, d: Downtime): string[] {
  return [
    label,
    dur(d.p50Ms),
    dur(d.p90Ms),
    dur(d.p99Ms),
    pct(d.within30m),
    pct(d.within1h),
    pct(d.within4h),
    pct(d.never),
  ];
}

export function haltRecoveryText(x: HaltRecoveryExploration): string[] {
  const head = ["", "P50", "P90", "P99", "≤30m", "≤1h", "≤4h", "never"];
  const rows = [head, downtimeRow(x.baseline.label, x.baseline.downtime)];
  for (const w of x.whatIfs) rows.push(downtimeRow(`what if ${w.label}`, w.downtime));
  const hour = (h: HourResult) =>
    `${String(h.hourUtc).padStart(2, "0")}:00 UTC (P50 ${dur(h.downtime.p50Ms)}, P90 ${dur(h.downtime.p90Ms)}, never ${pct(h.downtime.never)})`;
  const crit = x.critical.slice(0, 10).map((c) => [`  ${c.node}`, String(c.power), pct(c.share)]);
  return [
    `halt-recovery: ${x.source}: halt at ${x.haltTime} (${x.haltFrom}), ${x.validators} validators, power ${x.totalPower}; seed ${x.seed}, ${x.runs} runs`,
    "downtime from the halt to the first block after it (more than 2/3 of the power back on the binary with the handler):",
    ...alignTable(rows).map((l) => `  ${l}`),
    "critical validators (among the last needed to pass 2/3), share of runs:",
    ...(crit.length === 0 ? ["  none: the chain never resumed"] : alignTable(crit)),
    `time of day (${x.timeOfDay.runsPerHour} runs per UTC hour of ${x.haltTime.slice(0, 10)}):`,
    `  best  ${hour(x.timeOfDay.best)}`,
    `  worst ${hour(x.timeOfDay.worst)}`,
  ];
}

/** A CDF of the downtime per series (hours), over a bar chart of the median downtime per UTC hour of the halt. */
export function haltRecoveryChart(x: HaltRecoveryExploration): VegaLiteSpec {
  const cdf = [x.baseline, ...x.whatIfs].flatMap((s) =>
    s.quantilesMs.flatMap((v, q) => (v === null ? [] : [{ series: s.label, hours: v / 3_600_000, p: q / 100 }])),
  );
  const hours = x.timeOfDay.hours.map((h) => ({
    hour: h.hourUtc,
    p50: h.downtime.p50Ms === null ? null : h.downtime.p50Ms / 3_600_000,
    never: h.downtime.never,
  }));
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: `halt recovery: ${x.source} (${x.runs} runs, seed ${x.seed})`,
    vconcat: [
      {
        width: 640,
        height: 280,
        title: "P(chain back within t)",
        data: { values: cdf },
        mark: { type: "line", interpolate: "step-after" },
        encoding: {
          x: { field: "hours", type: "quantitative", title: "downtime (hours)" },
          y: { field: "p", type: "quantitative", title: "share of runs", scale: { domain: [0, 1] } },
          color: { field: "series", type: "nominal", title: null },
        },
      },
      {
        width: 640,
        height: 160,
        title: "median downtime by UTC hour of the halt",
        data: { values: hours },
        mark: "bar",
        encoding: {
          x: { field: "hour", type: "ordinal", title: "hour of the halt (UTC)" },
          y: { field: "p50", type: "quantitative", title: "P50 downtime (hours)" },
          tooltip: [{ field: "never", type: "quantitative", format: ".1%" }],
        },
      },
    ],
  };
}
