import type { Halt, ProposalStatusName } from "../app/types.js";
import type { LogLine } from "../core/context.js";
import type { CheckRunner } from "./actions.js";
import type { ConsensusHook } from "./consensus.js";

/**
 * The binary a node's launcher actually starts when an operator's step asks for `requested` (a swap's binary, or a
 * restart's current one) on a node that last ran `running`. Production launches what was asked; a planted fault may
 * not.
 */
export type LaunchHook = (node: string, requested: string, running: string) => string;

/**
 * The binary an operator-model restart (operator.ts) actually starts: `requested` is the plan's binary, `running` the
 * node's last one, `afterDownloadFailure` whether cosmovisor's download failed in this recovery. Production starts
 * what was asked; a planted fault may not.
 */
export type OperatorLaunchHook = (
  node: string,
  requested: string,
  running: string,
  afterDownloadFailure: boolean,
) => string;

/** A halt as the chain records it. */
export interface HaltRecord {
  readonly node: string;
  readonly height: number;
  readonly kind: Halt["kind"];
  readonly message: string;
  readonly timeMs: number;
  /**
   * The node's final log lines: what it wrote executing the block it halted at (for a halt in the PreBlocker, e.g.
   * `UPGRADE "x" NEEDED ...` at level error; for an app hash mismatch, the block's lines), in emission order. Empty
   * when it executed nothing (a failed start, a mismatch found after an idle stretch).
   */
  readonly logs: readonly LogLine[];
}

export { PROPOSAL_STATUSES, type ProposalStatusName } from "../app/types.js";

/** Everything known about a proposal submitted through a step. */
export interface ProposalRecord {
  readonly id: bigint;
  readonly label: string | null;
  status: ProposalStatusName;
  readonly submitHeight: number;
  depositEndTimeMs: number | null;
  votingStartTimeMs: number | null;
  votingEndTimeMs: number | null;
  failedReason: string;
}

/** When a run ends. Absent fields do not limit. */
export interface StopCondition {
  readonly untilHeight?: number;
  readonly untilTimeMs?: number;
  /** Blocks committed during this call. */
  readonly maxBlocks?: number;
  /** Scenario default: stop 10 blocks past the last step or plan height once nothing is pending. */
  readonly settle?: boolean;
}

export interface EngineOptions {
  /** Keep trace lines in memory (for --trace); the hash is always computed. */
  readonly keepTrace?: boolean;
  /** Disable the idle fast path (for equivalence tests). */
  readonly noFastPath?: boolean;
  /** Disable execution sharing: every running node executes every block itself (for equivalence tests). */
  readonly noSharedExecution?: boolean;
  /** Disable the stalled-retry shortcut: every retry executes on every eligible node (for equivalence tests). */
  readonly noStallShortcut?: boolean;
  /** An interception point over each commit decision (see ConsensusHook; none in production). */
  readonly consensus?: ConsensusHook;
  /** An interception point over the binary an operator's swap or restart launches (see LaunchHook; none in production). */
  readonly launch?: LaunchHook;
  /** An interception point over the binary an operator-model restart launches (none in production). */
  readonly operatorLaunch?: OperatorLaunchHook;
  /** Resolves `{kind: "check", id}` steps (e.g. a scenario's inline expectations); without it a check fails. */
  readonly check?: CheckRunner;
}

/**
 * The most blocks one run commits: a settle run whose plan lies absurdly far ahead, a `run.untilTime` years away, or
 * any other run stops there (1,000,000 idle blocks take a few seconds and about 200 MB).
 */
export const RUN_BLOCKS_MAX = 1_000_000;
export const SETTLE_MARGIN_BLOCKS = 10;
