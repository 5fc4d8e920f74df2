import type { Session } from "./session.js";

/**
 * Runtime regions (FoundationDB's CODE_PROBE, Antithesis `sometimes`): what a property run actually reached on the
 * real chain, read from its session after the run. A campaign counts the runs that reached each region, so a
 * report shows whether the generated sequences exercise the rare paths at all.
 */
export const REGIONS = {
  "upgrade-applied": "a handler ran and the upgrade was applied",
  "halt-upgrade-needed": "a node halted with UPGRADE NEEDED",
  "halt-binary-too-early": "a node halted with BINARY UPDATED BEFORE TRIGGER",
  "cancel-cleared-plan": "a cancel executed while a plan was scheduled and cleared it",
  stall: "the chain stalled (a block could not get more than 2/3 of the power)",
  "app-hash-mismatch": "a node halted on an app-hash mismatch (diverged state)",
} as const;

export type RegionName = keyof typeof REGIONS;
export const REGION_NAMES = Object.keys(REGIONS) as RegionName[];

/** The regions one session reached. */
export function sessionRegions(s: Session): ReadonlySet<RegionName> {
  const out = new Set<RegionName>();
  if (s.blocks.some((b) => b.applied !== null)) out.add("upgrade-applied");
  for (const h of s.sim.halts) {
    if (h.kind === "upgrade-needed") out.add("halt-upgrade-needed");
    else if (h.kind === "binary-too-early") out.add("halt-binary-too-early");
    else if (h.kind === "app-hash-mismatch") out.add("app-hash-mismatch");
  }
  const byHeight = new Map(s.blocks.map((b) => [b.height, b]));
  for (const e of s.execs) {
    if (!e.ok || !e.msgs.some((m) => m.kind === "cancelUpgrade")) continue;
    const b = byHeight.get(e.height);
    if (b !== undefined && b.planBefore !== null && b.applied === null && s.planAfter(e.height) === null) {
      out.add("cancel-cleared-plan");
      break;
    }
  }
  if (s.tracePosition.stalls > 0) out.add("stall");
  return out;
}

/** Simulated progress of one session: committed height and chain time since genesis (feature 23). */
export function sessionSimulated(s: Session): { readonly heights: number; readonly chainMs: number } {
  return { heights: s.sim.height, chainMs: s.sim.nowMs - s.tracePosition.genesisTimeMs };
}

/** Region counters of a campaign (or one property): how many observed runs reached each region. */
export interface RegionCounts {
  /** Runs observed (generated runs up to and including a property's first failure; shrink runs are not counted). */
  readonly runs: number;
  readonly hits: Readonly<Record<RegionName, number>>;
  /** Simulated blocks and chain time over the observed runs. */
  readonly simHeights: number;
  readonly simChainMs: number;
}

export const emptyRegionCounts = (): RegionCounts => ({
  runs: 0,
  hits: Object.fromEntries(REGION_NAMES.map((r) => [r, 0])) as Record<RegionName, number>,
  simHeights: 0,
  simChainMs: 0,
});

/** Adds one session to the counters (returns new counters). */
export function addSession(c: RegionCounts, s: Session): RegionCounts {
  const reached = sessionRegions(s);
  const sim = sessionSimulated(s);
  return {
    runs: c.runs + 1,
    hits: Object.fromEntries(REGION_NAMES.map((r) => [r, c.hits[r] + (reached.has(r) ? 1 : 0)])) as Record<
      RegionName,
      number
    >,
    simHeights: c.simHeights + sim.heights,
    simChainMs: c.simChainMs + sim.chainMs,
  };
}

export function mergeRegionCounts(a: RegionCounts, b: RegionCounts): RegionCounts {
  return {
    runs: a.runs + b.runs,
    hits: Object.fromEntries(REGION_NAMES.map((r) => [r, a.hits[r] + b.hits[r]])) as Record<RegionName, number>,
    simHeights: a.simHeights + b.simHeights,
    simChainMs: a.simChainMs + b.simChainMs,
  };
}

/** Percentages of observed runs per region, rounded to 0.01. */
export function regionPercentages(c: RegionCounts): Record<RegionName, number> {
  return Object.fromEntries(
    REGION_NAMES.map((r) => [r, c.runs === 0 ? 0 : Math.round((c.hits[r] * 10000) / c.runs) / 100]),
  ) as Record<RegionName, number>;
}
