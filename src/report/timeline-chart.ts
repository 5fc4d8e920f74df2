/**
 * The Vega-Lite chart of one scenario's timeline: three views over the same simulated-time axis. Heights: the
 * committed height against time, the plan height as a dashed rule while the plan stands, upgrades applied or skipped
 * as diamonds. Proposals: each proposal's deposit and voting periods as bars, its final status at the end. Lanes:
 * per node (and the chain) the halts, stops, starts, sidecar swaps, stalls and upgrades as points.
 */
import type { VegaLiteSpec } from "../explore/chart.js";
import { CHAIN_LANE, type LaneEventKind, type ScenarioTimeline } from "./timeline.js";

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
export const TIMELINE_WIDTH = 800;
/** The time axis extends this fraction of the run's span past each end, so marks at the ends stay whole. */
const TIME_PAD = 0.015;

/** Colours and shapes of the lane events (legend order). */
export const LANE_KINDS: readonly { kind: LaneEventKind; color: string; shape: string }[] = [
  { kind: "halt", color: "#cf222e", shape: "cross" },
  { kind: "stop", color: "#6e7781", shape: "square" },
  { kind: "start", color: "#0969da", shape: "triangle-right" },
  { kind: "swap", color: "#8250df", shape: "diamond" },
  { kind: "sidecar idle", color: "#c4a9f5", shape: "circle" },
  { kind: "stall", color: "#bc4c00", shape: "triangle-down" },
  { kind: "applied", color: "#1a7f37", shape: "diamond" },
  { kind: "skipped", color: "#9a6700", shape: "diamond" },
];

const DAY_MS = 86_400_000;
const PHASES = { domain: ["deposit", "voting"], range: ["#d4a72c", "#54aeff"] };

export function timelineChart(t: ScenarioTimeline): VegaLiteSpec {
  const pad = Math.max(1000, (t.endMs - t.startMs) * TIME_PAD);
  const domain = [t.startMs - pad, t.endMs + pad];
  const format = t.endMs - t.startMs > DAY_MS ? "%b %d %H:%M" : t.endMs - t.startMs > 600_000 ? "%H:%M" : "%H:%M:%S";
  /** The time axis; the scale (domain) is declared once per view, the axis drawn only under the last view. */
  const x = (field: string, o: { readonly scale?: boolean; readonly axis?: boolean } = {}) => ({
    field,
    type: "temporal",
    ...(o.scale === true ? { scale: { type: "utc", domain, nice: false } } : {}),
    ...(o.scale === true
      ? {
          axis:
            o.axis === true
              ? { title: "simulated time (UTC)", format, labelOverlap: true, tickCount: 8 }
              : { title: null, labels: false, ticks: false, domain: false, tickCount: 8 },
        }
      : {}),
  });
  const mid = (t.startMs + t.endMs) / 2;
  const marks = t.upgrades.map((u) => ({
    ...u,
    label: `${u.name} ${u.applied ? "applied" : "skipped"} at ${u.height}`,
  }));
  const planLabels = t.plans.map((p) => ({ ...p, label: `plan "${p.name}" at height ${p.height}` }));
  const views: Record<string, unknown>[] = [
    {
      width: TIMELINE_WIDTH,
      height: 150,
      layer: [
        {
          data: { values: t.heights },
          mark: { type: "line", color: "#0969da", strokeWidth: 2 },
          encoding: { x: x("timeMs", { scale: true }), y: { field: "height", type: "quantitative", title: "height" } },
        },
        {
          data: { values: t.plans },
          mark: { type: "rule", color: "#bc4c00", strokeDash: [6, 4], strokeWidth: 1.5 },
          encoding: { x: x("fromMs"), x2: { field: "toMs" }, y: { field: "height", type: "quantitative" } },
        },
        {
          data: { values: planLabels },
          mark: { type: "text", align: "left", dx: 2, dy: -7, fontSize: 11, color: "#bc4c00" },
          encoding: { x: x("fromMs"), y: { field: "height", type: "quantitative" }, text: { field: "label" } },
        },
        {
          data: { values: marks },
          mark: { type: "point", shape: "diamond", filled: true, size: 110, opacity: 1 },
          encoding: {
            x: x("timeMs"),
            y: { field: "height", type: "quantitative" },
            color: {
              field: "applied",
              type: "nominal",
              scale: { domain: [true, false], range: ["#1a7f37", "#9a6700"] },
              legend: null,
            },
          },
        },
        ...(["left", "right"] as const).map((align) => ({
          data: { values: marks.filter((m) => (align === "left") === m.timeMs < mid) },
          mark: {
            type: "text",
            align,
            dx: align === "left" ? 8 : -8,
            dy: 12,
            fontSize: 11,
            fontWeight: "bold",
            color: "#1a7f37",
          },
          encoding: { x: x("timeMs"), y: { field: "height", type: "quantitative" }, text: { field: "label" } },
        })),
      ],
    },
  ];
  if (t.proposals.length > 0) {
    const order = [...new Set(t.proposals.map((p) => p.proposal))];
    const y = { field: "proposal", type: "nominal", sort: order, title: null, axis: { labelLimit: 160 } };
    views.push({
      width: TIMELINE_WIDTH,
      height: Math.max(24, 20 * order.length),
      layer: [
        {
          data: { values: t.proposals },
          mark: { type: "bar", height: 12, cornerRadius: 2 },
          encoding: {
            x: x("fromMs"),
            x2: { field: "toMs" },
            y,
            color: {
              field: "phase",
              type: "nominal",
              title: "proposal period",
              scale: PHASES,
              legend: { orient: "right" },
            },
          },
        },
        {
          data: { values: t.outcomes },
          mark: { type: "text", align: "left", dx: 4, fontSize: 10, color: "#24292f" },
          encoding: { x: x("timeMs", { scale: true }), y, text: { field: "status" } },
        },
      ],
    });
  }
  const lanes = [...t.nodes, CHAIN_LANE];
  const used = LANE_KINDS.filter((k) => t.lanes.some((e) => e.kind === k.kind));
  views.push({
    width: TIMELINE_WIDTH,
    height: 24 * lanes.length,
    data: { values: t.lanes },
    mark: { type: "point", filled: true, size: 80, opacity: 0.9 },
    encoding: {
      x: x("timeMs", { scale: true, axis: true }),
      y: { field: "lane", type: "nominal", sort: lanes, scale: { domain: lanes }, title: null },
      color: {
        field: "kind",
        type: "nominal",
        title: "event",
        scale: { domain: used.map((k) => k.kind), range: used.map((k) => k.color) },
        legend: used.length === 0 ? null : { orient: "right" },
      },
      shape: {
        field: "kind",
        type: "nominal",
        scale: { domain: used.map((k) => k.kind), range: used.map((k) => k.shape) },
      },
      yOffset: { field: "kind", type: "nominal", scale: { domain: LANE_KINDS.map((k) => k.kind), paddingOuter: 0.6 } },
    },
  });
  return {
    $schema: SCHEMA,
    background: "white",
    padding: 6,
    vconcat: views,
    spacing: 10,
    resolve: {
      scale: { x: "independent", color: "independent", shape: "independent" },
      legend: { color: "independent" },
    },
    config: {
      font: "Helvetica, Arial, sans-serif",
      view: { stroke: "#d0d7de" },
      axis: { labelFontSize: 11, titleFontSize: 11, titleColor: "#57606a", labelColor: "#24292f" },
      legend: { labelFontSize: 11, titleFontSize: 11 },
    },
  };
}
