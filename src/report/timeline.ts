import { parseRfc3339 } from "../core/go/time.js";
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
}

/** The lane of chain-wide events (stalls, upgrades applied or skipped). */
export const CHAIN_LANE = "chain";

type Ev = { readonly t: string } & Readonly<Record<string, unknown>>;

const timeOf = (v: unknown): number | undefined => {
  if (typeof v !== "string") return undefined;
  const r = parseRfc3339(v);
  return r.ok ? r.value : undefined;
};
const text = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));
const num = (v: unknown): number => (typeof v === "number" ? v : Number(v));

/** The name a proposal goes by in the charts: `#<id> <label>`. */
export const proposalName = (id: number | string, label: string | null): string =>
  label === null ? `#${id}` : `#${id} ${label}`;

/**
 * The timeline of one scenario run, read from its canonical trace (engine.ts events) and its run report. Times are
 * simulated Unix ms. The height curve has a point at every event that carries a time, so stalls show as flat
 * stretches; the first `start` events (before any block or step) are the genesis starts, not restarts. Pure.
 */
export function scenarioTimeline(r: ScenarioRecord): ScenarioTimeline {
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
  let genesisStarts = true;
  const at = (timeMs: number | undefined) => {
    if (timeMs === undefined) return;
    nowMs = Math.max(nowMs, timeMs);
    heights.push({ timeMs: nowMs, height });
  };
  for (const line of r.trace) {
    const e = JSON.parse(line) as Ev;
    switch (e.t) {
      case "genesis":
        nodes = (e.nodes as readonly { name: string }[]).map((n) => n.name);
        startMs = timeOf(e.time);
        at(startMs);
        break;
      case "start":
        at(timeOf(e.time));
        if (!genesisStarts)
          lanes.push({ lane: text(e.node), kind: "start", timeMs: nowMs, text: `start ${text(e.binary)}` });
        break;
      case "stop":
        at(timeOf(e.time));
        lanes.push({ lane: text(e.node), kind: "stop", timeMs: nowMs, text: "stop" });
        break;
      case "step":
        genesisStarts = false;
        at(timeOf(e.time));
        break;
      case "blocks": {
        genesisStarts = false;
        const from = num(e.from);
        const to = num(e.to);
        nowMs = Math.max(nowMs, num(e.timeFromMs));
        height = from;
        heights.push({ timeMs: nowMs, height });
        blockTimes.set(from, nowMs);
        height = to;
        nowMs = Math.max(nowMs, num(e.timeToMs));
        heights.push({ timeMs: nowMs, height });
        blockTimes.set(to, nowMs);
        break;
      }
      case "block": {
        genesisStarts = false;
        height = num(e.height);
        at(timeOf(e.time));
        blockTimes.set(height, nowMs);
        for (const g of e.gov as readonly { type: string; id: string }[])
          if (["passed", "rejected", "failed", "dropped", "cancelled"].includes(g.type)) endedAt.set(g.id, nowMs);
        for (const [key, applied] of [
          ["applied", true],
          ["skipped", false],
        ] as const) {
          if (typeof e[key] !== "string") continue;
          const name = e[key];
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
      case "plan": {
        const p = e.plan as { name: string; height: number } | null;
        planChanges.push({ timeMs: nowMs, plan: p === null ? null : { name: p.name, height: p.height } });
        break;
      }
      case "halt":
        at(timeOf(e.time));
        lanes.push({ lane: text(e.node), kind: "halt", timeMs: nowMs, text: `halt (${text(e.kind)})` });
        break;
      case "stall":
        at(timeOf(e.time));
        lanes.push({ lane: CHAIN_LANE, kind: "stall", timeMs: nowMs, text: `stall at ${text(e.height)}` });
        break;
      case "sidecar":
        at(timeOf(e.time));
        lanes.push(
          e.action === "swap"
            ? { lane: text(e.node), kind: "swap", timeMs: nowMs, text: `sidecar swap to ${text(e.binary)}` }
            : { lane: text(e.node), kind: "sidecar idle", timeMs: nowMs, text: `sidecar: ${text(e.reason)}` },
        );
        break;
      default:
        break;
    }
  }
  const final = timeOf(r.report.final.time);
  if (final !== undefined && final > nowMs) {
    nowMs = final;
    heights.push({ timeMs: nowMs, height });
  }
  const start = startMs ?? heights[0]?.timeMs ?? 0;
  const endMs = Math.max(nowMs, start + 1);

  const plans: PlanSpan[] = [];
  planChanges.forEach((c, i) => {
    if (c.plan === null) return;
    plans.push({ ...c.plan, fromMs: c.timeMs, toMs: planChanges[i + 1]?.timeMs ?? endMs });
  });

  const proposals: ProposalWindow[] = [];
  const outcomes: ProposalOutcome[] = [];
  for (const p of r.report.proposals) {
    const name = proposalName(p.id, p.label);
    const submitMs = blockTimes.get(p.submitHeight) ?? start;
    const votingStart = timeOf(p.votingStartTime);
    const votingEnd = timeOf(p.votingEndTime);
    const depositEnd = timeOf(p.depositEndTime);
    const ended = endedAt.get(String(p.id));
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
  return {
    name: r.report.name,
    startMs: start,
    endMs,
    nodes,
    heights,
    proposals,
    outcomes,
    plans,
    lanes,
    upgrades,
  };
}
