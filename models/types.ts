/**
 * Data types of the upgrade-lifecycle oracle. Everything here is plain, readonly data so that a snapshot's context
 * can be compared, printed and rehydrated. The oracle is written from the specs (docs/fidelity.md §2.2-§2.6, §2.10;
 * docs/scenario-format.md §1; docs/fidelity.md §3.10), never from the implementation under src/.
 */

import type { Height } from "../src/core/brand.js";
import type { BinaryDefinition, StoreUpgradesSpec, VersionMap } from "./binary-outcome.js";
import type { History } from "./history.js";

/** A plan height as a message carries it: any 64-bit integer (safe integers are kept as numbers). */
export type PlanHeight = number | bigint;

/** The single plan slot of the upgrade keeper. `info` is "" when absent. */
export interface Plan {
  readonly name: string;
  readonly height: PlanHeight;
  readonly info: string;
}

/** The content of a node's `upgrade-info.json`; `height` is the block at which the node halted, not plan.height. */
export interface UpgradeInfo {
  readonly name: string;
  readonly height: Height;
  readonly info: string;
}

/** Upgrade module messages as a proposal or an authority transaction carries them. */
export type UpgradeMsg =
  | {
      readonly type: "softwareUpgrade";
      readonly plan: { readonly name: string; readonly height: PlanHeight; readonly info?: string };
    }
  | { readonly type: "cancelUpgrade" };

/** The closed set of halt kinds (docs/scenario-format.md §1). The last two are never predicted: no fs or store faults here. */
export type HaltKind =
  | "upgrade-needed"
  | "binary-too-early"
  | "downgrade"
  | "handler-error"
  | "app-hash-mismatch"
  | "upgrade-info-write-failed"
  | "store-load-failed";

export type NodeStatus =
  | { readonly state: "running" }
  | { readonly state: "halted"; readonly kind: HaltKind; readonly message: string; readonly height: Height }
  | { readonly state: "stopped" };

/** An abstract handler: `'ok'` leaves the version map unchanged; `{error}` makes ApplyUpgrade fail with that text. */
export type AbstractHandler = "ok" | { readonly error: string };

/** A binary described only by its handlers (the brief's abstract shape). */
export interface AbstractBinary {
  readonly handlers: Readonly<Record<string, AbstractHandler>>;
  /** Store upgrades per plan name, applied at start (docs/scenario-format.md §1, docs/fidelity.md §2.6). */
  readonly storeUpgrades?: Readonly<Record<string, StoreUpgradesSpec>>;
}

/** Either the abstract shape or the scenario file's binary shape (modules, migrations, upgrades). */
export type BinaryInput = AbstractBinary | BinaryDefinition;

export interface NodeInput {
  readonly name: string;
  readonly binary: string;
  /** Voting power; 0 (the default) is a full node. */
  readonly power?: number;
  readonly skipHeights?: readonly number[];
}

export interface OracleInput {
  readonly binaries: Readonly<Record<string, BinaryInput>>;
  /** Validators and full nodes, in a fixed order (reports list nodes in this order). */
  readonly nodes: readonly NodeInput[];
  /** Binary whose modules form the genesis version map; defaults to the first key of `binaries`. */
  readonly genesisBinary?: string;
}

/** A done marker: the block height at which ApplyUpgrade ran (not plan.height). */
export interface DoneEntry {
  readonly name: string;
  readonly height: Height;
}

/**
 * The committed application state relevant to upgrades, as every node that committed the same blocks holds it.
 * `stores` is an abstract store layout: one entry per store upgrade that took effect, so that nodes that loaded
 * different stores disagree on the app hash.
 */
export interface ChainState {
  readonly plan: Plan | null;
  /** Sorted like the store keys: by height, then by name bytes. */
  readonly done: readonly DoneEntry[];
  readonly protocolVersion: number;
  readonly moduleVersions: VersionMap;
  readonly stores: readonly string[];
}

