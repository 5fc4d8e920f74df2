/**
 * The model diagram: the xstate upgrade-lifecycle machine drawn as a node-link diagram with Vega-Lite (marks at
 * fixed positions on identity-like linear scales). States are boxes, grouped by parallel region; a transition that
 * changes state is an arrow between boxes, one that re-enters its state a loop under the box, and a targetless
 * (context-only) transition a line inside its source box (UML's internal transitions). Every transition is labelled
 * with how many times it fired in the campaign; the ones that never fired are red and dashed.
 */
import type { TransitionInfo } from "../../models/coverage.js";
import type { VegaLiteSpec } from "../explore/chart.js";

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
export const DIAGRAM_WIDTH = 1040;
const ROOT = "upgradeLifecycle";
const FIRED = "#0969da";
const NEVER = "#cf222e";
const INK = "#24292f";

interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** Fixed places of the known regions and states; unknown states go into an extra row (`layoutOf`). */
const REGIONS: Readonly<Record<string, Rect & { readonly title: string }>> = {
  plan: { x: 10, y: 10, w: 1020, h: 290, title: "plan region: the single plan slot of the upgrade store" },
  chain: { x: 10, y: 320, w: 630, h: 210, title: "chain region: consensus progress" },
  root: { x: 660, y: 320, w: 370, h: 210, title: "in every state (the machine's root)" },
};
const STATES: Readonly<Record<string, Rect & { readonly initial?: boolean }>> = {
  noneScheduled: { x: 70, y: 60, w: 260, h: 150, initial: true },
  scheduled: { x: 700, y: 60, w: 260, h: 150 },
  progressing: { x: 70, y: 380, w: 180, h: 48, initial: true },
  stalled: { x: 430, y: 380, w: 180, h: 48 },
  [ROOT]: { x: 690, y: 370, w: 310, h: 110 },
};
const EXTRA_ROW_Y = 550;
const LOOP_R = 15;
/** Arrowheads sit this far back from the end of their line, so that their tip touches it. */
const HEAD_BACK = 4;

/** The short name of a state node id (`upgradeLifecycle.plan.scheduled` → `scheduled`). */
export const stateName = (id: string): string => id.split(".").pop() ?? id;

/** The label of a transition without its source state: `<EVENT>.<label>`. */
export function transitionLabel(t: TransitionInfo): string {
  const prefix = `${stateName(t.source)}.`;
  return t.id.startsWith(prefix) ? t.id.slice(prefix.length) : t.id;
}

/** 12345 → "12,345" (locale-independent). */
export const thousands = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/**
 * Times each transition fired, by id; `null`: it fired but the count is unknown (a summary.json written before
 * summaries had counts). Missing ids count 0.
 */
export type TransitionCounts = Readonly<Record<string, number | null>>;

export const countText = (n: number | null): string =>
  n === null ? "fired" : n === 0 ? "never fired" : `${thousands(n)}×`;

/** The counts of a summary's coverage: its `counts`, or for an older summary fired (null) and missing (0). */
export function coverageCounts(
  c: { readonly missing: readonly string[]; readonly counts?: Readonly<Record<string, number>> },
  transitions: readonly TransitionInfo[],
): TransitionCounts {
  if (c.counts !== undefined) return c.counts;
  return Object.fromEntries(transitions.map((t) => [t.id, c.missing.includes(t.id) ? 0 : null]));
}

export type TransitionShape = "internal" | "self" | "edge";

/** How a transition is drawn: inside its box (no target), as a loop (its own state), or as an arrow. */
export function shapeOf(t: TransitionInfo): TransitionShape {
  const target = t.targets[0];
  if (target === undefined) return "internal";
  return target === t.source ? "self" : "edge";
}

export interface DiagramLayout {
  readonly height: number;
  readonly states: readonly (Rect & { readonly name: string; readonly initial: boolean })[];
}

