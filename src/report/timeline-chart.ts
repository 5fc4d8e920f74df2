/**
 * The Vega-Lite chart of one scenario's timeline: three views over the same simulated-time axis. Heights: the
 * committed height against time, the plan height as a dashed rule while the plan stands, upgrades applied or skipped
 * as diamonds. Proposals: each proposal's deposit and voting periods as bars, its final status at the end. Lanes:
 * per node (and the chain) the halts (coloured by kind), stops, starts, sidecar swaps and upgrades as markers, each
 * kind on its own row of the lane, and the chain's stalls as shaded intervals.
 */
import type { VegaLiteSpec } from "../explore/chart.js";
import type { NodeState } from "./node-spans.js";
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

/** The stall intervals' fill: light, so the markers on the chain's lane stay visible over it. */
const STALL_COLOR = "#f2cdb4";

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
function stateLayers(
  t: ScenarioTimeline,
  x: (field: string, o?: { readonly scale?: boolean }) => Record<string, unknown>,
): object[] {
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

/**
 * Each kind's row inside a lane, so markers at the same instant stay apart. Node lanes share one set of rows (a kind
 * sits at the same height in every node's lane) and the chain lane has its own; the smaller set is centred on the
 * larger. `rows` is the number of rows every lane needs.
 */
export function laneRows(
  marks: readonly LaneMark[],
  kinds: readonly string[],
  chainLane: string,
): { readonly rows: number; readonly rowOf: (m: LaneMark) => number } {
  const inGroup = (chain: boolean) =>
    kinds.filter((k) => marks.some((m) => m.kind === k && (m.lane === chainLane) === chain));
  const nodeKinds = inGroup(false);
  const chainKinds = inGroup(true);
  const rows = Math.max(1, nodeKinds.length, chainKinds.length);
  const place = (group: readonly string[]) =>
    new Map(group.map((k, i) => [k, (rows - group.length) / 2 + i + 0.5] as const));
  const nodeRow = place(nodeKinds);
  const chainRow = place(chainKinds);
  return { rows, rowOf: (m) => (m.lane === chainLane ? chainRow : nodeRow).get(m.kind) ?? 0 };
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

/** The legend entry of the chain's stall intervals. */
const STALL_KIND = "stall (no block)";

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
  const stalls = stallIntervals(t);
  // The stall intervals get a legend entry too (a square in their colour), after the markers' kinds.
  const used = [
    ...markKinds(marksOnLanes),
    ...(stalls.length === 0 ? [] : [{ kind: STALL_KIND, color: STALL_COLOR, shape: "square" }]),
  ];
  const { rows, rowOf } = laneRows(
    marksOnLanes,
    used.map((k) => k.kind),
    CHAIN_LANE,
  );
  /** Pixels per lane: room for every row. */
  const laneStep = Math.max(24, 11 * rows);
  const laneY = { field: "lane", type: "nominal", sort: lanes, scale: { domain: lanes }, title: null };
  views.push({
    width: TIMELINE_WIDTH,
    height: lanes.length * laneStep,
    layer: [
      {
        data: { values: stalls },
        mark: { type: "rect", height: Math.round(0.8 * laneStep) },
        encoding: {
          // (The time scale is declared on the markers: declared on a mark with x2, vega-lite reads its domain twice.)
          x: x("fromMs"),
          x2: { field: "toMs" },
          y: { datum: CHAIN_LANE, type: "nominal" },
          color: { datum: STALL_KIND, type: "nominal" },
          description: { field: "text" },
        },
      },
      {
        data: { values: marksOnLanes.map((m) => ({ ...m, row: rowOf(m) })) },
        mark: { type: "point", filled: true, size: 80, opacity: 0.9 },
        encoding: {
          x: x("timeMs", { scale: true, axis: true }),
          y: laneY,
          color: {
            field: "kind",
            type: "nominal",
            title: "event",
            scale: { domain: used.map((k) => k.kind), range: used.map((k) => k.color) },
            legend: used.length === 0 ? null : { orient: "right", symbolOpacity: 1 },
          },
          shape: {
            field: "kind",
            type: "nominal",
            scale: { domain: used.map((k) => k.kind), range: used.map((k) => k.shape) },
          },
          // Every kind used in a lane has its own row there (laneRows).
          yOffset: { field: "row", type: "quantitative", scale: { domain: [0, rows] } },
          description: { field: "text" },
        },
      },
    ],
  });
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
