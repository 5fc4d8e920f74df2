import type {
  CosmovisorOperator,
  DurationDistribution,
  EarlyAction,
  ManualOperator,
  OperatorConfig,
} from "../app/operator.js";
import { WRONG_BINARY_ATTEMPTS_MAX } from "../app/operator.js";
import { formatDuration } from "../core/go/duration.js";
import { workingTimeEnd } from "./operator-calendar.js";
import type { OperatorDraws } from "./operator-draws.js";

/**
 * The operator model's recovery of one halted node (docs/fidelity.md §4.6), step by step, as cosmovisor's
 * process.go runs it and `chainsim visor` (src/devnet/visor.ts) implements it:
 *
 * 1. detect: the poll of upgrade-info.json sees the file within one DAEMON_POLL_INTERVAL (a uniform draw);
 * 2. stop: SIGINT and DAEMON_SHUTDOWN_GRACE (the halted node does not exit on its own), or SIGKILL at once;
 * 3. restart delay (DAEMON_RESTART_DELAY);
 * 4. backup of data/ unless UNSAFE_SKIP_BACKUP;
 * 5. download (DAEMON_ALLOW_DOWNLOAD_BINARIES), which can fail: cosmovisor exits with the error;
 * 6. switch to the plan's binary;
 * 7. pre-upgrade attempts: exit 0 ok; 1 "does not exist", continue; 30 fail; 31 retry while attempts ≤
 *    DAEMON_PREUPGRADE_MAX_RETRIES; any other code: ok;
 * 8. restart with the new binary if DAEMON_RESTART_AFTER_UPGRADE, else cosmovisor exits.
 * When cosmovisor gives up (5, 7, 8), the person behind it takes over (`onFailure: manual`) or nobody does (stall).
 * A person (no cosmovisor, or the fallback): absent with a probability; else reacts after a drawn time of working
 * time (the calendar pauses the clock); starts a wrong binary with a probability (the engine really starts it, and
 * it halts again at once), and reacts again (at most WRONG_BINARY_ATTEMPTS_MAX times); then starts the right binary.
 *
 * Ahead of the upgrade (planEarly), once the plan is committed: a person installs the plan's binary and restarts the
 * node `lead` before the halt they expect (`manual.early`), or runs `cosmovisor add-upgrade --upgrade-height`, which
 * cosmovisor acts on at its next poll with the whole sequence above (`cosmovisor.addUpgrade`). The engine's own
 * rules then halt the node below the plan height; the person notices after a reaction and downgrades (planFix).
 *
 * Pure: every random quantity is a draw of `draws` at (purpose, episode, attempt).
 */

/** The phases of a recovery, and `none` (the operator had nothing to do), as the trace names them. */
export const OPERATOR_PHASES = [
  "none",
  "detect",
  "stop",
  "restart-delay",
  "backup",
  "download",
  "download-failed",
  "switch",
  "pre-upgrade",
  "pre-upgrade-failed",
  "exited",
  "wait-operator",
  "absent",
  "operator-acts",
  "wrong-binary",
  "restart",
  "stage",
  "restart-early",
  "downgrade",
] as const;
export type OperatorPhase = Exclude<(typeof OPERATOR_PHASES)[number], "none">;

/** One step, from its start. The node is in this phase until the next step. */
export interface OperatorStep {
  readonly atMs: number;
  readonly phase: OperatorPhase;
  readonly detail: string;
  /** The binary the step starts (restart, wrong-binary, restart-early, downgrade). */
  readonly binary?: string | undefined;
}

export interface RecoveryInput {
  readonly haltMs: number;
  readonly episode: number;
  /** The binary with the plan's handler. */
  readonly binary: string;
  /** The binary the node ran (what a wrong restart starts again). */
  readonly oldBinary: string;
}

export interface RecoveryPlan {
  /** Recorded only when asked for (the explorer skips them). */
  readonly steps: OperatorStep[] | undefined;
  /** When the node restarts with `binary`; +Infinity when it never does. */
  readonly restartMs: number;
}

const NEVER = Number.POSITIVE_INFINITY;

