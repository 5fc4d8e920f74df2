import type { Halt, NodeConfig, NodeProcess, StoredProposalStatus } from "./types.js";

/** An upgrade-info.json as a node or its sidecar reads it. */
export type UpgradeInfoRead =
  | { readonly kind: "absent" }
  | { readonly kind: "ok"; readonly name: string; readonly height: number; readonly info: string }
  | { readonly kind: "invalid"; readonly error: string };

/** A proposal as the committed state shows it (times in ms; undefined when not set). */
export interface ProposalView {
  readonly status: StoredProposalStatus;
  readonly submitTimeMs: number;
  readonly depositEndTimeMs: number;
  readonly votingStartTimeMs?: number;
  readonly votingEndTimeMs?: number;
  readonly failedReason: string;
  /** `final_tally_result` once a tally stored one: each option's counted power, as decimal integer strings. */
  readonly finalTally?: {
    readonly yes: string;
    readonly abstain: string;
    readonly no: string;
    readonly noWithVeto: string;
  };
}

/** The parts of a node's committed state that expectations and reports read. */
export interface CommittedView {
  readonly plan: { readonly name: string; readonly height: number; readonly info: string } | null;
  /** Done markers: plan name → lowest done height. */
  readonly applied: ReadonlyMap<string, number>;
  readonly moduleVersions: ReadonlyMap<string, number>;
  readonly protocolVersion: number;
  readonly stores: readonly string[];
  readonly appHash: string;
}

/**
 * What the chain engine needs from the application layer. `S` is a node's persistent state (its stores and its
 * file system); a NodeProcess is one run of a binary over it. The engine never looks inside either, nor inside their images (`I`).
 */
export interface AppHost<S, I = unknown> {
  /** App hash of the genesis state (what block 1's header carries). */
  genesisAppHash(): string;
  createNodeState(cfg: NodeConfig): S;
  cloneNodeState(state: S): S;
  /** Starts a process: reads upgrade-info.json, runs the store loader, checks mounted stores. */
  start(
    state: S,
    cfg: NodeConfig,
    binary: string,
    skipUpgradeHeights: readonly number[],
  ): { readonly ok: true; readonly process: NodeProcess } | { readonly ok: false; readonly halt: Halt };
  /**
   * A node's state and its running process (if any) as plain data: no closures, nothing structuredClone cannot
   * copy. `restoreNode` rebuilds both, and they behave exactly as the originals would from here. Independent of
   * later changes to the node; immutable parts (committed store content) are shared, not copied, so taking and
   * restoring an image is cheap. Between blocks only (no block executed and not yet committed or aborted).
   */
  snapshotNode(state: S, process: NodeProcess | undefined): I;
  restoreNode(image: I): { readonly state: S; readonly process: NodeProcess | undefined };
  /** As `NodeProcess.lastHeight`: the chain's initial height − 1 before the node's first commit. */
  lastHeight(state: S): number;
  lastAppHash(state: S): string;
  /** Binaries that register an upgrade handler for this plan name, in definition order. */
  binariesWithHandler(planName: string): readonly string[];
  /** True when a binary of this name is defined. */
  hasBinary(name: string): boolean;
  readUpgradeInfo(state: S): UpgradeInfoRead;
  /**
   * Writes `content` as the node's `data/upgrade-info.json` (creating `data/`), as an operator editing the file: the
   * file system's error text when that fails (a read-only `data/`, a full disk).
   */
  writeUpgradeInfo(state: S, content: string): { readonly ok: true } | { readonly ok: false; readonly error: string };
  /**
   * What `cosmovisor add-upgrade <name> <bin> --upgrade-height <height>` writes to data/upgrade-info.json (the plan
   * as Go's json.Marshal renders it); the write error's text, else undefined.
   */
  stageUpgradeInfo(state: S, name: string, height: number): string | undefined;
  /** Removes data/upgrade-info.json (an operator undoing a staged upgrade). */
  removeUpgradeInfo(state: S): void;
  readCommitted(state: S): CommittedView;
  /** `readCommitted(state).plan` alone (read after every block that changed something: the cheap part only). */
  readCommittedPlan(state: S): CommittedView["plan"];
  readProposal(state: S, id: bigint): ProposalView | undefined;
  /**
   * How many votes and deposits the committed gov store keeps under proposal `id` (what the votes and deposits
   * queries would list), also once the proposal itself is deleted.
   */
  readProposalRecords(state: S, id: bigint): { readonly votes: number; readonly deposits: number };
  /** Committed balances (every denom) of the given addresses, and the total supply. */
  readBank(state: S, addresses: readonly string[]): BankView;
}

/** Committed bank state: the non-zero balances of the addresses asked for, and the total supply, sorted by denom. */
export interface BankView {
  readonly balances: ReadonlyMap<string, readonly BankCoin[]>;
  readonly supply: readonly BankCoin[];
}

export interface BankCoin {
  readonly denom: string;
  readonly amount: bigint;
}