/** Boxes for every state the transitions mention: the fixed layout, unknown states in a row below it. */
export function layoutOf(transitions: readonly TransitionInfo[]): DiagramLayout {
  const names = [...new Set(transitions.flatMap((t) => [t.source, ...t.targets]).map(stateName))];
  const known = names.filter((n) => STATES[n] !== undefined);
  const unknown = names.filter((n) => STATES[n] === undefined);
  const states = [
    ...known.map((name) => ({ name, initial: STATES[name]!.initial === true, ...STATES[name]! })),
    ...unknown.map((name, i) => ({
      name,
      initial: false,
      x: 70 + (i % 4) * 250,
      y: EXTRA_ROW_Y + Math.floor(i / 4) * 190,
      w: 220,
      h: 130,
    })),
  ];
  const rows = Math.ceil(unknown.length / 4);
  return { height: unknown.length === 0 ? 540 : EXTRA_ROW_Y + rows * 190, states };
}

interface Seg {
  readonly edge: string;
  readonly i: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly color: string;
}

/** A text mark at a point, in a colour. */
interface Label {
  readonly x: number;
  readonly y: number;
  readonly text: string;
  readonly color: string;
}

/**
 * The diagram's strokes as the drawing steps add them: line points (solid, or dashed for a transition that never
 * fired), arrowheads and labels, in the order drawn. A stroke's width grows with the log of its count, relative to the
 * largest count.
 */
class Strokes {
  readonly lines: Seg[] = [];
  readonly dashed: Seg[] = [];
  readonly heads: { x: number; y: number; angle: number; color: string }[] = [];
  readonly labels: Label[] = [];
  readonly #counts: TransitionCounts;
  readonly #max: number;

  constructor(transitions: readonly TransitionInfo[], counts: TransitionCounts) {
    this.#counts = counts;
    this.#max = Math.max(1, ...transitions.map((t) => this.count(t) ?? 0));
  }

  count(t: TransitionInfo): number | null {
    return t.id in this.#counts ? this.#counts[t.id]! : 0;
  }

