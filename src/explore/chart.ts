/**
 * Vega-Lite specifications (plain JSON data) of the exploration charts; the CLI compiles and renders them to SVG.
 * One configuration: P(cancel lands) against the offset with its Wilson band, the rule of thumb at the mean block
 * time, the safe offset and the confidence line. A sweep: a heat map of P over offset × swept value, and one curve
 * per value.
 */
import { formatDuration } from "../core/go/duration.js";
import { blockTimeText } from "./render.js";
import { landedAt, sortedLandings } from "./search.js";
import type { Exploration } from "./summarize.js";
import type { SweepExploration } from "./sweep.js";
import { wilson } from "./wilson.js";

export type VegaLiteSpec = Readonly<Record<string, unknown>>;

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
const CURVE_POINTS = 300;
const WIDTH = 640;

/** P and its band on a dense grid around the transition, from the per-trial landing offsets. */
function curve(x: Exploration): { offset: number; p: number; lo: number; hi: number }[] {
  const sorted = sortedLandings(x.landingOffsets.map((l) => l ?? Number.POSITIVE_INFINITY));
  const first = sorted[0] ?? x.range.min;
  const last = sorted[sorted.length - 1] ?? x.range.max;
  const pad = Math.max(2, Math.ceil((last - first) * 0.1));
  const lo = Math.max(x.range.min, first - pad);
  const hi = Math.min(x.range.max, last + pad);
  const step = Math.max(1, Math.ceil((hi - lo) / CURVE_POINTS));
  const out = [];
  for (let o = lo; o <= hi; o += step) {
    const w = wilson(landedAt(sorted, o), x.config.runs);
    out.push({ offset: o, p: w.p, lo: w.lo, hi: w.hi });
  }
  return out;
}

export function explorationChart(x: Exploration): VegaLiteSpec {
  const data = curve(x);
  const xMin = data[0]?.offset ?? x.range.min;
  const xMax = data[data.length - 1]?.offset ?? x.range.max;
  const marks = [
    {
      offset: x.ruleOfThumb.mean.blocks,
      label: `rule of thumb, mean block time (${x.ruleOfThumb.mean.blocks})`,
      color: "#d62728",
    },
    {
      offset: x.ruleOfThumb.min.blocks,
      label: `rule of thumb, minimum block time (${x.ruleOfThumb.min.blocks})`,
      color: "#9467bd",
    },
    ...(x.recommendation === null
      ? []
      : [{ offset: x.recommendation.offset, label: `safe offset (${x.recommendation.offset})`, color: "#2ca02c" }]),
  ];
  const shown = marks.filter((m) => m.offset >= xMin && m.offset <= xMax);
  const hidden = marks.filter((m) => !shown.includes(m)).map((m) => `${m.label}: off the chart`);
  const c = x.config;
  const xEnc = {
    field: "offset",
    type: "quantitative",
    title: "plan height - submission height (blocks)",
    scale: { zero: false },
  };
  return {
    $schema: SCHEMA,
    title: {
      text: `P(cancel lands) by plan offset: ${c.strategy}, ${c.runs} runs, seed ${c.seed}`,
      subtitle: [
        `blocks ${blockTimeText(c.blockTime)}; D ${formatDuration(c.depositPeriodMs)}, V ${formatDuration(c.votingPeriodMs)}, S ${formatDuration(c.safetyDeltaMs)}; band: Wilson 95%`,
        ...hidden,
      ],
    },
    width: WIDTH,
    height: 320,
    layer: [
      {
        data: { values: data },
        mark: { type: "area", opacity: 0.25, interpolate: "step-after" },
        encoding: { x: xEnc, y: { field: "lo", type: "quantitative", title: "P(cancel lands)" }, y2: { field: "hi" } },
      },
      {
        data: { values: data },
        mark: { type: "line", interpolate: "step-after" },
        encoding: { x: xEnc, y: { field: "p", type: "quantitative", scale: { domain: [0, 1] } } },
      },
      {
        data: { values: [{ y: c.confidence }] },
        mark: { type: "rule", strokeDash: [4, 4], color: "gray" },
        encoding: { y: { field: "y", type: "quantitative" } },
      },
      {
        data: { values: shown },
        mark: { type: "rule", strokeWidth: 2 },
        encoding: {
          x: { field: "offset", type: "quantitative" },
          color: {
            field: "label",
            type: "nominal",
            title: null,
            scale: { domain: shown.map((m) => m.label), range: shown.map((m) => m.color) },
            legend: { orient: "bottom", direction: "vertical", labelLimit: 600 },
          },
        },
      },
    ],
  };
}

export function sweepChart(s: SweepExploration): VegaLiteSpec {
  const labels = s.valuesMs.map((v) => formatDuration(v));
  const half = s.offsets.length > 1 ? (s.offsets[1]! - s.offsets[0]!) / 2 : 0.5;
  const cells = s.series.flatMap((x, i) =>
    x.points.map((p) => ({
      value: labels[i],
      order: i,
      offset: p.offset,
      x0: p.offset - half,
      x1: p.offset + half,
      p: p.p,
      lo: p.lo,
      hi: p.hi,
    })),
  );
  const first = s.series[0]!;
  const c = first.config;
  const xEnc = { type: "quantitative", title: "plan height - submission height (blocks)", scale: { zero: false } };
  const valueTitle = s.axis === "spread" ? "block-time spread" : "deposit delay";
  return {
    $schema: SCHEMA,
    title: {
      text: `P(cancel lands) by plan offset and ${valueTitle}: ${c.strategy}, ${c.runs} runs per value, seed ${c.seed}`,
      subtitle: `D ${formatDuration(c.depositPeriodMs)}, V ${formatDuration(c.votingPeriodMs)}, S ${formatDuration(c.safetyDeltaMs)}; dashed: rule of thumb at the mean block time (${first.ruleOfThumb.mean.blocks} blocks)`,
    },
    data: { values: cells },
    vconcat: [
      {
        width: WIDTH,
        height: Math.max(80, 28 * labels.length),
        mark: "rect",
        encoding: {
          x: { ...xEnc, field: "x0" },
          x2: { field: "x1" },
          y: { field: "value", type: "ordinal", sort: labels, title: valueTitle },
          color: {
            field: "p",
            type: "quantitative",
            title: "P",
            scale: { domain: [0, 1], scheme: "viridis" },
          },
          tooltip: [
            { field: "offset", type: "quantitative" },
            { field: "value", type: "nominal" },
            { field: "p", type: "quantitative", format: ".3f" },
          ],
        },
      },
      {
        width: WIDTH,
        height: 260,
        layer: [
          {
            mark: { type: "line", interpolate: "step-after" },
            encoding: {
              x: { ...xEnc, field: "offset" },
              y: { field: "p", type: "quantitative", title: "P(cancel lands)", scale: { domain: [0, 1] } },
              color: { field: "value", type: "ordinal", sort: labels, title: valueTitle },
            },
          },
          {
            data: { values: [{ offset: first.ruleOfThumb.mean.blocks }] },
            mark: { type: "rule", strokeDash: [6, 3], color: "#d62728" },
            encoding: { x: { field: "offset", type: "quantitative" } },
          },
        ],
      },
    ],
    resolve: { scale: { color: "independent" } },
  };
}
