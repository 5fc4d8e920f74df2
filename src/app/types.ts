import type { DurationMs } from "../core/brand.js";
import { toHex } from "../core/bytes.js";
import type { Event, LogLine } from "../core/context.js";
import type { HaltKind } from "../upgrade/halt.js";
import type { OperatorConfig } from "./operator.js";

export type { HaltKind };

/** A plan as carried by an upgrade message: passed to the keeper as it is, so invalid plans can be tested. */
export interface PlanInput {
  readonly name: string;
  readonly height: bigint;
  readonly info: string;
  /** `Plan.time`, when a message carries one (deprecated: the keeper refuses any non-zero time). */
  readonly time?: { readonly seconds: bigint; readonly nanos: number };
  /** `Plan.upgraded_client_state`, when a message carries one (the keeper refuses it). */
  readonly upgradedClientState?: { readonly typeUrl: string; readonly value: Uint8Array };
}

/**
 * An x/upgrade message (MsgSoftwareUpgrade, MsgCancelUpgrade) with its authority: the one shape scenarios, the
 * harness, proposals and transactions carry. On the wire (trace lines, block data) the kind is written `type`.
 */
export type UpgradeMessage =
  | { readonly kind: "softwareUpgrade"; readonly authority: string; readonly plan: PlanInput }
  | { readonly kind: "cancelUpgrade"; readonly authority: string };

export interface CoinInput {
  readonly denom: string;
  readonly amount: bigint;
}

/** The vote options of a simulated vote, as scenarios and the trace name them (x/gov's VoteOption). */
export const VOTE_OPTIONS = ["yes", "no", "abstain", "no_with_veto"] as const;
export type VoteOptionName = (typeof VOTE_OPTIONS)[number];

/** A simulated transaction: one message from one signer (addresses are bech32 under the chain's prefix, `chain1…`). */
export type SimTx =
  | {
      readonly kind: "submitProposal";
      readonly proposer: string;
      readonly messages: readonly UpgradeMessage[];
      readonly initialDeposit: readonly CoinInput[];
      readonly title: string;
      readonly summary: string;
      readonly metadata: string;
      readonly expedited: boolean;
    }
  | {
      readonly kind: "deposit";
      readonly proposalId: bigint;
      readonly depositor: string;
      readonly amount: readonly CoinInput[];
    }
  | { readonly kind: "vote"; readonly proposalId: bigint; readonly voter: string; readonly option: VoteOptionName }
  | { readonly kind: "cancelProposal"; readonly proposalId: bigint; readonly proposer: string }
  /** Upgrade messages sent straight to the upgrade module (`authorityExec` uses the gov authority as signer). */
  | { readonly kind: "upgrade"; readonly signer: string; readonly messages: readonly UpgradeMessage[] };

export interface TxResult {
  readonly ok: boolean;
  readonly error?: string | undefined;
  /** e.g. the new proposal id of a submission. */
  readonly proposalId?: bigint | undefined;
}

export interface Halt {
  readonly kind: HaltKind;
  readonly message: string;
}

/**
 * What one node produced for a block: its new app hash, per-tx results, events and log lines, or a halt (nothing
 * committed) with the log lines written before it.
 */
export type ExecOutcome =
  | {
      readonly ok: true;
      readonly appHash: string;
      readonly txResults: readonly TxResult[];
      /** Plan name whose upgrade handler ran in this block, if any. */
      readonly applied?: string;
      /** Plan name skipped in this block (skip height), if any. */
      readonly skipped?: string;
      readonly gov: readonly GovBlockEvent[];
      /**
       * The block's ABCI events in emission order: the PreBlocker's, each successful transaction's, then the
       * EndBlocker's (what a node's block_results carries, flattened). A failed transaction's events are discarded.
       */
      readonly events: readonly Event[];
      /**
       * The block's log lines in emission order, like `events`: the PreBlocker's, each successful transaction's,
       * then the EndBlocker's. A failed transaction's lines are discarded with its branch.
       */
      readonly logs: readonly LogLine[];
    }
  | {
      readonly ok: false;
      readonly halt: Halt;
      /** The log lines the block wrote before it halted (e.g. `UPGRADE "x" NEEDED ...` at level error), in order. */
      readonly logs: readonly LogLine[];
    };

/** Governance outcomes of one block, for the timeline and the proposal table. */
export type GovBlockEvent =
  | { readonly kind: "submitted"; readonly id: bigint }
  | { readonly kind: "voting-started"; readonly id: bigint }
  | { readonly kind: "passed"; readonly id: bigint }
  | { readonly kind: "rejected"; readonly id: bigint }
  | { readonly kind: "failed"; readonly id: bigint; readonly reason: string }
  | { readonly kind: "expedited-fallback"; readonly id: bigint }
  | { readonly kind: "dropped"; readonly id: bigint }
  | { readonly kind: "cancelled"; readonly id: bigint };

