import type { GovBlockEvent } from "../app/types.js";
import { foldTrace, isGenesisStart } from "../chain/trace-events.js";
import { parseRfc3339 } from "../core/go/time.js";
import { type NodeSpan, nodeSpans } from "./node-spans.js";
import { savedTraceEvents } from "./trace-read.js";
import type { ScenarioRecord } from "./types.js";

/** One point of the height curve: the committed height at a simulated instant. */
export interface HeightPoint {
  readonly timeMs: number;
  readonly height: number;
}

/** A deposit or voting period of one proposal (a bar of the Gantt chart). */
export interface ProposalWindow {
  readonly proposal: string;
  readonly phase: "deposit" | "voting";
  readonly fromMs: number;
  readonly toMs: number;
}

/** How a proposal ended (its status in the run report), placed where its last window ends. */
export interface ProposalOutcome {
  readonly proposal: string;
  readonly status: string;
  readonly timeMs: number;
}

/** The committed plan while it stood: `name` at `height`, from `fromMs` until `toMs` (cleared or end of run). */
export interface PlanSpan {
  readonly name: string;
  readonly height: number;
  readonly fromMs: number;
  readonly toMs: number;
}

export type LaneEventKind = "halt" | "stop" | "start" | "swap" | "sidecar idle" | "stall" | "applied" | "skipped";

/** A point on a node's lane (or the chain's lane, `CHAIN_LANE`). */
export interface LaneEvent {
  readonly lane: string;
  readonly kind: LaneEventKind;
  readonly timeMs: number;
  readonly text: string;
}

/** An upgrade applied (handler ran) or skipped at a height. */
export interface UpgradeMark {
  readonly name: string;
  readonly height: number;
  readonly timeMs: number;
  readonly applied: boolean;
}

export interface ScenarioTimeline {
  readonly name: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly nodes: readonly string[];
  readonly heights: readonly HeightPoint[];
  readonly proposals: readonly ProposalWindow[];
  readonly outcomes: readonly ProposalOutcome[];
  readonly plans: readonly PlanSpan[];
  readonly lanes: readonly LaneEvent[];
  readonly upgrades: readonly UpgradeMark[];
  /** Each node's state and binary over time (node-spans.ts). */
  readonly spans: readonly NodeSpan[];
}

/** The lane of chain-wide events (stalls, upgrades applied or skipped). */
export const CHAIN_LANE = "chain";

const timeOf = (v: string | null): number | undefined => {
  if (v === null) return undefined;
  const r = parseRfc3339(v);
  return r.ok ? r.value : undefined;
};

/** The name a proposal goes by in the charts: `#<id> <label>`. */
export const proposalName = (id: number | string, label: string | null): string =>
  label === null ? `#${id}` : `#${id} ${label}`;

const ENDED: ReadonlySet<GovBlockEvent["kind"]> = new Set(["passed", "rejected", "failed", "dropped", "cancelled"]);

/** What the trace alone says: the height curve, the lane events, the upgrades and when things happened. */
interface TraceFacts {
  readonly nodes: readonly string[];
  readonly startMs: number | undefined;
  /** The latest simulated instant the trace reached. */
  readonly nowMs: number;
  /** The last committed height. */
  readonly height: number;
  readonly heights: HeightPoint[];
  readonly lanes: readonly LaneEvent[];
  readonly upgrades: readonly UpgradeMark[];
  /** Each committed height's time. */
  readonly blockTimes: ReadonlyMap<number, number>;
  /** When each proposal (by id) passed, was rejected, failed, dropped or was cancelled. */
  readonly endedAt: ReadonlyMap<string, number>;
  /** The plan as it changed: set (name and height) or cleared (null), in order. */
  readonly planChanges: readonly { readonly timeMs: number; readonly plan: { name: string; height: number } | null }[];
}

/**
 * Folds the trace into `TraceFacts`: the height curve has a point at every event that carries a time (so stalls
 * show as flat stretches); genesis starts are no restarts (`isGenesisStart`).
 */
