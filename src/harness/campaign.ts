import { sha256 } from "@noble/hashes/sha2.js";
import { type CoverageReport, coverageFromIds } from "../../models/coverage.js";
import { assert } from "../core/assert.js";
import { utf8 } from "../core/bytes.js";
import type { Fault } from "../faults/index.js";
import type { Property } from "./property.js";
import { addSession, emptyRegionCounts, mergeRegionCounts, type RegionCounts } from "./regions.js";
import { type Counterexample, type PropertyOutcome, type PropertyRunOptions, runProperty } from "./run-property.js";
import { type GenerationStatistics, generationStatistics } from "./statistics.js";

/**
 * A check campaign: every selected property checked for `runsPerProperty` runs (times its `runsMultiplier`).
 *
 * Work units and sharding. A property's runs are cut into units of `runsPerUnit` runs (the last one shorter), after a
 * ramp of smaller units when `runsPerUnit` is at least 10 (a tenth, a fifth, a half of it: `unitSizes`), so that every
 * property gets its first runs early and a campaign that is going to fail usually fails within its first second; unit
 * `b` of property `p` is one `fc.check` with the seed `unitSeed(seed, p, b)` (sha256 of "chainsim-check/<seed>/<p>/<b>",
 * first 4 bytes, 31 bits). The units, listed property by property (in the order given) and block by block, do not
 * depend on the shard count. Shard `i/N` (1-based) runs the units whose index `k` has `k mod N = i - 1`. So the
 * shards of any N partition exactly the units one machine (`1/1`) runs: the same seeds, the same run counts, hence
 * the same runs. Within a shard, once a property fails its later units are skipped (shrinking dominates; one
 * counterexample per property is enough), so the union is exact only for properties that pass. A shard runs its units
 * block by block (every property's first block, the model-comparing ones first; then every property's second, ...).
 *
 * Time limit: the campaign's wall budget is handed out unit by unit: each unit may use up to TIME_SLACK times its
 * fair share (the time left divided by the units left; never more than the time left), through fast-check's
 * interruptAfterTimeLimit, so that a unit slower than average is not cut while most units finish early; when no
 * time is left, the remaining units are skipped.
 */
export const TIME_SLACK = 2;
export const RUNS_PER_UNIT = 50;
export const DEFAULT_MAX_COMMANDS = 30;
export const GENERATION_SAMPLES = 1000;

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

export interface CampaignOptions {
  readonly seed: number;
  /** The properties to check, in report order (the harness names none: `properties/index.ts` lists them). */
  readonly properties: readonly Property[];
  readonly runsPerProperty: number;
  readonly runsPerUnit?: number;
  readonly shard?: Shard;
  readonly faults?: readonly Fault[];
  readonly maxCommands?: number;
  readonly timeLimitMs?: number;
  /**
   * Stop at the first failing run: that failure is not shrunk and every later unit is skipped. For a detector that
   * needs a verdict, not a counterexample (mutation testing); the campaign's result is the same pass/fail.
   */
  readonly bail?: boolean;
  /** Sequences sampled for the generation statistics (0 = none). */
  readonly generationSamples?: number;
}

export interface CampaignUnit {
  /** Index in the campaign's canonical unit list (the shard key). */
  readonly index: number;
  readonly property: Property;
  readonly block: number;
  readonly seed: number;
  readonly numRuns: number;
}

export interface CampaignProgress {
  readonly property: string;
  /** Generated runs done in this shard (shrink runs are not counted). */
  readonly done: number;
  readonly total: number;
  readonly failures: number;
}

