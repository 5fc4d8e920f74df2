import type { CoverageReport } from "../../models/coverage.js";
import { coverageFromIds } from "../../models/coverage.js";
import { assert } from "../core/assert.js";
import {
  type CampaignOptions,
  type CampaignUnit,
  DEFAULT_MAX_COMMANDS,
  GENERATION_SAMPLES,
  RUNS_PER_UNIT,
} from "./campaign-units.js";
import type { Property } from "./property.js";
import { emptyRegionCounts, mergeRegionCounts, type RegionCounts } from "./regions.js";
import type { Counterexample, PropertyOutcome } from "./run-property.js";
import { type GenerationStatistics, generationStatistics } from "./statistics.js";

/**
 * The result of a check campaign, folded from its units' fates in run order: per unit its status, per property
 * its runs, failures, counterexample and regions, and for the campaign the transition counts, coverage,
 * generation statistics and verdict. The failure rule (which units must not run) is shared with the runners of
 * campaign.ts, so the fold drops exactly what they skip.
 */

export interface UnitResult {
  readonly unit: CampaignUnit;
  readonly status: "passed" | "failed" | "crashed" | "skipped-after-failure" | "skipped-time-limit";
  readonly runs: number;
  readonly interrupted: boolean;
  readonly wallMs: number;
}

export interface PropertyResult {
  readonly property: string;
  readonly text: string;
  readonly units: readonly UnitResult[];
  readonly runs: number;
  /** Failed units (a property stops after its first failure in a shard: 0 or 1). */
  readonly failures: number;
  readonly commands: number;
  readonly wallMs: number;
  readonly runsPerS: number;
  readonly passed: boolean;
  /** A unit was interrupted or skipped by the time limit. */
  readonly interrupted: boolean;
  readonly counterexample?: Counterexample;
  /** A harness crash (not a property violation). */
  readonly error?: string;
  readonly regions: RegionCounts;
}

export type Verdict = "passed" | "failed" | "crashed";

export interface CampaignResult {
  readonly options: Required<Omit<CampaignOptions, "timeLimitMs" | "properties" | "bail" | "sharedPrefixes">> & {
    readonly timeLimitMs: number | null;
    /** How runs shared prefixes; absent when they did not (every run independent). */
    readonly sharedPrefixes?: NonNullable<CampaignOptions["sharedPrefixes"]>;
    /** The names of the properties checked. */
    readonly properties: readonly string[];
  };
  readonly unitsTotal: number;
  readonly unitsInShard: number;
  readonly properties: readonly PropertyResult[];
  readonly fired: readonly string[];
  /**
   * Transition id → how many times it fired, over every session the campaign drove (shrink runs included, like
   * `fired`); sorted by id. The report draws the model with these counts.
   */
  readonly transitionCounts: Readonly<Record<string, number>>;
  readonly coverage: CoverageReport;
  readonly regions: RegionCounts;
  readonly generation: GenerationStatistics | null;
  readonly runs: number;
  readonly failures: number;
  readonly commands: number;
  readonly wallMs: number;
  readonly runsPerS: number;
  readonly verdict: Verdict;
}

/** What running one unit gave, as plain data (a worker thread sends it back; runUnit). */
export interface UnitOutcome {
  readonly outcome: PropertyOutcome;
  /** Regions reached by the generated runs (not the shrink runs). */
  readonly regions: RegionCounts;
  /** Transition id → times it fired, over every session the unit drove (shrink runs included). */
  readonly firedCounts: readonly (readonly [string, number])[];
  readonly wallMs: number;
}

/** A unit's fate in a campaign: run (its outcome), or not run for want of time. */
export type Fate = UnitOutcome | "time-limit" | undefined;

const perSecond = (runs: number, ms: number) => (ms <= 0 ? 0 : Math.round((runs * 100_000) / ms) / 100);

/** The status a unit's outcome gives it. */
export const statusOf = (u: UnitOutcome): UnitResult["status"] =>
  u.outcome.error !== undefined ? "crashed" : u.outcome.passed ? "passed" : "failed";

/**
 * Which units must not run: those after a failed unit of their property (one counterexample per property is
 * enough), and with `bail` every unit after any failure. Fed the fates in run order (a runner that starts units in
 * run order has only ever seen units before the one it is about to start), so both runners and the fold apply the
 * same rule, and a unit that ran too early for a failure noted later is dropped by the fold.
 */
export class FailureRule {
  readonly #failed = new Set<Property>();
  readonly #bail: boolean;
  constructor(bail: boolean) {
    this.#bail = bail;
  }
  note(unit: CampaignUnit, fate: Fate): void {
    if (fate !== undefined && fate !== "time-limit" && statusOf(fate) !== "passed") this.#failed.add(unit.property);
  }
  skips(unit: CampaignUnit): boolean {
    return this.#failed.has(unit.property) || (this.#bail && this.#failed.size > 0);
  }
}

/** What the fold gathers for one property from its units. */
interface PropertyAcc {
  readonly units: UnitResult[];
  commands: number;
  regions: RegionCounts;
  counterexample?: Counterexample;
  error?: string;
}

