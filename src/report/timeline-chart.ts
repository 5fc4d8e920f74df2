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

/** A halt as the run report lists it: the reason the timeline's lane event does not carry. */
export interface HaltReason {
  readonly node: string;
  readonly height: number;
  readonly kind: string;
  readonly message: string;
}

const STALL_COLOR = "#bc4c00";

/** Halt kinds, each its own colour in the lanes (all crosses, so a halt reads as a halt whatever its kind). */
export const HALT_KINDS_SHOWN: readonly { kind: string; color: string }[] = [
  { kind: "upgrade-needed", color: "#cf222e" },
  { kind: "binary-too-early", color: "#e16f24" },
  { kind: "downgrade", color: "#a40e26" },
  { kind: "handler-error", color: "#8c1bab" },
  { kind: "upgrade-info-write-failed", color: "#d4a72c" },
  { kind: "store-load-failed", color: "#6639ba" },
  { kind: "app-hash-mismatch", color: "#24292f" },
];

/** A marker on a lane: `kind` is its legend entry (a halt's is `halt: <kind>`), `text` its tooltip. */
interface LaneMark {
  readonly lane: string;
  readonly kind: string;
  readonly timeMs: number;
  readonly text: string;
}

const clock = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");

/** The lane markers: every lane event but stalls (drawn as intervals), halts by kind and with their reason. */
export function laneMarks(t: ScenarioTimeline, halts: readonly HaltReason[]): LaneMark[] {
  const pending = new Map<string, HaltReason[]>();
  for (const h of halts) pending.set(h.node, [...(pending.get(h.node) ?? []), h]);
  const out: LaneMark[] = [];
  for (const e of t.lanes) {
    if (e.kind === "stall") continue;
    if (e.kind !== "halt") {
      out.push({ lane: e.lane, kind: e.kind, timeMs: e.timeMs, text: `${e.lane}: ${e.text} at ${clock(e.timeMs)}` });
      continue;
    }
    const reason = pending.get(e.lane)?.shift();
    const kind = reason?.kind ?? /\(([^)]+)\)/.exec(e.text)?.[1] ?? "unknown";
    const where = reason === undefined ? "" : ` at height ${reason.height}`;
    const why = reason === undefined ? "" : `: ${reason.message}`;
    out.push({
      lane: e.lane,
      kind: `halt: ${kind}`,
      timeMs: e.timeMs,
      text: `${e.lane} halted (${kind})${where}${why}`,
    });
  }
  return out;
}

/** Legend entries of the kinds present, in legend order. */
function markKinds(marks: readonly LaneMark[]): { kind: string; color: string; shape: string }[] {
  const all = [
    ...HALT_KINDS_SHOWN.map((h) => ({ kind: `halt: ${h.kind}`, color: h.color, shape: "cross" })),
    { kind: "halt: unknown", color: "#cf222e", shape: "cross" },
    ...LANE_KINDS.filter((k) => k.kind !== "halt" && k.kind !== "stall"),
  ];
  return all.filter((k) => marks.some((m) => m.kind === k.kind));
}

/** A stretch of simulated time during which the chain committed nothing. */
export interface StallInterval {
  readonly fromMs: number;
  readonly toMs: number;
  readonly text: string;
}

/**
 * The chain's stalls as intervals: from the first stall event until the height next rises (or the end of the run).
 * Repeated stall events within one interval (every retry of the same block) are one interval.
 */
export function stallIntervals(t: ScenarioTimeline): StallInterval[] {
  const out: StallInterval[] = [];
  const stalls = t.lanes.filter((e) => e.kind === "stall").sort((a, b) => a.timeMs - b.timeMs);
  let i = 0;
  while (i < stalls.length) {
    const fromMs = stalls[i]!.timeMs;
    const before = t.heights.filter((p) => p.timeMs <= fromMs).at(-1)?.height ?? 0;
    const resumed = t.heights.find((p) => p.timeMs > fromMs && p.height > before);
    const toMs = resumed?.timeMs ?? t.endMs;
    const text =
      resumed === undefined
        ? `chain stalled at height ${before} from ${clock(fromMs)} to the end of the run`
        : `chain stalled at height ${before} from ${clock(fromMs)} until ${clock(toMs)}`;
    out.push({ fromMs, toMs, text });
    while (i < stalls.length && stalls[i]!.timeMs <= toMs) i++;
    if (resumed === undefined) break;
  }
  return out;
}

export function timelineChart(t: ScenarioTimeline, halts: readonly HaltReason[] = []): VegaLiteSpec {
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
    });
  }
  const lanes = [...t.nodes, CHAIN_LANE];
  const marksOnLanes = laneMarks(t, halts);
  const used = markKinds(marksOnLanes);
  const stalls = stallIntervals(t);
  const laneY = { field: "lane", type: "nominal", sort: lanes, scale: { domain: lanes }, title: null };
  views.push({
    width: TIMELINE_WIDTH,
    // Every kind used gets its own row inside a lane, so markers at the same instant stay apart.
    height: lanes.length * Math.max(24, 11 * used.length),
    layer: [
      {
        data: { values: stalls },
        mark: { type: "rect", color: STALL_COLOR, opacity: 0.22 },
        encoding: {
          x: x("fromMs", { scale: true, axis: true }),
          x2: { field: "toMs" },
          y: { datum: CHAIN_LANE, type: "nominal" },
          description: { field: "text" },
        },
      },
      {
        data: { values: marksOnLanes },
        mark: { type: "point", filled: true, size: 80, opacity: 0.9 },
        encoding: {
          x: x("timeMs"),
          y: laneY,
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
          yOffset: { field: "kind", type: "nominal", scale: { domain: used.map((k) => k.kind), paddingOuter: 0.5 } },
          description: { field: "text" },
        },
      },
    ],
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