export interface NodeState {
  readonly name: string;
  readonly power: number;
  readonly binary: string;
  readonly skipHeights: readonly number[];
  readonly status: NodeStatus;
  /** Last height this node committed; its state is `states[lastHeight]`. */
  readonly lastHeight: Height;
  /** True from a (re)start until the node's first PreBlock (the keeper's downgradeVerified flag is false). */
  readonly downgradeCheckPending: boolean;
  readonly upgradeInfo: UpgradeInfo | null;
  /** Store-layout entry loaded at the last start and not yet committed. */
  readonly pendingStoreUpgrade: string | null;
}

export interface HaltRecord {
  readonly node: string;
  readonly height: Height;
  readonly kind: HaltKind;
  readonly message: string;
}

export interface StoreUpgradeRecord {
  readonly node: string;
  readonly name: string;
  readonly height: Height;
}

export type PlanAction = "applied" | "skipped" | "none";

/** What one BLOCK event did. */
export interface BlockReport {
  readonly height: Height;
  readonly committed: boolean;
  /** Plan action of the committed result; null when the chain stalled. */
  readonly action: PlanAction | null;
  /** Plan the action concerned (applied or skipped), else null. */
  readonly planName: string | null;
  /** True when an applied upgrade's handler effects were committed by this block. */
  readonly handlerCommitted: boolean;
  /** Nodes whose handler ran for this block (including ones whose handler failed or whose result lost). */
  readonly handlerRanOn: readonly string[];
  /** Nodes that committed the block. */
  readonly committedBy: readonly string[];
  /** Halts caused by this event, in order: catch-up halts, PreBlock halts, then app-hash mismatches. */
  readonly halts: readonly HaltRecord[];
}

/** What one PROPOSAL_EXECUTED / AUTHORITY_EXEC event did. */
export interface ExecReport {
  readonly source: "proposal" | "authority";
  readonly height: Height;
  readonly ok: boolean;
  readonly error: string | null;
}

export interface NameCount {
  readonly name: string;
  readonly count: number;
}

export interface OracleContext {
  readonly binaries: Readonly<Record<string, BinaryInput>>;
  readonly nodes: readonly NodeState[];
  /** Last committed height of the chain. */
  readonly height: Height;
  /** `states[k]` is the committed state after block k (including block k's transactions); `states[0]` = genesis. */
  readonly states: History<ChainState>;
  /** `blockKeys[k]` is the abstract app-hash key of block k's PreBlock result ("" for genesis). */
  readonly blockKeys: History<string>;
  /** Times each plan's handler effects were committed on the chain, in first-commit order. */
  readonly handlerRuns: readonly NameCount[];
  readonly halts: readonly HaltRecord[];
  readonly storeUpgradesApplied: readonly StoreUpgradeRecord[];
  readonly lastBlock: BlockReport | null;
  readonly lastExec: ExecReport | null;
}

export type OracleEvent =
  /** A passed proposal's messages ran in the EndBlocker of block `height` (sent after that block committed). */
  | { readonly type: "PROPOSAL_EXECUTED"; readonly height: number; readonly msgs: readonly UpgradeMsg[] }
  /** The same messages ran as one authority transaction in block `height` (sent after that block committed). */
  | { readonly type: "AUTHORITY_EXEC"; readonly height: number; readonly msgs: readonly UpgradeMsg[] }
  /** Block `height` (= chain height + 1) is executed by every running node. */
  | { readonly type: "BLOCK"; readonly height: number }
  /** Stop (if running) and start `node` with `binary`; without `skipHeights` it keeps its skip heights. */
  | {
      readonly type: "NODE_STARTED";
      readonly node: string;
      readonly binary: string;
      readonly skipHeights?: readonly number[];
    }
  | { readonly type: "NODE_STOPPED"; readonly node: string }
  /** A running node that is behind re-executes the committed blocks now. */
  | { readonly type: "NODE_CAUGHT_UP"; readonly node: string };