/** The units' fates in run order (FailureRule), gathered per property, with the transitions fired. */
interface Folded {
  readonly acc: ReadonlyMap<Property, PropertyAcc>;
  readonly fired: ReadonlySet<string>;
  readonly firedCounts: ReadonlyMap<string, number>;
}

function foldUnits(o: CampaignOptions, order: readonly CampaignUnit[], fates: readonly Fate[]): Folded {
  const fired = new Set<string>();
  const firedCounts = new Map<string, number>();
  const acc = new Map<Property, PropertyAcc>(
    o.properties.map((p) => [p, { units: [], commands: 0, regions: emptyRegionCounts() }]),
  );
  const rule = new FailureRule(o.bail === true);
  for (const [i, unit] of order.entries()) {
    const a = acc.get(unit.property)!;
    const fate = fates[i];
    const skip = (status: UnitResult["status"]) =>
      a.units.push({ unit, status, runs: 0, interrupted: status === "skipped-time-limit", wallMs: 0 });
    if (rule.skips(unit)) {
      skip("skipped-after-failure");
      continue;
    }
    rule.note(unit, fate);
    if (fate === "time-limit") {
      skip("skipped-time-limit");
      continue;
    }
    assert(fate !== undefined, `unit ${unit.index} neither ran nor was skipped`);
    const { outcome } = fate;
    for (const [id, n] of fate.firedCounts) firedCounts.set(id, (firedCounts.get(id) ?? 0) + n);
    for (const id of outcome.fired) fired.add(id);
    a.regions = mergeRegionCounts(a.regions, fate.regions);
    a.commands += outcome.commandsRun;
    if (outcome.error !== undefined) a.error = outcome.error;
    if (outcome.counterexample !== undefined) a.counterexample = outcome.counterexample;
    a.units.push({
      unit,
      status: statusOf(fate),
      runs: outcome.runs,
      interrupted: outcome.interrupted,
      wallMs: fate.wallMs,
    });
  }
  return { acc, fired, firedCounts };
}

function propertyResult(property: Property, a: PropertyAcc): PropertyResult {
  const runs = a.units.reduce((n, u) => n + u.runs, 0);
  const wallMs = a.units.reduce((n, u) => n + u.wallMs, 0);
  const failures = a.units.filter((u) => u.status === "failed" || u.status === "crashed").length;
  return {
    property: property.name,
    text: property.statement,
    units: a.units,
    runs,
    failures,
    commands: a.commands,
    wallMs,
    runsPerS: perSecond(runs, wallMs),
    passed: failures === 0,
    interrupted: a.units.some((u) => u.interrupted),
    ...(a.counterexample === undefined ? {} : { counterexample: a.counterexample }),
    ...(a.error === undefined ? {} : { error: a.error }),
    regions: a.regions,
  };
}

/** The options as the result records them: every default filled in, properties by name. */
const resultOptions = (o: CampaignOptions): CampaignResult["options"] => ({
  seed: o.seed,
  properties: o.properties.map((p) => p.name),
  runsPerProperty: o.runsPerProperty,
  runsPerUnit: Math.max(1, o.runsPerUnit ?? RUNS_PER_UNIT),
  shard: o.shard ?? { index: 1, count: 1 },
  faults: [...(o.faults ?? [])],
  maxCommands: o.maxCommands ?? DEFAULT_MAX_COMMANDS,
  timeLimitMs: o.timeLimitMs ?? null,
  generationSamples: o.generationSamples ?? GENERATION_SAMPLES,
  ...(o.sharedPrefixes === undefined ? {} : { sharedPrefixes: o.sharedPrefixes }),
});

/** Aggregates the units' fates in run order (FailureRule) into the campaign's result. */
export function foldCampaign(
  o: CampaignOptions,
  all: readonly CampaignUnit[],
  order: readonly CampaignUnit[],
  fates: readonly Fate[],
  wallMs: number,
): CampaignResult {
  const { acc, fired, firedCounts } = foldUnits(o, order, fates);
  const properties = o.properties.map((property) => propertyResult(property, acc.get(property)!));
  const options = resultOptions(o);
  const generation =
    options.generationSamples > 0
      ? generationStatistics({ seed: o.seed, samples: options.generationSamples, maxCommands: options.maxCommands })
      : null;
  const runs = properties.reduce((n, p) => n + p.runs, 0);
  const sortedFired = [...fired].sort();
  return {
    options,
    unitsTotal: all.length,
    unitsInShard: order.length,
    properties,
    fired: sortedFired,
    transitionCounts: Object.fromEntries([...firedCounts].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))),
    coverage: coverageFromIds(sortedFired),
    regions: properties.reduce((r, p) => mergeRegionCounts(r, p.regions), emptyRegionCounts()),
    generation,
    runs,
    failures: properties.reduce((n, p) => n + p.failures, 0),
    commands: properties.reduce((n, p) => n + p.commands, 0),
    wallMs,
    runsPerS: perSecond(runs, wallMs),
    verdict: properties.some((p) => p.error !== undefined)
      ? "crashed"
      : properties.every((p) => p.passed)
        ? "passed"
        : "failed",
  };
}