export interface CampaignHooks {
  /** Wall clock in ms (injected: the core never reads the host clock). */
  readonly clock: () => number;
  readonly onProgress?: (p: CampaignProgress) => void;
  /** Replaces `runProperty` (tests). */
  readonly runProperty?: (o: PropertyRunOptions) => PropertyOutcome;
}

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
  readonly options: Required<Omit<CampaignOptions, "timeLimitMs" | "properties" | "bail">> & {
    readonly timeLimitMs: number | null;
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

/** The fast-check seed of unit `block` of `property` in campaign `seed`. */
export function unitSeed(seed: number, property: string, block: number): number {
  const h = sha256(utf8(`chainsim-check/${seed}/${property}/${block}`));
  return ((h[0]! << 24) | (h[1]! << 16) | (h[2]! << 8) | h[3]!) >>> 1;
}

/**
 * The run counts of one property's units, in block order: `runs` in all, in units of `per` (the last one shorter),
 * after a ramp of a tenth, a fifth and a half of `per` when `per` is at least 10.
 */
export function unitSizes(runs: number, per: number): number[] {
  const ramp = per >= 10 ? [Math.floor(per / 10), Math.floor(per / 5), Math.floor(per / 2)] : [];
  const out: number[] = [];
  for (let left = runs, block = 0; left > 0; block++) {
    const size = Math.min(ramp[block] ?? per, left);
    out.push(size);
    left -= size;
  }
  return out;
}

/** Every unit of the campaign, in canonical order (independent of the shard). */
export function campaignUnits(o: CampaignOptions): CampaignUnit[] {
  const per = Math.max(1, o.runsPerUnit ?? RUNS_PER_UNIT);
  const out: CampaignUnit[] = [];
  for (const property of o.properties) {
    const multiplier = property.runsMultiplier ?? 1;
    assert(
      Number.isSafeInteger(multiplier) && multiplier >= 1,
      `${property.name}: runsMultiplier is a whole number ≥ 1`,
    );
    unitSizes(o.runsPerProperty * multiplier, per).forEach((numRuns, block) => {
      out.push({ index: out.length, property, block, seed: unitSeed(o.seed, property.name, block), numRuns });
    });
  }
  return out;
}

/** The units shard `i/N` runs. */
export function shardUnits(units: readonly CampaignUnit[], shard: Shard): CampaignUnit[] {
  return units.filter((u) => u.index % shard.count === shard.index - 1);
}

const perSecond = (runs: number, ms: number) => (ms <= 0 ? 0 : Math.round((runs * 100_000) / ms) / 100);

/**
 * A unit as plain data: everything a worker thread needs to run it (the property by name, resolved from the
 * registry there). `timeLimitMs` is the unit's share of the campaign's budget.
 */
export interface UnitTask {
  /** Index in the campaign's canonical unit list. */
  readonly index: number;
  readonly property: string;
  readonly seed: number;
  readonly numRuns: number;
  readonly faults?: readonly Fault[];
  readonly maxCommands: number;
  readonly timeLimitMs?: number;
  readonly endOnFailure?: boolean;
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

/** The unit's run options for `runProperty`. */
const propertyRun = (t: UnitTask, property: Property): PropertyRunOptions => ({
  property,
  seed: t.seed,
  numRuns: t.numRuns,
  ...(t.faults === undefined || t.faults.length === 0 ? {} : { faults: t.faults }),
  maxCommands: t.maxCommands,
  ...(t.timeLimitMs === undefined ? {} : { timeLimitMs: t.timeLimitMs }),
  ...(t.endOnFailure === true ? { endOnFailure: true } : {}),
});

/**
 * Runs one unit: a pure function of the task (and the property it names), whichever thread runs it.
 * `onGeneratedRun` is called after each generated run (not the shrink runs), with whether it passed.
 */
export function runUnit(
  task: UnitTask,
  property: Property,
  o: {
    readonly clock: () => number;
    readonly runProperty?: (o: PropertyRunOptions) => PropertyOutcome;
    readonly onGeneratedRun?: (passed: boolean) => void;
  },
): UnitOutcome {
  const t0 = o.clock();
  const firedCounts = new Map<string, number>();
  let regions = emptyRegionCounts();
  let unitFailed = false;
  const outcome = (o.runProperty ?? runProperty)({
    ...propertyRun(task, property),
    onSession: (session, passed) => {
      for (const [id, n] of session.firedCounts) firedCounts.set(id, (firedCounts.get(id) ?? 0) + n);
      if (unitFailed) return; // shrink runs
      regions = addSession(regions, session);
      if (!passed) unitFailed = true;
      o.onGeneratedRun?.(passed);
    },
  });
  return { outcome, regions, firedCounts: [...firedCounts], wallMs: o.clock() - t0 };
}

/** Runs units, as a pool of worker threads does: `run` resolves with the unit's outcome. */
export interface UnitRunner {
  /** How many units may run at once. */
  readonly concurrency: number;
  run(task: UnitTask): Promise<UnitOutcome>;
}

/** A unit's fate in a campaign: run (its outcome), or not run for want of time. */
type Fate = UnitOutcome | "time-limit" | undefined;

/**
 * The shard's units in run order: block by block, so that a time limit cuts every property alike; within a block, the
 * properties with the larger `runsMultiplier` first (those that compare the chain with an independent model, which
 * find most bugs, so that a failing campaign fails sooner), then in the order given. The order decides only which
 * failure `bail` stops at and what a time limit leaves out: a unit's runs depend on its seed alone.
 */
function runOrder(o: CampaignOptions, all: readonly CampaignUnit[]): CampaignUnit[] {
  const weight = (u: CampaignUnit): number => u.property.runsMultiplier ?? 1;
  return shardUnits(all, o.shard ?? { index: 1, count: 1 }).sort(
    (x, y) => x.block - y.block || weight(y) - weight(x) || x.index - y.index,
  );
}

/** The status a unit's outcome gives it. */
const statusOf = (u: UnitOutcome): UnitResult["status"] =>
  u.outcome.error !== undefined ? "crashed" : u.outcome.passed ? "passed" : "failed";

/**
 * Which units must not run: those after a failed unit of their property (one counterexample per property is
 * enough), and with `bail` every unit after any failure. Fed the fates in run order (a runner that starts units in
 * run order has only ever seen units before the one it is about to start), so both runners and the fold apply the
 * same rule, and a unit that ran too early for a failure noted later is dropped by the fold.
 */
class FailureRule {
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

/** The unit's task, with its share of the time left: up to TIME_SLACK times a fair share among `slots` runners. */
function taskOf(o: CampaignOptions, unit: CampaignUnit, left: number, msLeft: number, slots: number): UnitTask {
  const budget = Number.isFinite(msLeft)
    ? Math.max(1, Math.floor(Math.min(msLeft, (TIME_SLACK * msLeft * slots) / left)))
    : undefined;
  return {
    index: unit.index,
    property: unit.property.name,
    seed: unit.seed,
    numRuns: unit.numRuns,
    ...(o.faults === undefined || o.faults.length === 0 ? {} : { faults: o.faults }),
    maxCommands: o.maxCommands ?? DEFAULT_MAX_COMMANDS,
    ...(budget === undefined ? {} : { timeLimitMs: budget }),
    ...(o.bail === true ? { endOnFailure: true } : {}),
  };
}

/**
 * What both runners share: the shard's units in run order, the deadline, the fates so far and the failure rule.
 * `task(i)` decides whether unit `i` starts (units are asked in run order).
 */
class Dispatch {
  readonly all: readonly CampaignUnit[];
  readonly order: readonly CampaignUnit[];
  readonly total: number;
  readonly #o: CampaignOptions;
  readonly #clock: () => number;
  readonly #start: number;
  readonly #deadline: number;
  readonly #fates: Fate[] = [];
  readonly #rule: FailureRule;

  constructor(o: CampaignOptions, clock: () => number) {
    this.#o = o;
    this.#clock = clock;
    this.all = campaignUnits(o);
    this.order = runOrder(o, this.all);
    this.total = this.order.reduce((n, u) => n + u.numRuns, 0);
    this.#start = clock();
    this.#deadline = o.timeLimitMs === undefined ? Number.POSITIVE_INFINITY : this.#start + o.timeLimitMs;
    this.#rule = new FailureRule(o.bail === true);
  }

  /** Unit `i`'s task with its share of the time among `slots` runners; undefined when it does not run. */
  task(i: number, slots: number): UnitTask | undefined {
    const unit = this.order[i]!;
    if (this.#rule.skips(unit)) return undefined;
    const now = this.#clock();
    if (now >= this.#deadline) {
      this.#fates[i] = "time-limit";
      return undefined;
    }
    return taskOf(this.#o, unit, this.order.length - i, this.#deadline - now, slots);
  }

  record(i: number, fate: UnitOutcome): void {
    this.#fates[i] = fate;
    this.#rule.note(this.order[i]!, fate);
  }

  result(): CampaignResult {
    return foldCampaign(this.#o, this.all, this.order, this.#fates, this.#clock() - this.#start);
  }
}

/** Runs the shard's units in order, in this thread, and aggregates them. */
export function runCampaign(o: CampaignOptions, hooks: CampaignHooks): CampaignResult {
  const d = new Dispatch(o, hooks.clock);
  let done = 0;
  let failures = 0;
  for (const [i, unit] of d.order.entries()) {
    const task = d.task(i, 1);
    if (task === undefined) continue;
    let unitFailed = false;
    const fate = runUnit(task, unit.property, {
      clock: hooks.clock,
      ...(hooks.runProperty === undefined ? {} : { runProperty: hooks.runProperty }),
      onGeneratedRun: (passed) => {
        done++;
        if (!passed) {
          unitFailed = true;
          failures++;
        }
        hooks.onProgress?.({ property: unit.property.name, done, total: d.total, failures });
      },
    });
    if (statusOf(fate) !== "passed" && !unitFailed) failures++;
    d.record(i, fate);
  }
  return d.result();
}

/**
 * Runs the shard's units on `runner` (worker threads), up to `runner.concurrency` at once, and aggregates them. The
 * result equals runCampaign's for the same options whatever the concurrency (without a time limit): units start in
 * run order, a unit is skipped as runCampaign would skip it (FailureRule, over the units finished so far), and
 * outcomes are folded in run order. Progress is reported per finished unit.
 */
export async function runCampaignOn(
  o: CampaignOptions,
  hooks: Omit<CampaignHooks, "runProperty">,
  runner: UnitRunner,
): Promise<CampaignResult> {
  const d = new Dispatch(o, hooks.clock);
  let done = 0;
  let failures = 0;
  let nextUnit = 0;
  const slots = Math.max(1, runner.concurrency);
  const lane = async (): Promise<void> => {
    while (nextUnit < d.order.length) {
      const i = nextUnit++;
      const task = d.task(i, slots);
      if (task === undefined) continue;
      const fate = await runner.run(task);
      d.record(i, fate);
      done += fate.regions.runs;
      if (statusOf(fate) !== "passed") failures++;
      hooks.onProgress?.({ property: d.order[i]!.property.name, done, total: d.total, failures });
    }
  };
  await Promise.all(Array.from({ length: Math.min(slots, d.order.length) }, lane));
  return d.result();
}

/** Aggregates the units' fates in run order (FailureRule) into the campaign's result. */
function foldCampaign(
  o: CampaignOptions,
  all: readonly CampaignUnit[],
  order: readonly CampaignUnit[],
  fates: readonly Fate[],
  wallMs: number,
): CampaignResult {
  const shard = o.shard ?? { index: 1, count: 1 };
  const fired = new Set<string>();
  const firedCounts = new Map<string, number>();
  interface Acc {
    units: UnitResult[];
    commands: number;
    regions: RegionCounts;
    counterexample?: Counterexample;
    error?: string;
  }
  const acc = new Map<Property, Acc>(
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

  const properties: PropertyResult[] = o.properties.map((property) => {
    const a = acc.get(property)!;
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
  });
  const samples = o.generationSamples ?? GENERATION_SAMPLES;
  const maxCommands = o.maxCommands ?? DEFAULT_MAX_COMMANDS;
  const generation = samples > 0 ? generationStatistics({ seed: o.seed, samples, maxCommands }) : null;
  const runs = properties.reduce((n, p) => n + p.runs, 0);
  const sortedFired = [...fired].sort();
  return {
    options: {
      seed: o.seed,
      properties: o.properties.map((p) => p.name),
      runsPerProperty: o.runsPerProperty,
      runsPerUnit: Math.max(1, o.runsPerUnit ?? RUNS_PER_UNIT),
      shard,
      faults: [...(o.faults ?? [])],
      maxCommands,
      timeLimitMs: o.timeLimitMs ?? null,
      generationSamples: samples,
    },
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
