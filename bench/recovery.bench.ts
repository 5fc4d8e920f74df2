import { loadavg } from "node:os";
import { type RecoveryMember, type RecoverySetup, runTrials } from "../src/explore/halt-recovery.js";
import { exploreHaltRecovery } from "../src/explore/halt-recovery-report.js";
import type { OperatorDocument } from "../src/scenario/operator-schema.js";
import { resolveOperator } from "../src/scenario/resolve-operator.js";
import { type BenchResult, median, result, timeRuns } from "./bench.js";

/**
 * `recovery-trials-s`: `explore halt-recovery`'s Monte Carlo at the size of issue 25's bound: 10,000 recovery trials
 * of a 50-validator population on one core (this thread), every validator drawing its whole recovery per trial
 * (cosmovisor with lognormal backups, downloads failing one time in five and falling back to a person with a
 * working-hours calendar in one of four time zones; cosmovisor alone; people alone, some absent, some installing a
 * wrong binary). Bound: ≤ 10 s. Baseline: the same trials with every validator a fixed-delay sidecar (the shorthand),
 * so the ratio is the operator model's cost over the bare 2/3 bookkeeping.
 */
export const name = "recovery";

const TRIALS = 10_000;
const VALIDATORS = 50;
const ZONES = ["Europe/Berlin", "America/New_York", "Asia/Singapore", "UTC"];

function fiftyValidators(): RecoveryMember[] {
  return Array.from({ length: VALIDATORS }, (_, i): RecoveryMember => {
    const person = {
      reaction: { lognormal: { median: "30m", p90: "3h" } },
      calendar: { timeZone: ZONES[i % ZONES.length]!, workingHours: "08:00-20:00", onCall: i % 7 === 0 },
      absent: i % 11 === 0 ? 0.2 : 0.02,
      wrongBinary: 0.05,
    };
    const visor = {
      backup: { duration: { lognormal: { median: "20m", p90: "1h" } } },
      autoDownload: { duration: { lognormal: { median: "20m", p90: "2h" } }, failure: 0.2 },
      preUpgrade: { exitCodes: [31, 0], maxRetries: 2, duration: { uniform: { min: "5s", max: "2m" } } },
    };
    const doc: OperatorDocument =
      i % 3 === 0
        ? { cosmovisor: visor, manual: person }
        : i % 3 === 1
          ? { cosmovisor: { backup: visor.backup } }
          : { manual: person };
    return {
      name: `val${String(i + 1).padStart(2, "0")}`,
      power: 100 + ((i * 37) % 400),
      operator: resolveOperator(undefined, doc, new Map()),
      sidecarDelayMs: undefined,
    };
  });
}

export async function run(): Promise<BenchResult[]> {
  const members = fiftyValidators();
  const setup: RecoverySetup = { members, haltMs: Date.UTC(2026, 0, 7, 1, 40), seed: 1, binary: "v2" };
  const sidecars: RecoverySetup = {
    ...setup,
    members: members.map((m, i) => ({ ...m, operator: undefined, sidecarDelayMs: 60_000 * (i + 1) })),
  };
  const valueMs = median(timeRuns(() => runTrials(setup, TRIALS), 1, 3));
  const baselineMs = median(timeRuns(() => runTrials(sidecars, TRIALS), 1, 3));
  const t0 = performance.now();
  const x = exploreHaltRecovery({ setup, runs: TRIALS, whatIfs: [], source: "bench", haltFrom: "bench" });
  const wholeS = (performance.now() - t0) / 1000;
  process.stderr.write(
    `recovery: ${TRIALS} trials × ${VALIDATORS} validators ${(valueMs / 1000).toFixed(2)} s on one thread ` +
      `(fixed-delay sidecars ${(baselineMs / 1000).toFixed(3)} s); the whole exploration with the time-of-day sweep ` +
      `(${x.timeOfDay.runsPerHour} runs × 24 hours) ${wholeS.toFixed(2)} s; P50 downtime ${x.baseline.downtime.p50Ms} ms; ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}\n`,
  );
  return [result("recovery-trials-s", valueMs / 1000, "s", baselineMs / 1000)];
}