/** The wire object of a transaction (trace lines, block data): upgrade messages' kinds are written `type`. */
export function simTxWire(tx: SimTx): unknown {
  if (tx.kind !== "submitProposal" && tx.kind !== "upgrade") return tx;
  return { ...tx, messages: tx.messages.map(upgradeMessageWire) };
}

const upgradeMessageWire = (m: UpgradeMessage) =>
  m.kind === "softwareUpgrade"
    ? { type: m.kind, authority: m.authority, plan: planWire(m.plan) }
    : { type: m.kind, authority: m.authority };

/** The plan as trace lines write it: the deprecated fields only when present (time as seconds/nanos, value hex). */
function planWire(p: PlanInput): unknown {
  if (p.time === undefined && p.upgradedClientState === undefined) return p;
  const { time, upgradedClientState: ucs, ...rest } = p;
  return {
    ...rest,
    ...(time === undefined ? {} : { time: { seconds: time.seconds, nanos: time.nanos } }),
    ...(ucs === undefined ? {} : { upgradedClientState: { typeUrl: ucs.typeUrl, value: toHex(ucs.value) } }),
  };
}

/** The wire object of a governance event: its kind is written `type`. */
export const govEventWire = ({ kind, ...rest }: GovBlockEvent): unknown => ({ type: kind, ...rest });

/**
 * One process of a node's binary over the node's persistent state. Created at each start; dropped at each stop.
 * Contract: `execute` leaves the block's writes pending; exactly one of `commit` or `abort` follows.
 */
export interface NodeProcess {
  readonly binary: string;
  /**
   * The last committed height; before the first commit, the chain's initial height − 1 (CometBFT's handshake: an
   * app at version 0 gets InitChain and then block `initial_height`), 0 for a chain from height 1.
   */
  lastHeight(): number;
  lastAppHash(): string;
  /**
   * The idle horizon: blocks with no transactions at heights < heightEnd and times < timeEndMs would write
   * nothing and halt nothing (no plan due, no early handler, no downgrade check pending, no governance deadline).
   * undefined when the next block is not idle whatever its time.
   */
  idleHorizon(): { readonly heightEnd: number; readonly timeEndMs: number } | undefined;
  /** Commits the next `count` blocks without executing them; valid only inside the idle horizon. */
  commitIdle(count: number): void;
  execute(height: number, timeMs: number, txs: readonly SimTx[]): ExecOutcome;
  commit(): void;
  abort(): void;
  /**
   * Execution sharing. Processes with equal keys are interchangeable for the next block: `execute` with the same
   * arguments gives them the same outcome and, with `commit`, the same state. undefined when the process cannot
   * vouch for that (it then always executes itself). Keys are only compared between processes of one host.
   */
  executionKey(): string | undefined;
  /**
   * After a successful `execute`: true when its effects are only the pending writes and the process's in-memory
   * state (nothing node-specific such as a file written), so that `adoptCommitted` may reproduce them elsewhere.
   */
  lastExecutionShareable(): boolean;
  /**
   * Instead of `execute` + `commit` of the next block: takes the result of `source`, which had this process's
   * execution key, executed that block shareably with the same arguments and has just committed it. Afterwards this
   * process is exactly as if it had executed and committed the block itself. A breach of the contract throws.
   */
  adoptCommitted(source: NodeProcess): void;
}

export interface SidecarConfig {
  readonly enabled: boolean;
  readonly delayMs: DurationMs;
  /** plan name → binary name; otherwise the only binary that registers a handler for the plan. */
  readonly binaries: ReadonlyMap<string, string>;
}

export interface NodeConfig {
  readonly name: string;
  /** Voting power (0 for full nodes). */
  readonly power: number;
  readonly binary: string;
  readonly skipUpgradeHeights: readonly number[];
  readonly sidecar: SidecarConfig;
  /** The operator model (operator.ts); absent: only `sidecar` and the scenario's steps act on the node. */
  readonly operator?: OperatorConfig | undefined;
  /** false makes `<home>/data` read-only, so writing upgrade-info.json fails. */
  readonly upgradeInfoWritable: boolean;
  /** Set: a write below `<home>/data` keeps its first this many bytes and fails (a full disk). */
  readonly dataDiskBytes?: number;
}

/**
 * A proposal's status as the chain records it: x/gov's statuses, plus `dropped` (deleted at its deposit end) and
 * `cancelled` (deleted by MsgCancelProposal), which gov's store no longer shows.
 */
export const PROPOSAL_STATUSES = [
  "deposit_period",
  "voting_period",
  "passed",
  "rejected",
  "failed",
  "dropped",
  "cancelled",
] as const;
export type ProposalStatusName = (typeof PROPOSAL_STATUSES)[number];
/** The statuses gov's store can show (a dropped or cancelled proposal is deleted). */
export type StoredProposalStatus = Exclude<ProposalStatusName, "dropped" | "cancelled">;
