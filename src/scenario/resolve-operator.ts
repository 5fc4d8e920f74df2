import type {
  Calendar,
  CosmovisorOperator,
  DurationDistribution,
  EarlyAction,
  ManualOperator,
  OperatorConfig,
} from "../app/operator.js";
import { assert } from "../core/assert.js";
import {
  type DistributionDocument,
  durationTextMs,
  type OperatorDocument,
  WEEKDAYS,
  WORKING_HOURS,
} from "./operator-schema.js";

/**
 * A node's validated `operator` block (operator-schema.ts) as the model (src/app/operator.ts), with cosmovisor's
 * defaults (docs/fidelity.md §4.6). `nodes.default.operator` is merged under the node's own, one level deep: a
 * node's `cosmovisor` keys override the default's one by one, and likewise `manual`.
 */

const ms = (text: string): number => {
  const v = durationTextMs(text);
  assert(v !== undefined, "durations are validated before resolving");
  return v;
};

export function resolveDistribution(d: DistributionDocument): DurationDistribution {
  if (typeof d === "string") return { kind: "fixed", ms: ms(d) };
  if ("uniform" in d) return { kind: "uniform", minMs: ms(d.uniform.min), maxMs: ms(d.uniform.max) };
  return { kind: "lognormal", medianMs: ms(d.lognormal.median), p90Ms: ms(d.lognormal.p90) };
}

type ManualDocument = Exclude<NonNullable<OperatorDocument["manual"]>, false>;
type CosmovisorDocument = Exclude<NonNullable<OperatorDocument["cosmovisor"]>, false>;

const ZERO: DurationDistribution = { kind: "fixed", ms: 0 };

function resolveCalendar(c: NonNullable<ManualDocument["calendar"]>): Calendar {
  const m = WORKING_HOURS.exec(c.workingHours ?? "09:00-17:00");
  assert(m !== null, "working hours are validated before resolving");
  return {
    timeZone: c.timeZone,
    startMinute: Number(m[1]) * 60 + Number(m[2]),
    endMinute: Number(m[3]) * 60 + Number(m[4]),
    days: (c.days ?? ["mon", "tue", "wed", "thu", "fri"]).map((d) => WEEKDAYS.indexOf(d)).sort(),
    onCall: c.onCall ?? false,
  };
}

function resolveEarly(e: NonNullable<ManualDocument["early"]>): EarlyAction {
  return { probability: e.probability ?? 1, lead: resolveDistribution(e.lead) };
}

function resolveManual(m: ManualDocument): ManualOperator {
  return {
    reaction: resolveDistribution(m.reaction),
    calendar: m.calendar === undefined ? undefined : resolveCalendar(m.calendar),
    absentProbability: m.absent ?? 0,
    wrongBinaryProbability: m.wrongBinary ?? 0,
    ...(m.early === undefined ? {} : { early: resolveEarly(m.early) }),
  };
}

function resolveCosmovisor(c: CosmovisorDocument, hasManual: boolean): CosmovisorOperator {
  const b = c.backup;
  const backup: DurationDistribution =
    b === undefined
      ? ZERO
      : "duration" in b
        ? resolveDistribution(b.duration)
        : { kind: "fixed", ms: Math.round(((b.dataSizeGiB * 1024) / b.throughputMiBPerS) * 1000) };
  return {
    pollIntervalMs: ms(c.pollInterval ?? "300ms"),
    restartAfterUpgrade: c.restartAfterUpgrade ?? true,
    shutdownGraceMs: ms(c.shutdownGrace ?? "0s"),
    restartDelayMs: ms(c.restartDelay ?? "0s"),
    unsafeSkipBackup: c.unsafeSkipBackup ?? false,
    backup,
    autoDownload:
      c.autoDownload === undefined
        ? undefined
        : {
            duration: c.autoDownload.duration === undefined ? ZERO : resolveDistribution(c.autoDownload.duration),
            failureProbability: c.autoDownload.failure ?? 0,
          },
    preUpgradeExitCodes: c.preUpgrade?.exitCodes ?? [1],
    preUpgradeDuration: c.preUpgrade?.duration === undefined ? ZERO : resolveDistribution(c.preUpgrade.duration),
    preUpgradeMaxRetries: c.preUpgrade?.maxRetries ?? 0,
    onFailure: c.onFailure ?? (hasManual ? "manual" : "stall"),
    ...(c.addUpgrade === undefined ? {} : { addUpgrade: resolveEarly(c.addUpgrade) }),
  };
}

/** The node's operator from the default's and its own block; undefined when neither has one. */
export function resolveOperator(
  base: OperatorDocument | undefined,
  own: OperatorDocument | undefined,
  binaries: ReadonlyMap<string, string>,
): OperatorConfig | undefined {
  if (base === undefined && own === undefined) return undefined;
  const merge = <T extends object>(a: T | false | undefined, b: T | false | undefined): T | undefined =>
    b === false ? undefined : a === undefined || a === false ? b : b === undefined ? a : { ...a, ...b };
  const cosmovisor = merge(base?.cosmovisor, own?.cosmovisor);
  const manual = merge(base?.manual, own?.manual);
  return {
    cosmovisor: cosmovisor === undefined ? undefined : resolveCosmovisor(cosmovisor, manual !== undefined),
    manual: manual === undefined ? undefined : resolveManual(manual),
    binaries,
  };
}
