/**
 * The operator of a node (docs/scenario-format.md §2.4, docs/fidelity.md §4.6): who brings a node halted for an
 * upgrade back with the binary that has the handler, as plain data. A node has cosmovisor, a person, or both (the
 * person behind cosmovisor, who steps in when it gives up). The simulation of these (src/chain/operator-plan.ts) is
 * pure: the same configuration, halt and draws give the same steps.
 */

/** A duration drawn at random, in whole milliseconds. */
export type DurationDistribution =
  | { readonly kind: "fixed"; readonly ms: number }
  | { readonly kind: "uniform"; readonly minMs: number; readonly maxMs: number }
  /** Lognormal by its median and 90th percentile (p90Ms ≥ medianMs > 0). */
  | { readonly kind: "lognormal"; readonly medianMs: number; readonly p90Ms: number };

/** When a person is at work: the reaction clock runs only then (unless on call). */
export interface Calendar {
  /** An IANA time zone, e.g. Europe/Berlin. */
  readonly timeZone: string;
  /** Working hours in local time, minutes after midnight, start < end. */
  readonly startMinute: number;
  readonly endMinute: number;
  /** Working days, 0 = Sunday … 6 = Saturday. */
  readonly days: readonly number[];
  /** On call: reachable at any hour (the calendar never pauses the clock). */
  readonly onCall: boolean;
}

export interface ManualOperator {
  /** Time from the moment the person is needed (the halt, or cosmovisor giving up) to their action, in working time. */
  readonly reaction: DurationDistribution;
  /** Absent: always available. */
  readonly calendar?: Calendar | undefined;
  /** Probability that the person never shows up. */
  readonly absentProbability: number;
  /** Probability, per attempt, that they start a binary without the handler (then notice and react again). */
  readonly wrongBinaryProbability: number;
  /**
   * Installing the plan's binary ahead of time (docs/fidelity.md §4.5 rows 1, 6 and 7): with this probability the
   * person swaps the binary and restarts the node `lead` before the halt they expect, once the plan is committed.
   */
  readonly early?: EarlyAction | undefined;
}

/** An action taken ahead of the upgrade: with `probability`, `lead` before the expected halt. */
export interface EarlyAction {
  readonly probability: number;
  readonly lead: DurationDistribution;
}

/** What happens when cosmovisor gives up (a failed download, a failed pre-upgrade, no restart after upgrade). */
export type OnFailure = "manual" | "stall";

export interface CosmovisorOperator {
  /** DAEMON_POLL_INTERVAL (default 300 ms): detection comes at a uniform point within one interval. */
  readonly pollIntervalMs: number;
  /** DAEMON_RESTART_AFTER_UPGRADE (default true). */
  readonly restartAfterUpgrade: boolean;
  /** DAEMON_SHUTDOWN_GRACE (default 0): the halted node does not exit on SIGINT, so the stop takes the whole grace. */
  readonly shutdownGraceMs: number;
  /** DAEMON_RESTART_DELAY (default 0). */
  readonly restartDelayMs: number;
  /** UNSAFE_SKIP_BACKUP (default false). */
  readonly unsafeSkipBackup: boolean;
  /** How long the backup of data/ takes. */
  readonly backup: DurationDistribution;
  /** DAEMON_ALLOW_DOWNLOAD_BINARIES (default false: the binary was installed beforehand). */
  readonly autoDownload?: { readonly duration: DurationDistribution; readonly failureProbability: number } | undefined;
  /** Exit code of the pre-upgrade command per attempt (the last repeats); default [1] ("does not exist"). */
  readonly preUpgradeExitCodes: readonly number[];
  readonly preUpgradeDuration: DurationDistribution;
  /** DAEMON_PREUPGRADE_MAX_RETRIES (default 0). */
  readonly preUpgradeMaxRetries: number;
  readonly onFailure: OnFailure;
  /**
   * `cosmovisor add-upgrade <plan> <binary> --upgrade-height <H>` run ahead of time (docs/fidelity.md §4.5 row 2): it
   * writes data/upgrade-info.json at once, and cosmovisor without a height gate (v1.5, cosmos/cosmos-sdk#19227; or
   * any version restarted after staging, #22167) switches at its next poll, below the plan height.
   */
  readonly addUpgrade?: EarlyAction | undefined;
}

export interface OperatorConfig {
  readonly cosmovisor?: CosmovisorOperator | undefined;
  readonly manual?: ManualOperator | undefined;
  /** Plan name → binary to switch to; otherwise the only binary that registers a handler for the plan. */
  readonly binaries: ReadonlyMap<string, string>;
}

/** Upper bound of DAEMON_PREUPGRADE_MAX_RETRIES in a scenario. */
export const PREUPGRADE_MAX_RETRIES_BOUND = 100;
/** Wrong binaries a person starts before the right one, at most. */
export const WRONG_BINARY_ATTEMPTS_MAX = 3;