function traceFacts(events: ReturnType<typeof savedTraceEvents>): TraceFacts {
  const heights: HeightPoint[] = [];
  const lanes: LaneEvent[] = [];
  const upgrades: UpgradeMark[] = [];
  const blockTimes = new Map<number, number>();
  const endedAt = new Map<string, number>();
  const planChanges: { timeMs: number; plan: { name: string; height: number } | null }[] = [];
  let nodes: string[] = [];
  let startMs: number | undefined;
  let nowMs = 0;
  let height = 0;
  const at = (timeMs: number | undefined) => {
    if (timeMs === undefined) return;
    nowMs = Math.max(nowMs, timeMs);
    heights.push({ timeMs: nowMs, height });
  };
  foldTrace(events, undefined, (_, e, before) => {
    switch (e.kind) {
      case "genesis":
        nodes = e.nodes.map((n) => n.name);
        startMs = e.timeMs;
        at(startMs);
        break;
      case "start":
        at(e.timeMs);
        if (!isGenesisStart(before, e))
          lanes.push({ lane: e.node, kind: "start", timeMs: nowMs, text: `start ${e.binary}` });
        break;
      case "stop":
        at(e.timeMs);
        lanes.push({ lane: e.node, kind: "stop", timeMs: nowMs, text: "stop" });
        break;
      case "step":
        at(e.timeMs);
        break;
      case "blocks": {
        nowMs = Math.max(nowMs, e.timeFromMs);
        height = e.from;
        heights.push({ timeMs: nowMs, height });
        blockTimes.set(e.from, nowMs);
        height = e.to;
        nowMs = Math.max(nowMs, e.timeToMs);
        heights.push({ timeMs: nowMs, height });
        blockTimes.set(e.to, nowMs);
        break;
      }
      case "block": {
        height = e.height;
        at(e.timeMs);
        blockTimes.set(height, nowMs);
        for (const g of e.gov) if (ENDED.has(g.kind)) endedAt.set(String(g.id), nowMs);
        for (const [name, applied] of [
          [e.applied, true],
          [e.skipped, false],
        ] as const) {
          if (name === undefined) continue;
          upgrades.push({ name, height, timeMs: nowMs, applied });
          lanes.push({
            lane: CHAIN_LANE,
            kind: applied ? "applied" : "skipped",
            timeMs: nowMs,
            text: `${name} ${applied ? "applied" : "skipped"} at ${height}`,
          });
        }
        break;
      }
      case "plan":
        planChanges.push({
          timeMs: nowMs,
          plan: e.plan === null ? null : { name: e.plan.name, height: e.plan.height },
        });
        break;
      case "halt":
        at(e.timeMs);
        lanes.push({ lane: e.node, kind: "halt", timeMs: nowMs, text: `halt (${e.haltKind})` });
        break;
      case "stall":
        at(e.timeMs);
        lanes.push({ lane: CHAIN_LANE, kind: "stall", timeMs: nowMs, text: `stall at ${e.height}` });
        break;
      case "sidecar":
        if (e.action === "swap") {
          at(e.timeMs);
          lanes.push({ lane: e.node, kind: "swap", timeMs: nowMs, text: `sidecar swap to ${e.binary}` });
        } else lanes.push({ lane: e.node, kind: "sidecar idle", timeMs: nowMs, text: `sidecar: ${e.reason}` });
        break;
    }
    return undefined;
  });
  return { nodes, startMs, nowMs, height, heights, lanes, upgrades, blockTimes, endedAt, planChanges };
}

/** The plan's spans: each plan set stands until the next change, or the end of the run. */
function planSpans(changes: TraceFacts["planChanges"], endMs: number): PlanSpan[] {
  const plans: PlanSpan[] = [];
  changes.forEach((c, i) => {
    if (c.plan === null) return;
    plans.push({ ...c.plan, fromMs: c.timeMs, toMs: changes[i + 1]?.timeMs ?? endMs });
  });
  return plans;
}

/**
 * Each proposal's deposit and voting windows (from its submit block, clipped at its end and the run's) and its
 * outcome, placed where it ended or its last window ends.
 */
function proposalPeriods(
  r: ScenarioRecord,
  f: TraceFacts,
  startMs: number,
  endMs: number,
): { proposals: ProposalWindow[]; outcomes: ProposalOutcome[] } {
  const proposals: ProposalWindow[] = [];
  const outcomes: ProposalOutcome[] = [];
  for (const p of r.report.proposals) {
    const name = proposalName(p.id, p.label);
    const submitMs = f.blockTimes.get(p.submitHeight) ?? startMs;
    const votingStart = timeOf(p.votingStartTime);
    const votingEnd = timeOf(p.votingEndTime);
    const depositEnd = timeOf(p.depositEndTime);
    const ended = f.endedAt.get(String(p.id));
    const clip = (t: number) => Math.min(t, ended ?? t, endMs);
    const depositTo = clip(votingStart ?? depositEnd ?? endMs);
    proposals.push({ proposal: name, phase: "deposit", fromMs: submitMs, toMs: Math.max(submitMs, depositTo) });
    let last = depositTo;
    if (votingStart !== undefined) {
      const votingTo = clip(votingEnd ?? endMs);
      proposals.push({ proposal: name, phase: "voting", fromMs: votingStart, toMs: Math.max(votingStart, votingTo) });
      last = votingTo;
    }
    outcomes.push({ proposal: name, status: p.status, timeMs: ended ?? last });
  }
  return { proposals, outcomes };
}

/**
 * The timeline of one scenario run, read from its trace and its run report. Times are simulated Unix ms. The height
 * curve has a point at every event that carries a time, so stalls show as flat stretches; genesis starts are no
 * restarts (`isGenesisStart`). Pure.
 *
 * 1. Fold the trace (`traceFacts`).
 * 2. Extend the curve to the run report's final time, if later.
 * 3. The plan spans and the proposal windows, clipped at the end of the run.
 */
export function scenarioTimeline(r: ScenarioRecord): ScenarioTimeline {
  const events = savedTraceEvents(r.trace);
  const f = traceFacts(events);
  const heights = f.heights;
  let nowMs = f.nowMs;
  const final = timeOf(r.report.final.time);
  if (final !== undefined && final > nowMs) {
    nowMs = final;
    heights.push({ timeMs: nowMs, height: f.height });
  }
  const start = f.startMs ?? heights[0]?.timeMs ?? 0;
  const endMs = Math.max(nowMs, start + 1);
  const { proposals, outcomes } = proposalPeriods(r, f, start, endMs);
  return {
    name: r.report.name,
    startMs: start,
    endMs,
    nodes: f.nodes,
    heights,
    proposals,
    outcomes,
    plans: planSpans(f.planChanges, endMs),
    lanes: f.lanes,
    upgrades: f.upgrades,
    spans: nodeSpans(events, endMs),
  };
}
