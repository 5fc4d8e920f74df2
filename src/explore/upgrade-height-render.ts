/**
 * The outputs of `explore upgrade-height`: the text report, the JSON document, and the Vega-Lite chart (the halt
 * times' histogram with the band, the target and the naive estimate), in the style of chart.ts.
 */
import { formatDuration } from "../core/go/duration.js";
import { formatRfc3339 } from "../core/go/time.js";
import type { VegaLiteSpec } from "./chart.js";
import { blockTimeText } from "./render.js";
import type { UpgradeHeightPlan } from "./upgrade-height.js";

const time = (ms: number): string => formatRfc3339(Math.round(ms / 1000) * 1000);
const signed = (ms: number): string => `${ms < 0 ? "-" : "+"}${formatDuration(Math.round(Math.abs(ms) / 1000) * 1000)}`;
const pct = (p: number): string => `${(100 * p).toFixed(1)}%`;

export function upgradeHeightText(x: UpgradeHeightPlan): string {
  const by = (ms: number): string => `${time(ms)}${ms < x.at.timeMs ? " (already past)" : ""}`;
  const lines = [
    `upgrade height for ${time(x.targetMs)} (from height ${x.at.height} at ${time(x.at.timeMs)}; ${x.runs} runs, seed ${x.seed})`,
    `  blocks: ${blockTimeText(x.model)}`,
    `  recommended height: ${x.recommendedHeight} (its median halt time is the target)`,
    `  halt time P5 ${time(x.halt.p5)}  P50 ${time(x.halt.p50)}  P95 ${time(x.halt.p95)}`,
    `            (${signed(x.halt.p5 - x.targetMs)} .. ${signed(x.halt.p95 - x.targetMs)} around the target)`,
    `  heights reached by the target: P5 ${Math.round(x.heights.p5)}  P50 ${Math.round(x.heights.p50)}  P95 ${Math.round(x.heights.p95)}`,
  ];
  if (x.window !== undefined) lines.push(`  P(halt inside ${x.window.text}): ${pct(x.window.probability)}`);
  lines.push(
    `  naive estimate (now + Δt / ${formatDuration(Math.round(x.naive.meanBlockTimeMs))}, ${x.naive.basis}): height ${x.naive.height} (${x.naive.height - x.recommendedHeight >= 0 ? "+" : ""}${x.naive.height - x.recommendedHeight} blocks); it expects height ${x.recommendedHeight} at ${time(x.naive.timeAtRecommendedMs)} (${signed(x.naive.timeAtRecommendedMs - x.halt.p50)} from the median)`,
    `  cancel (passes before height ${x.recommendedHeight} in 95% of runs; D ${formatDuration(x.cancel.depositPeriodMs)}, V ${formatDuration(x.cancel.votingPeriodMs)}, expedited ${formatDuration(x.cancel.expeditedVotingPeriodMs)}):`,
    `    submit by ${by(x.cancel.depositMetMs)} with the deposit met at submission`,
    `    submit by ${by(x.cancel.depositLateMs)} if the deposit may take the whole deposit period`,
    `    expedited: by ${by(x.cancel.expeditedPassMs)} only if it reaches the expedited threshold; one that does not falls back to the regular vote (ends V after submission): the deadline above`,
  );
  return `${lines.join("\n")}\n`;
}

export function upgradeHeightJson(x: UpgradeHeightPlan): Record<string, unknown> {
  return {
    at: { height: x.at.height, time: formatRfc3339(x.at.timeMs) },
    target: formatRfc3339(x.targetMs),
    runs: x.runs,
    seed: x.seed,
    blockTime: blockTimeText(x.model),
    recommendedHeight: x.recommendedHeight,
    halt: { p5: time(x.halt.p5), p50: time(x.halt.p50), p95: time(x.halt.p95) },
    haltMs: x.halt,
    heights: x.heights,
    window: x.window ?? null,
    naive: {
      meanBlockTimeMs: x.naive.meanBlockTimeMs,
      basis: x.naive.basis,
      height: x.naive.height,
      timeAtRecommended: time(x.naive.timeAtRecommendedMs),
    },
    cancel: {
      depositPeriodMs: x.cancel.depositPeriodMs,
      votingPeriodMs: x.cancel.votingPeriodMs,
      expeditedVotingPeriodMs: x.cancel.expeditedVotingPeriodMs,
      submitByDepositMet: time(x.cancel.depositMetMs),
      submitByDepositLate: time(x.cancel.depositLateMs),
      submitByExpeditedPass: time(x.cancel.expeditedPassMs),
      confidence: 0.95,
    },
  };
}

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
const WIDTH = 640;
const BINS = 40;

export function upgradeHeightChart(x: UpgradeHeightPlan): VegaLiteSpec {
  const hours = (ms: number): number => (ms - x.targetMs) / 3_600_000;
  const data = Array.from(x.haltTimesMs, (t) => ({ hours: hours(t) }));
  const marks = [
    { hours: hours(x.halt.p5), label: "P5", color: "#1f77b4" },
    { hours: hours(x.halt.p50), label: "P50", color: "#2ca02c" },
    { hours: hours(x.halt.p95), label: "P95", color: "#1f77b4" },
    { hours: 0, label: "target", color: "#000000" },
    { hours: hours(x.naive.timeAtRecommendedMs), label: "naive estimate", color: "#d62728" },
  ];
  return {
    $schema: SCHEMA,
    width: WIDTH,
    height: 300,
    title: {
      text: `Halt time of height ${x.recommendedHeight} (${x.runs} runs)`,
      subtitle: [
        `target ${time(x.targetMs)}; blocks ${blockTimeText(x.model)}`,
        `band P5..P95 ${signed(x.halt.p5 - x.targetMs)} .. ${signed(x.halt.p95 - x.targetMs)}; naive estimate ${signed(x.naive.timeAtRecommendedMs - x.targetMs)}`,
      ],
    },
    layer: [
      {
        data: { values: data },
        mark: { type: "bar", color: "#9ecae1" },
        encoding: {
          x: { field: "hours", type: "quantitative", bin: { maxbins: BINS }, title: "halt time - target (hours)" },
          y: { aggregate: "count", type: "quantitative", title: "runs" },
        },
      },
      {
        data: { values: marks },
        mark: { type: "rule", strokeWidth: 2 },
        encoding: {
          x: { field: "hours", type: "quantitative" },
          color: {
            field: "label",
            type: "nominal",
            scale: { domain: marks.map((m) => m.label), range: marks.map((m) => m.color) },
            title: null,
          },
        },
      },
    ],
  };
}
