import type { Fault } from "../faults/index.js";
import {
  type CampaignResult,
  FailureRule,
  type Fate,
  foldCampaign,
  statusOf,
  type UnitOutcome,
} from "./campaign-result.js";
import {
  type CampaignOptions,
  type CampaignUnit,
  campaignUnits,
  DEFAULT_MAX_COMMANDS,
  shardUnits,
} from "./campaign-units.js";
import type { Property } from "./property.js";
import { addSession, emptyRegionCounts } from "./regions.js";
import { type PropertyOutcome, type PropertyRunOptions, runProperty } from "./run-property.js";
import type { SharedPrefixOptions } from "./shared-prefix.js";

// The names the cli and the report import from this module (defined beside it, in campaign-*.ts).
export type { CampaignResult, UnitOutcome, Verdict } from "./campaign-result.js";
export {
  type CampaignOptions,
  campaignUnits,
  DEFAULT_MAX_COMMANDS,
  RUNS_PER_UNIT,
  type Shard,
  shardUnits,
} from "./campaign-units.js";

/**
 * A check campaign: every selected property checked for `runsPerProperty` runs (times its `runsMultiplier`), in
 * units (campaign-units.ts: how runs are cut into units and shards), their outcomes folded into one result
 * (campaign-result.ts).
 *
 * Time limit: the campaign's wall budget is handed out unit by unit: each unit may use up to TIME_SLACK times its
 * fair share (the time left divided by the units left; never more than the time left), through fast-check's
 * interruptAfterTimeLimit, so that a unit slower than average is not cut while most units finish early; when no
 * time is left, the remaining units are skipped.
 */

export const TIME_SLACK = 2;

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
  /** Runs share prefixes (shared-prefix.ts), the families the campaign's: drawn from its seed. */
  readonly sharedPrefixes?: SharedPrefixOptions & { readonly campaignSeed: number };
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
  ...(t.sharedPrefixes === undefined ? {} : { sharedPrefixes: t.sharedPrefixes }),
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
    ...(o.sharedPrefixes === undefined ? {} : { sharedPrefixes: { ...o.sharedPrefixes, campaignSeed: o.seed } }),
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
