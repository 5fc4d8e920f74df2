import type { OperatorConfig } from "../app/operator.js";
import { OperatorDraws } from "../chain/operator-draws.js";
import { planRecovery, recoveryStartMs } from "../chain/operator-plan.js";

/**
 * `chainsim explore halt-recovery`: a Monte Carlo over the operator model (docs/fidelity.md §4.6). After an upgrade
 * halt the chain is down until validators holding more than 2/3 of the power run the binary with the handler; each
 * trial draws every validator's recovery (src/chain/operator-plan.ts, the engine's own model) and reads off when
 * that happens.
 *
 * 1. Trial `i` uses episode `i` of every validator's counter-based draws, so what-ifs and the baseline share their
 *    draws (common random numbers: a difference is the what-if's, not noise).
 * 2. Downtime: from the halt to the first block after it, which commits at the instant the power back passes 2/3
 *    (as the engine commits it). A trial where it never does counts as never.
 * 3. Critical validators: in each trial, the validator whose return passed 2/3 (and any back at the same instant).
 * 4. Time of day: the same population halted at each UTC hour of the halt's day.
 * 5. An operator who acts ahead of the upgrade (`manual.early`, `cosmovisor.addUpgrade`) halts its node early; its
 *    recovery starts when the person has gone back to the old binary, if that is after the halt (never without one).
 */

/** A validator: its power and what brings it back. */
export interface RecoveryMember {
  readonly name: string;
  readonly power: number;
  readonly operator: OperatorConfig | undefined;
  /** The `sidecar: {enabled, delay}` shorthand, when the node has no operator. */
  readonly sidecarDelayMs: number | undefined;
}

export interface RecoverySetup {
  readonly members: readonly RecoveryMember[];
  readonly haltMs: number;
  readonly seed: number;
  /** The plan's binary (for the model's texts only). */
  readonly binary: string;
}

export interface Downtime {
  /** Percentiles of the downtime in ms; null: never (the chain is still down in that share of trials). */
  readonly p50Ms: number | null;
  readonly p90Ms: number | null;
  readonly p99Ms: number | null;
  readonly meanMs: number | null;
  /** Share of trials in which the chain never resumes. */
  readonly never: number;
  /** P(back within 30 min, 1 h, 4 h). */
  readonly within30m: number;
  readonly within1h: number;
  readonly within4h: number;
}

export interface Critical {
  readonly node: string;
  readonly power: number;
  /** Share of trials in which it was among the last needed to pass 2/3. */
  readonly share: number;
}

export interface HourResult {
  readonly hourUtc: number;
  readonly downtime: Downtime;
}

const NEVER = Number.POSITIVE_INFINITY;
const HOUR_MS = 3_600_000;

/** Runs `runs` trials; `downtimes[i]` is trial i's downtime in ms (+Infinity: never), `critical[k]` the count per member. */
export function runTrials(
  setup: RecoverySetup,
  runs: number,
  firstTrial = 0,
): { downtimes: Float64Array; critical: Uint32Array } {
  const m = setup.members;
  const draws = m.map((x) => new OperatorDraws(setup.seed, x.name));
  const total = m.reduce((p, x) => p + x.power, 0);
  const ready = new Float64Array(m.length);
  const order = m.map((_, k) => k);
  const downtimes = new Float64Array(runs);
  const critical = new Uint32Array(m.length);
  for (let i = 0; i < runs; i++) {
    const episode = firstTrial + i;
    for (let k = 0; k < m.length; k++) ready[k] = readyAt(m[k]!, setup, draws[k]!, episode);
    order.sort((a, b) => ready[a]! - ready[b]!);
    let back = 0;
    let at = NEVER;
    for (const k of order) {
      back += m[k]!.power;
      if (3 * back > 2 * total) {
        at = ready[k]!;
        break;
      }
    }
    downtimes[i] = at - setup.haltMs;
    if (at !== NEVER) for (let k = 0; k < m.length; k++) if (ready[k] === at) critical[k]!++;
  }
  return { downtimes, critical };
}

function readyAt(x: RecoveryMember, setup: RecoverySetup, draws: OperatorDraws, episode: number): number {
  if (x.operator !== undefined) {
    const fromMs = recoveryStartMs(x.operator, setup.haltMs, episode, draws);
    if (fromMs === NEVER) return NEVER;
    return planRecovery(
      x.operator,
      { haltMs: fromMs, episode, binary: setup.binary, oldBinary: "the old binary" },
      draws,
      false,
    ).restartMs;
  }
  return x.sidecarDelayMs === undefined ? NEVER : setup.haltMs + x.sidecarDelayMs;
}

/** The percentile `q` (0..1) of sorted values, nearest rank; null when it is never. */
function percentile(sorted: Float64Array, q: number): number | null {
  if (sorted.length === 0) return null;
  const v = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  return Number.isFinite(v) ? v : null;
}

export function summarize(downtimes: Float64Array): Downtime {
  const sorted = Float64Array.from(downtimes).sort();
  const n = sorted.length;
  let finite = 0;
  let sum = 0;
  let w30 = 0;
  let w1 = 0;
  let w4 = 0;
  for (const d of sorted) {
    if (!Number.isFinite(d)) continue;
    finite++;
    sum += d;
    if (d <= 30 * 60_000) w30++;
    if (d <= HOUR_MS) w1++;
    if (d <= 4 * HOUR_MS) w4++;
  }
  const share = (k: number) => (n === 0 ? 0 : k / n);
  return {
    p50Ms: percentile(sorted, 0.5),
    p90Ms: percentile(sorted, 0.9),
    p99Ms: percentile(sorted, 0.99),
    meanMs: finite === n && n > 0 ? sum / n : null,
    never: share(n - finite),
    within30m: share(w30),
    within1h: share(w1),
    within4h: share(w4),
  };
}

/** The population halted at each UTC hour of the halt's day, `runs` trials each. */
export function timeOfDay(setup: RecoverySetup, runs: number): HourResult[] {
  const day = Math.floor(setup.haltMs / (24 * HOUR_MS)) * 24 * HOUR_MS;
  const out: HourResult[] = [];
  for (let h = 0; h < 24; h++) {
    const { downtimes } = runTrials({ ...setup, haltMs: day + h * HOUR_MS }, runs);
    out.push({ hourUtc: h, downtime: summarize(downtimes) });
  }
  return out;
}

/** Orders hours from best to worst: fewer nevers, then a shorter P50, then a shorter P90. */
export function rankHours(hours: readonly HourResult[]): HourResult[] {
  const key = (v: number | null) => v ?? NEVER;
  return [...hours].sort(
    (a, b) =>
      a.downtime.never - b.downtime.never ||
      key(a.downtime.p50Ms) - key(b.downtime.p50Ms) ||
      key(a.downtime.p90Ms) - key(b.downtime.p90Ms) ||
      a.hourUtc - b.hourUtc,
  );
}
