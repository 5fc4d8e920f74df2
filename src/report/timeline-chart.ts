/**
 * The Vega-Lite chart of one scenario's timeline: up to four views stacked over the same simulated-time axis, one
 * builder each.
 *
 * 1. Heights (`heightsView`): the committed height against time, the plan height as a dashed rule while the plan
 *    stands, upgrades applied or skipped as diamonds.
 * 2. Proposals (`proposalsView`, when there are any): each proposal's deposit and voting periods as bars, its final
 *    status at the end.
 * 3. Lanes (timeline-lanes.ts): per node (and the chain) the halts (coloured by kind), stops, starts, sidecar swaps
 *    and upgrades as markers, each kind on its own row of the lane, and the chain's stalls as shaded intervals.
 * 4. Node states (`stateLayers`, when the trace has spans): each node's state and binary over time.
 */
import type { VegaLiteSpec } from "../explore/chart.js";
import type { NodeState } from "./node-spans.js";
import type { ScenarioTimeline } from "./timeline.js";
import { clock, type HaltReason, laneView, type TimeAxis } from "./timeline-lanes.js";

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
export const TIMELINE_WIDTH = 800;
/** The time axis extends this fraction of the run's span past each end, so marks at the ends stay whole. */
const TIME_PAD = 0.015;

const DAY_MS = 86_400_000;
const PHASES = { domain: ["deposit", "voting"], range: ["#d4a72c", "#54aeff"] };

/** The node states of the per-node lane (node-spans.ts), each a colour of the band behind the markers. */
export const NODE_STATE_COLORS: readonly { state: NodeState; color: string }[] = [
  { state: "running", color: "#a8dab5" },
  { state: "halted", color: "#f5a3a3" },
  { state: "stopped", color: "#d0d7de" },
  { state: "backing up", color: "#f5d78e" },
  { state: "downloading", color: "#9ecbff" },
  { state: "upgrading", color: "#d8b9ff" },
  { state: "waiting for operator", color: "#ffc48a" },
];

/**
 * The per-node state bands (each node's binary and state over time, a halt's reason in its tooltip) and, where a
 * node starts running a binary other than the one it ran before, that binary's name: swaps show at a glance, and a
 * node that never upgrades keeps its red band to the end.
 */
function stateLayers(t: ScenarioTimeline, x: TimeAxis): object[] {
  if (t.spans.length === 0) return [];
  const used = NODE_STATE_COLORS.filter((c) => t.spans.some((s) => s.state === c.state));
  const labels: { node: string; fromMs: number; binary: string; text: string }[] = [];
  const last = new Map<string, string>();
  for (const s of t.spans) {
    if (s.state !== "running") continue;
    if (last.get(s.node) !== s.binary)
      labels.push({ node: s.node, fromMs: s.fromMs, binary: s.binary, text: `${s.node} runs ${s.binary}` });
    last.set(s.node, s.binary);
  }
  return [
    {
      data: { values: t.spans.map((s) => ({ ...s, lane: s.node })) },
      mark: { type: "rect", height: 12, opacity: 0.9 },
      encoding: {
        x: x("fromMs"),
        x2: { field: "toMs" },
        y: { field: "lane", type: "nominal", sort: t.nodes, scale: { domain: t.nodes }, title: null },
        color: {
          field: "state",
          type: "nominal",
          title: "node state",
          scale: { domain: used.map((c) => c.state), range: used.map((c) => c.color) },
          legend: { orient: "right" },
        },
        description: { field: "text" },
      },
    },
    {
      data: { values: labels.map((l) => ({ ...l, lane: l.node })) },
      mark: { type: "text", align: "left", baseline: "middle", dx: 3, fontSize: 9, color: "#24292f" },
      encoding: {
        // The view's time scale is declared here: declared on the bands (which have x2), vega-lite reads it twice.
        x: x("fromMs", { scale: true }),
        y: { field: "lane", type: "nominal" },
        text: { field: "binary" },
        description: { field: "text" },
      },
    },
  ];
}