  width(n: number | null): number {
    return n === 0 ? 1.2 : n === null ? 2.5 : 1.2 + (3.3 * Math.log10(1 + n)) / Math.log10(1 + this.#max);
  }

  color(n: number | null): string {
    return n === 0 ? NEVER : FIRED;
  }

  label(x: number, y: number, text: string, c: string): void {
    this.labels.push({ x, y, text, color: c });
  }

  /** A polyline with an arrowhead at its end; `n` is the count it stands for, "marker" for an initial marker. */
  path(edge: string, pts: readonly (readonly [number, number])[], n: number | null | "marker"): void {
    const c = n === "marker" ? INK : this.color(n);
    const w = n === "marker" ? 1.5 : this.width(n);
    for (const [i, [x, y]] of pts.entries())
      (n === 0 ? this.dashed : this.lines).push({ edge, i, x, y, width: w, color: c });
    const [x1, y1] = pts[pts.length - 2]!;
    const [x2, y2] = pts[pts.length - 1]!;
    // triangle-up rotated clockwise by `angle` degrees points along (sin, -cos).
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    this.heads.push({
      x: x2 - ((x2 - x1) * HEAD_BACK) / len,
      y: y2 - ((y2 - y1) * HEAD_BACK) / len,
      angle: (Math.atan2(x2 - x1, -(y2 - y1)) * 180) / Math.PI,
      color: c,
    });
  }
}

type Box = DiagramLayout["states"][number];

/** Arrows between two boxes: horizontal, stacked down the boxes' shared band, forward (left to right) first. */
function drawEdges(s: Strokes, transitions: readonly TransitionInfo[], box: ReadonlyMap<string, Box>): void {
  const pairs = new Map<string, TransitionInfo[]>();
  for (const t of transitions.filter((t) => shapeOf(t) === "edge")) {
    const [a, b] = [stateName(t.source), stateName(t.targets[0]!)].sort((p, q) => box.get(p)!.x - box.get(q)!.x);
    const key = `${a}|${b}`;
    pairs.set(key, [...(pairs.get(key) ?? []), t]);
  }
  for (const [key, ts] of pairs) {
    const [a, b] = key.split("|").map((n) => box.get(n!)!);
    const ordered = [...ts].sort(
      (p, q) => Number(stateName(p.source) !== a!.name) - Number(stateName(q.source) !== a!.name),
    );
    const top = Math.max(a!.y, b!.y) + (a!.h > 60 ? 38 : 14);
    const bottom = Math.min(a!.y + a!.h, b!.y + b!.h) - (a!.h > 60 ? 8 : 8);
    ordered.forEach((t, i) => {
      const y = ordered.length === 1 ? (top + bottom) / 2 : top + ((bottom - top) * i) / (ordered.length - 1);
      const forward = stateName(t.source) === a!.name;
      const [x1, x2] = forward ? [a!.x + a!.w, b!.x - 2] : [b!.x, a!.x + a!.w + 2];
      s.path(t.id, [[x1, y] as const, [x2, y] as const], s.count(t));
      s.label(
        (a!.x + a!.w + b!.x) / 2,
        y - 4,
        `${transitionLabel(t)}  ·  ${countText(s.count(t))}`,
        s.color(s.count(t)),
      );
    });
  }
}

/** Loops under a box: one loop per state, its transitions listed under it. */
function drawLoops(s: Strokes, transitions: readonly TransitionInfo[], layout: DiagramLayout): void {
  for (const b of layout.states) {
    const loops = transitions.filter((t) => shapeOf(t) === "self" && stateName(t.source) === b.name);
    if (loops.length === 0) continue;
    const cx = b.x + b.w / 2;
    const bottom = b.y + b.h;
    const known = loops.map((t) => s.count(t)).filter((n): n is number => n !== null);
    const total = known.length < loops.length && known.every((n) => n === 0) ? null : known.reduce((a, b) => a + b, 0);
    // A circle of radius LOOP_R centred under the box, cut by the box's bottom edge, run from its left cut point
    // down and round to its right one. Angles are clockwise from "up".
    const cy = bottom + LOOP_R * 0.8;
    const cut = Math.acos(0.8);
    const pts = Array.from({ length: 25 }, (_, k) => {
      const a = -cut - ((2 * Math.PI - 2 * cut) * k) / 24;
      return [cx + LOOP_R * Math.sin(a), cy - LOOP_R * Math.cos(a)] as const;
    });
    s.path(`${b.name}-loop`, pts, total);
    for (const [i, t] of loops.entries())
      s.label(
        cx,
        bottom + 2 * LOOP_R + 22 + 15 * i,
        `↻ ${transitionLabel(t)}  ·  ${countText(s.count(t))}`,
        s.color(s.count(t)),
      );
  }
}

/** Initial-state markers: a dot left of each initial box and an arrow into the box; returns the dots. */
function drawInitialMarkers(s: Strokes, layout: DiagramLayout): { x: number; y: number }[] {
  const dots = layout.states.filter((b) => b.initial).map((b) => ({ x: b.x - 34, y: b.y + b.h / 2 }));
  for (const d of dots)
    s.path(
      `init-${d.x}-${d.y}`,
      [
        [d.x, d.y],
        [d.x + 32, d.y],
      ],
      "marker",
    );
  return dots;
}

/** Inside the boxes: a rule under the title, then each internal transition with its count on the right. */
function boxInsides(s: Strokes, transitions: readonly TransitionInfo[], layout: DiagramLayout) {
  const rules: { x: number; x2: number; y: number }[] = [];
  const internal: Label[] = [];
  const internalCounts: Label[] = [];
  for (const b of layout.states) {
    const inner = transitions.filter((t) => shapeOf(t) === "internal" && stateName(t.source) === b.name);
    if (inner.length === 0) continue;
    rules.push({ x: b.x, x2: b.x + b.w, y: b.y + 30 });
    inner.forEach((t, i) => {
      const y = b.y + 48 + 17 * i;
      internal.push({ x: b.x + 10, y, text: transitionLabel(t), color: s.count(t) === 0 ? NEVER : INK });
      internalCounts.push({ x: b.x + b.w - 10, y, text: countText(s.count(t)), color: s.color(s.count(t)) });
    });
  }
  return { rules, internal, internalCounts };
}

/**
 * The Vega-Lite spec of the drawn diagram (positions in pixels on identity-like scales), layers bottom up: regions
 * and their titles, boxes, their rules, titles and internal transitions, the lines (solid, then dashed), the
 * arrowheads, the initial dots, and the transition labels.
 */
function diagramSpec(
  layout: DiagramLayout,
  s: Strokes,
  dots: readonly { x: number; y: number }[],
  insides: ReturnType<typeof boxInsides>,
): VegaLiteSpec {
  const { rules, internal, internalCounts } = insides;
  const boxes = layout.states.map((b) => ({ ...b, x2: b.x + b.w, y2: b.y + b.h }));
  const titles = layout.states.map((b) => ({
    x: b.x + b.w / 2,
    y: b.y + (b.h > 60 ? 20 : b.h / 2 + 5),
    text: b.name === ROOT ? `${ROOT} (any state)` : b.name,
  }));
  const regions = Object.values(REGIONS).map((r) => ({ ...r, x2: r.x + r.w, y2: r.y + r.h }));
  const X = { type: "quantitative", scale: { domain: [0, DIAGRAM_WIDTH], nice: false, zero: false }, axis: null };
  const Y = {
    type: "quantitative",
    scale: { domain: [0, layout.height], nice: false, zero: false, reverse: true },
    axis: null,
  };
  const at = { x: { field: "x", ...X }, y: { field: "y", ...Y } };
  const raw = (field: string) => ({ field, type: "nominal", scale: null });
  const text = (values: readonly unknown[], mark: Record<string, unknown>, colorField?: string) => ({
    data: { values },
    mark: { type: "text", baseline: "alphabetic", fontSize: 11, ...mark },
    encoding: { ...at, text: { field: "text" }, ...(colorField === undefined ? {} : { color: raw(colorField) }) },
  });
  const polyline = (values: readonly Seg[], dash?: number[]) => ({
    data: { values },
    mark: { type: "line", interpolate: "monotone", ...(dash === undefined ? {} : { strokeDash: dash }) },
    encoding: {
      ...at,
      detail: { field: "edge", type: "nominal" },
      order: { field: "i", type: "quantitative" },
      color: raw("color"),
      strokeWidth: { field: "width", type: "quantitative", scale: null },
    },
  });
  return {
    $schema: SCHEMA,
    background: "white",
    width: DIAGRAM_WIDTH,
    height: layout.height,
    padding: 4,
    autosize: { type: "none" },
    config: { view: { stroke: null }, font: "Helvetica, Arial, sans-serif" },
    layer: [
      {
        data: { values: regions },
        mark: { type: "rect", fill: "#f6f8fa", stroke: "#d0d7de", cornerRadius: 6 },
        encoding: { ...at, x2: { field: "x2" }, y2: { field: "y2" } },
      },
      text(
        regions.map((r) => ({ x: r.x + 12, y: r.y + 20, text: r.title })),
        { align: "left", fontSize: 12, fontStyle: "italic", color: "#57606a" },
      ),
      {
        data: { values: boxes },
        mark: { type: "rect", fill: "white", stroke: INK, strokeWidth: 1.3, cornerRadius: 10 },
        encoding: { ...at, x2: { field: "x2" }, y2: { field: "y2" } },
      },
      {
        data: { values: rules },
        mark: { type: "rule", color: "#d0d7de" },
        encoding: { ...at, x2: { field: "x2" } },
      },
      text(titles, { align: "center", fontSize: 14, fontWeight: "bold", color: INK }),
      text(internal, { align: "left" }, "color"),
      text(internalCounts, { align: "right" }, "color"),
      polyline(s.lines),
      polyline(s.dashed, [5, 4]),
      {
        data: { values: s.heads },
        mark: { type: "point", shape: "triangle-up", filled: true, size: 70, opacity: 1 },
        encoding: { ...at, angle: { field: "angle", type: "quantitative", scale: null }, color: raw("color") },
      },
      {
        data: { values: dots },
        mark: { type: "point", shape: "circle", filled: true, size: 90, color: INK, opacity: 1 },
        encoding: at,
      },
      text(s.labels, { align: "center" }, "color"),
    ],
  };
}

/**
 * Vega-Lite spec of the diagram with each transition's count.
 *
 * 1. Lay out the boxes (`layoutOf`).
 * 2. Draw the arrows between boxes, the loops under them and the initial markers, in that order (`Strokes`).
 * 3. Fill the boxes with their internal transitions, and assemble the layers (`diagramSpec`).
 */
export function modelDiagram(transitions: readonly TransitionInfo[], counts: TransitionCounts): VegaLiteSpec {
  const layout = layoutOf(transitions);
  const s = new Strokes(transitions, counts);
  drawEdges(s, transitions, new Map(layout.states.map((b) => [b.name, b])));
  drawLoops(s, transitions, layout);
  const dots = drawInitialMarkers(s, layout);
  return diagramSpec(layout, s, dots, boxInsides(s, transitions, layout));
}
