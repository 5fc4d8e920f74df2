/**
 * The lanes view of a scenario's timeline chart (timeline-chart.ts): one lane per node and one for the chain. A lane
 * shows its events as markers (halts coloured by kind and carrying the run report's reason, stops, starts, sidecar
 * swaps, upgrades applied or skipped), each kind on its own row of the lane so markers at one instant stay apart, and
 * the chain's stalls as shaded intervals.
 *
 * 1. `laneMarks`: the markers, halts matched in order with the run report's halts of the same node.
 * 2. `stallIntervals`: the stall events folded into intervals that end when the height next rises.
 * 3. `laneRows`: each kind's row inside a lane.
 * 4. `laneView`: the Vega-Lite view of the three, with a legend of the kinds that occur.
 */
import { CHAIN_LANE, type LaneEventKind, type ScenarioTimeline } from "./timeline.js";

/**
 * The time axis of one view of the chart (built by timeline-chart.ts): the x encoding of `field`; the scale (the
 * padded domain) is declared once per view (`scale`), the axis drawn only under the last view (`axis`).
 */
export type TimeAxis = (
  field: string,
  o?: { readonly scale?: boolean; readonly axis?: boolean },
) => Record<string, unknown>;

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

/** A halt as the run report lists it: the reason the timeline's lane event does not carry. */
export interface HaltReason {
  readonly node: string;
  readonly height: number;
  readonly kind: string;
  readonly message: string;
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

/** The stall intervals' fill: light, so the markers on the chain's lane stay visible over it. */
const STALL_COLOR = "#f2cdb4";

/** A simulated instant as RFC 3339 UTC, whole seconds without a fraction. */
export const clock = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");

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

/**
 * The lanes view (its height and layers; the chart sets the width): one lane per node and the chain's last, the stall intervals behind the markers, and a legend of the
 * kinds that occur (the stalls' entry after the markers'). The view's time scale is declared on the markers, and the
 * time axis is drawn under this view.
 */
export function laneView(t: ScenarioTimeline, halts: readonly HaltReason[], x: TimeAxis): Record<string, unknown> {
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
  return {
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
  };
}
