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

/** Vega-Lite spec of the diagram with each transition's count. */
export function modelDiagram(transitions: readonly TransitionInfo[], counts: TransitionCounts): VegaLiteSpec {
  const layout = layoutOf(transitions);
  const box = new Map(layout.states.map((s) => [s.name, s]));
  const count = (t: TransitionInfo): number | null => (t.id in counts ? counts[t.id]! : 0);
  const max = Math.max(1, ...transitions.map((t) => count(t) ?? 0));
  const width = (n: number | null) =>
    n === 0 ? 1.2 : n === null ? 2.5 : 1.2 + (3.3 * Math.log10(1 + n)) / Math.log10(1 + max);
  const color = (n: number | null) => (n === 0 ? NEVER : FIRED);

  const lines: Seg[] = [];
  const dashed: Seg[] = [];
  const heads: { x: number; y: number; angle: number; color: string }[] = [];
  const labels: { x: number; y: number; text: string; color: string }[] = [];
  const label = (x: number, y: number, text: string, c: string): void => {
    labels.push({ x, y, text, color: c });
  };
  /** A polyline with an arrowhead at its end; `n` is the count it stands for, "marker" for an initial marker. */
  const path = (edge: string, pts: readonly (readonly [number, number])[], n: number | null | "marker") => {
    const c = n === "marker" ? INK : color(n);
    const w = n === "marker" ? 1.5 : width(n);
    for (const [i, [x, y]] of pts.entries()) (n === 0 ? dashed : lines).push({ edge, i, x, y, width: w, color: c });
    const [x1, y1] = pts[pts.length - 2]!;
    const [x2, y2] = pts[pts.length - 1]!;
    // triangle-up rotated clockwise by `angle` degrees points along (sin, -cos).
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    heads.push({
      x: x2 - ((x2 - x1) * HEAD_BACK) / len,
      y: y2 - ((y2 - y1) * HEAD_BACK) / len,
      angle: (Math.atan2(x2 - x1, -(y2 - y1)) * 180) / Math.PI,
      color: c,
    });
  };

  // Arrows between two boxes: horizontal, stacked down the boxes' shared band, forward (left to right) first.
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
      path(t.id, [[x1, y] as const, [x2, y] as const], count(t));
      label((a!.x + a!.w + b!.x) / 2, y - 4, `${transitionLabel(t)}  ·  ${countText(count(t))}`, color(count(t)));
    });
  }

  // Loops under a box: one loop per state, its transitions listed under it.
  for (const s of layout.states) {
    const loops = transitions.filter((t) => shapeOf(t) === "self" && stateName(t.source) === s.name);
    if (loops.length === 0) continue;
    const cx = s.x + s.w / 2;
    const bottom = s.y + s.h;
    const known = loops.map(count).filter((n): n is number => n !== null);
    const total = known.length < loops.length && known.every((n) => n === 0) ? null : known.reduce((a, b) => a + b, 0);
    // A circle of radius LOOP_R centred under the box, cut by the box's bottom edge, run from its left cut point
    // down and round to its right one. Angles are clockwise from "up".
    const cy = bottom + LOOP_R * 0.8;
    const cut = Math.acos(0.8);
    const pts = Array.from({ length: 25 }, (_, k) => {
      const a = -cut - ((2 * Math.PI - 2 * cut) * k) / 24;
      return [cx + LOOP_R * Math.sin(a), cy - LOOP_R * Math.cos(a)] as const;
    });
    path(`${s.name}-loop`, pts, total);
    for (const [i, t] of loops.entries())
      label(
        cx,
        bottom + 2 * LOOP_R + 22 + 15 * i,
        `↻ ${transitionLabel(t)}  ·  ${countText(count(t))}`,
        color(count(t)),
      );
  }

  // Initial-state markers: a dot and an arrow into the box.
  const dots = layout.states.filter((s) => s.initial).map((s) => ({ x: s.x - 34, y: s.y + s.h / 2 }));
  for (const d of dots)
    path(
      `init-${d.x}-${d.y}`,
      [
        [d.x, d.y],
        [d.x + 32, d.y],
      ],
      "marker",
    );

  // Boxes: title, a rule, the internal transitions with their counts.
  const boxes = layout.states.map((s) => ({ ...s, x2: s.x + s.w, y2: s.y + s.h }));
  const titles = layout.states.map((s) => ({
    x: s.x + s.w / 2,
    y: s.y + (s.h > 60 ? 20 : s.h / 2 + 5),
    text: s.name === ROOT ? `${ROOT} (any state)` : s.name,
  }));
  const rules: { x: number; x2: number; y: number }[] = [];
  const internal: { x: number; y: number; text: string; color: string }[] = [];
  const internalCounts: { x: number; y: number; text: string; color: string }[] = [];
  for (const s of layout.states) {
    const inner = transitions.filter((t) => shapeOf(t) === "internal" && stateName(t.source) === s.name);
    if (inner.length === 0) continue;
    rules.push({ x: s.x, x2: s.x + s.w, y: s.y + 30 });
    inner.forEach((t, i) => {
      const y = s.y + 48 + 17 * i;
      internal.push({ x: s.x + 10, y, text: transitionLabel(t), color: count(t) === 0 ? NEVER : INK });
      internalCounts.push({ x: s.x + s.w - 10, y, text: countText(count(t)), color: color(count(t)) });
    });
  }
  const regions = Object.values(REGIONS).map((r) => ({ ...r, x2: r.x + r.w, y2: r.y + r.h }));

  const X = { type: "quantitative", scale: { domain: [0, DIAGRAM_WIDTH], nice: false, zero: false }, axis: null };
  const Y = {
    type: "quantitative",
    scale: { domain: [0, layout.height], nice: false, zero: false, reverse: true },
    axis: null,
  };
  const at = { x: { field: "x", ...X }, y: { field: "y", ...Y } };
  const raw = (field: string) => ({ field, type: "nominal", scale: null });
  const text = (values: unknown[], mark: Record<string, unknown>, colorField?: string) => ({
    data: { values },
    mark: { type: "text", baseline: "alphabetic", fontSize: 11, ...mark },
    encoding: { ...at, text: { field: "text" }, ...(colorField === undefined ? {} : { color: raw(colorField) }) },
  });
  const polyline = (values: Seg[], dash?: number[]) => ({
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
      polyline(lines),
      polyline(dashed, [5, 4]),
      {
        data: { values: heads },
        mark: { type: "point", shape: "triangle-up", filled: true, size: 70, opacity: 1 },
        encoding: { ...at, angle: { field: "angle", type: "quantitative", scale: null }, color: raw("color") },
      },
      {
        data: { values: dots },
        mark: { type: "point", shape: "circle", filled: true, size: 90, color: INK, opacity: 1 },
        encoding: at,
      },
      text(labels, { align: "center" }, "color"),
    ],
  };
}