/** The time axis of `t`'s views: the run's span padded at both ends, ticks formatted for the span's length. */
function timeAxis(t: ScenarioTimeline): TimeAxis {
  const pad = Math.max(1000, (t.endMs - t.startMs) * TIME_PAD);
  const domain = [t.startMs - pad, t.endMs + pad];
  const format = t.endMs - t.startMs > DAY_MS ? "%b %d %H:%M" : t.endMs - t.startMs > 600_000 ? "%H:%M" : "%H:%M:%S";
  return (field, o = {}) => ({
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
}

/** The heights view: the height line, the plan rule with its label, the upgrade diamonds and their labels. */
function heightsView(t: ScenarioTimeline, x: TimeAxis): Record<string, unknown> {
  const mid = (t.startMs + t.endMs) / 2;
  const marks = t.upgrades.map((u) => ({
    ...u,
    label: `${u.name} ${u.applied ? "applied" : "skipped"} at ${u.height}`,
  }));
  const planLabels = t.plans.map((p) => ({ ...p, label: `plan "${p.name}" at height ${p.height}` }));
  return {
    width: TIMELINE_WIDTH,
    height: 150,
    layer: [
      {
        data: { values: t.heights },
        mark: { type: "line", color: "#0969da", strokeWidth: 2 },
        encoding: {
          x: x("timeMs", { scale: true }),
          y: { field: "height", type: "quantitative", title: "height" },
          description: { value: `committed height of ${t.name} over simulated time` },
        },
      },
      {
        data: { values: planLabels },
        mark: { type: "rule", color: "#bc4c00", strokeDash: [6, 4], strokeWidth: 1.5 },
        encoding: {
          x: x("fromMs"),
          x2: { field: "toMs" },
          y: { field: "height", type: "quantitative" },
          description: { field: "label" },
        },
      },
      {
        data: { values: planLabels },
        mark: { type: "text", align: "left", dx: 2, dy: -7, fontSize: 11, color: "#bc4c00" },
        encoding: {
          x: x("fromMs"),
          y: { field: "height", type: "quantitative" },
          text: { field: "label" },
          description: { field: "label" },
        },
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
          description: { field: "label" },
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
        encoding: {
          x: x("timeMs"),
          y: { field: "height", type: "quantitative" },
          text: { field: "label" },
          description: { field: "label" },
        },
      })),
    ],
  };
}

/** The proposals view: each proposal's deposit and voting bars on its own row, its final status after them. */
function proposalsView(t: ScenarioTimeline, x: TimeAxis): Record<string, unknown> {
  const order = [...new Set(t.proposals.map((p) => p.proposal))];
  const y = { field: "proposal", type: "nominal", sort: order, title: null, axis: { labelLimit: 160 } };
  return {
    width: TIMELINE_WIDTH,
    height: Math.max(24, 20 * order.length),
    layer: [
      {
        data: {
          values: t.proposals.map((p) => ({
            ...p,
            text: `${p.proposal}: ${p.phase} period ${clock(p.fromMs)} – ${clock(p.toMs)}`,
          })),
        },
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
          description: { field: "text" },
        },
      },
      {
        data: { values: t.outcomes.map((o) => ({ ...o, text: `${o.proposal}: ${o.status}` })) },
        mark: { type: "text", align: "left", dx: 4, fontSize: 10, color: "#24292f" },
        encoding: { x: x("timeMs", { scale: true }), y, text: { field: "status" }, description: { field: "text" } },
      },
    ],
  };
}

/**
 * The chart of `t`: the views of the file header, stacked with independent scales (each view declares the same
 * padded time domain once); `halts` are the run report's halts, whose reasons the lane markers' tooltips carry.
 */
export function timelineChart(t: ScenarioTimeline, halts: readonly HaltReason[] = []): VegaLiteSpec {
  const x = timeAxis(t);
  const views: Record<string, unknown>[] = [heightsView(t, x)];
  if (t.proposals.length > 0) views.push(proposalsView(t, x));
  views.push({ width: TIMELINE_WIDTH, ...laneView(t, halts, x) });
  const states = stateLayers(t, x);
  if (states.length > 0)
    views.push({
      width: TIMELINE_WIDTH,
      height: t.nodes.length * 18,
      title: { text: "each node: its state and binary", fontSize: 11, anchor: "start", color: "#57606a" },
      layer: states,
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
      legend: { labelFontSize: 11, titleFontSize: 11, labelLimit: 260 },
    },
  };
}