/** Inverse of the standard normal CDF (Acklam's rational approximation, relative error < 1.2e-9). */
function normalQuantile(p0: number): number {
  const p = Math.min(Math.max(p0, 1e-12), 1 - 1e-12);
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
    ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/** z of the 90th percentile. */
const Z90 = 1.2815515655446004;

/** A duration of `d` for the uniform draw `u`, in whole ms. */
export function sampleDuration(d: DurationDistribution, u: number): number {
  switch (d.kind) {
    case "fixed":
      return d.ms;
    case "uniform":
      return Math.round(d.minMs + u * (d.maxMs - d.minMs));
    case "lognormal": {
      if (d.p90Ms === d.medianMs) return d.medianMs;
      const sigma = Math.log(d.p90Ms / d.medianMs) / Z90;
      return Math.round(d.medianMs * Math.exp(sigma * normalQuantile(u)));
    }
  }
}

type Emit = ((atMs: number, phase: OperatorPhase, detail: () => string, binary?: string) => void) | undefined;

const recorder = (record: boolean): { steps: OperatorStep[] | undefined; emit: Emit } => {
  const steps: OperatorStep[] | undefined = record ? [] : undefined;
  const emit: Emit =
    steps === undefined
      ? undefined
      : (atMs, phase, detail, binary) =>
          steps.push({ atMs, phase, detail: detail(), ...(binary === undefined ? {} : { binary }) });
  return { steps, emit };
};

/** The recovery of a node halted at `in.haltMs` under `op`. */
export function planRecovery(
  op: OperatorConfig,
  input: RecoveryInput,
  draws: OperatorDraws,
  record: boolean,
): RecoveryPlan {
  const { steps, emit } = recorder(record);
  if (op.cosmovisor !== undefined) {
    const r = cosmovisor(op.cosmovisor, input, draws, emit);
    if (r.restartMs !== undefined) return { steps, restartMs: r.restartMs };
    if (op.cosmovisor.onFailure === "manual" && op.manual !== undefined)
      return { steps, restartMs: manual(op.manual, r.gaveUpMs, input, draws, emit) };
    return { steps, restartMs: NEVER };
  }
  if (op.manual !== undefined) return { steps, restartMs: manual(op.manual, input.haltMs, input, draws, emit) };
  return { steps, restartMs: NEVER };
}

function cosmovisor(
  c: CosmovisorOperator,
  input: RecoveryInput,
  draws: OperatorDraws,
  emit: Emit,
  staged = false,
): { restartMs: number; gaveUpMs?: undefined } | { restartMs?: undefined; gaveUpMs: number } {
  const ep = input.episode;
  let t = input.haltMs + Math.floor(draws.uniform("detect", ep, 0) * c.pollIntervalMs);
  emit?.(t, "detect", () => "cosmovisor detected upgrade-info.json");
  // A running node exits on SIGINT at once; a halted one does not, so the stop takes the whole grace.
  emit?.(t, "stop", () =>
    c.shutdownGraceMs === 0
      ? "SIGKILL"
      : staged
        ? "SIGINT: the running node exits"
        : `SIGINT, waiting DAEMON_SHUTDOWN_GRACE ${formatDuration(c.shutdownGraceMs)}`,
  );
  if (!staged) t += c.shutdownGraceMs;
  if (c.restartDelayMs > 0) {
    emit?.(t, "restart-delay", () => `DAEMON_RESTART_DELAY ${formatDuration(c.restartDelayMs)}`);
    t += c.restartDelayMs;
  }
  if (!c.unsafeSkipBackup) {
    const d = sampleDuration(c.backup, draws.uniform("backup", ep, 0));
    emit?.(t, "backup", () => `backing up data/ (${formatDuration(d)})`);
    t += d;
  }
  if (c.autoDownload !== undefined) {
    const d = sampleDuration(c.autoDownload.duration, draws.uniform("download", ep, 0));
    emit?.(t, "download", () => `downloading ${input.binary} (${formatDuration(d)})`);
    t += d;
    if (draws.uniform("download-failure", ep, 0) < c.autoDownload.failureProbability) {
      emit?.(t, "download-failed", () => `cannot download binary ${input.binary}: cosmovisor exits`);
      return { gaveUpMs: t };
    }
  }
  emit?.(t, "switch", () => `switched to binary ${input.binary}`);
  const pre = preUpgrade(c, t, ep, draws, emit);
  if (pre.failed) return { gaveUpMs: pre.t };
  t = pre.t;
  if (!c.restartAfterUpgrade) {
    emit?.(t, "exited", () => "DAEMON_RESTART_AFTER_UPGRADE is off: cosmovisor exits");
    return { gaveUpMs: t };
  }
  emit?.(
    t,
    staged ? "restart-early" : "restart",
    () => `cosmovisor restarts the node with ${input.binary}`,
    input.binary,
  );
  return { restartMs: t };
}

function preUpgrade(
  c: CosmovisorOperator,
  t0: number,
  ep: number,
  draws: OperatorDraws,
  emit: Emit,
): { t: number; failed: boolean } {
  let t = t0;
  for (let attempt = 0; attempt <= c.preUpgradeMaxRetries; attempt++) {
    const code = c.preUpgradeExitCodes[Math.min(attempt, c.preUpgradeExitCodes.length - 1)] ?? 1;
    const d = sampleDuration(c.preUpgradeDuration, draws.uniform("pre-upgrade", ep, attempt));
    emit?.(t, "pre-upgrade", () => `pre-upgrade attempt ${attempt + 1}: exit ${code} after ${formatDuration(d)}`);
    t += d;
    if (code === 30) {
      emit?.(t, "pre-upgrade-failed", () => "pre-upgrade command failed : exit status 30");
      return { t, failed: true };
    }
    if (code !== 31) return { t, failed: false };
  }
  emit?.(
    t,
    "pre-upgrade-failed",
    () => `pre-upgrade command failed. reached max attempt of retries - ${c.preUpgradeMaxRetries}`,
  );
  return { t, failed: true };
}

function manual(m: ManualOperator, from: number, input: RecoveryInput, draws: OperatorDraws, emit: Emit): number {
  const ep = input.episode;
  if (draws.uniform("absent", ep, 0) < m.absentProbability) {
    emit?.(from, "absent", () => "the operator is absent: the node stays down");
    return NEVER;
  }
  let t = from;
  for (let attempt = 0; attempt <= WRONG_BINARY_ATTEMPTS_MAX; attempt++) {
    const r = sampleDuration(m.reaction, draws.uniform("reaction", ep, attempt));
    emit?.(t, "wait-operator", () => `waiting for the operator (reaction ${formatDuration(r)} of working time)`);
    t = workingTimeEnd(m.calendar, t, r);
    if (t === NEVER) return NEVER;
    const wrong =
      attempt < WRONG_BINARY_ATTEMPTS_MAX && draws.uniform("wrong-binary", ep, attempt) < m.wrongBinaryProbability;
    if (!wrong) break;
    emit?.(
      t,
      "wrong-binary",
      () => `the operator starts ${input.oldBinary}, which has no handler: it halts again`,
      input.oldBinary,
    );
  }
  emit?.(t, "operator-acts", () => `the operator installs ${input.binary}`);
  emit?.(t, "restart", () => `the operator restarts the node with ${input.binary}`, input.binary);
  return t;
}

/** What an operator sees once a plan is committed, and the binaries on either side of it. */
export interface EarlyInput {
  /** When the plan was committed (the block time). */
  readonly nowMs: number;
  /** When the operator expects the halt: now + blocks to go × the mean block time. */
  readonly expectedHaltMs: number;
  readonly planName: string;
  readonly planHeight: number;
  /** The binary with the plan's handler, and the one the node runs. */
  readonly binary: string;
  readonly oldBinary: string;
}

/** The early action of `a` at `in`, as its time, or undefined when it does not happen (the probability draw). */
function earlyAtMs(a: EarlyAction, input: EarlyInput, draws: OperatorDraws): number | undefined {
  if (draws.uniform("early", input.planHeight, 0) >= a.probability) return undefined;
  const lead = sampleDuration(a.lead, draws.uniform("early-lead", input.planHeight, 0));
  return Math.max(input.nowMs, input.expectedHaltMs - lead);
}

/**
 * The steps an operator takes ahead of the upgrade, once the plan is committed: none, a person's early install
 * (`manual.early`: one `restart-early` step with the plan's binary), or a staged cosmovisor upgrade
 * (`cosmovisor.addUpgrade`: `stage`, then cosmovisor's sequence from its next poll, ending in `restart-early`).
 * A staged upgrade that cosmovisor gives up on is handed to the person, who restarts the old binary (planFix).
 */
export function planEarly(op: OperatorConfig, input: EarlyInput, draws: OperatorDraws): OperatorStep[] {
  const { steps, emit } = recorder(true);
  const out = steps ?? [];
  const c = op.cosmovisor;
  const staged = c?.addUpgrade === undefined ? undefined : earlyAtMs(c.addUpgrade, input, draws);
  if (c !== undefined && staged !== undefined) {
    emit?.(
      staged,
      "stage",
      () => `cosmovisor add-upgrade ${input.planName} --upgrade-height ${input.planHeight}: upgrade-info.json written`,
    );
    const r = cosmovisor(
      c,
      { haltMs: staged, episode: input.planHeight, binary: input.binary, oldBinary: input.oldBinary },
      draws.stream("staged"),
      emit,
      true,
    );
    if (r.gaveUpMs !== undefined && c.onFailure === "manual" && op.manual !== undefined)
      out.push(...planFix(op.manual, r.gaveUpMs, input.planHeight, input.oldBinary, draws));
    return out;
  }
  const early = op.manual?.early;
  const at = early === undefined ? undefined : earlyAtMs(early, input, draws);
  if (at !== undefined)
    emit?.(
      at,
      "restart-early",
      () => `the operator installs ${input.binary} ahead of the upgrade at ${input.planHeight} and restarts the node`,
      input.binary,
    );
  return out;
}

/**
 * A person's fix of a node their early action halted (BINARY UPDATED BEFORE TRIGGER, a store load that failed, a
 * wrong app version): after a reaction of working time from `fromMs`, they go back to `oldBinary`. Draws at
 * (fix-reaction, `episode`, 0).
 */
export function planFix(
  m: ManualOperator,
  fromMs: number,
  episode: number,
  oldBinary: string,
  draws: OperatorDraws,
): OperatorStep[] {
  const { steps, emit } = recorder(true);
  const r = sampleDuration(m.reaction, draws.uniform("fix-reaction", episode, 0));
  emit?.(fromMs, "wait-operator", () => `waiting for the operator (reaction ${formatDuration(r)} of working time)`);
  const t = workingTimeEnd(m.calendar, fromMs, r);
  if (t !== NEVER)
    emit?.(t, "downgrade", () => `the operator goes back to ${oldBinary} and restarts the node`, oldBinary);
  return steps ?? [];
}

/**
 * When the node's halt recovery can start, given its operator's early action, for `explore halt-recovery`: the halt
 * itself when nothing happens early or the person has fixed it by then; the fix (the node catches up and halts at
 * the plan height then) when it comes later; never when nobody fixes it. The halt is taken as expected (the lead
 * counts back from `haltMs`); draws at episode `episode`.
 */
export function recoveryStartMs(op: OperatorConfig, haltMs: number, episode: number, draws: OperatorDraws): number {
  if (op.manual?.early === undefined && op.cosmovisor?.addUpgrade === undefined) return haltMs;
  const input = {
    nowMs: Number.NEGATIVE_INFINITY,
    expectedHaltMs: haltMs,
    planName: "the plan",
    planHeight: episode,
    binary: "the new binary",
    oldBinary: "the old binary",
  };
  const last = planEarly(op, input, draws).at(-1);
  if (last === undefined) return haltMs;
  if (last.phase === "downgrade") return Math.max(haltMs, last.atMs);
  if (last.phase !== "restart-early" || op.manual === undefined) return NEVER;
  const fix = planFix(op.manual, last.atMs, episode, input.oldBinary, draws).at(-1);
  return fix?.phase === "downgrade" ? Math.max(haltMs, fix.atMs) : NEVER;
}
