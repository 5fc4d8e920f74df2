/**
 * The resolved scenario: what the engine runs. Every default is applied, every name it refers to exists, times are
 * Unix milliseconds, durations are milliseconds (fields end in `Ms`), coins are parsed, and name-keyed collections
 * are Maps in a defined order. Optional properties mean "not given" (e.g. an expectation that is not checked);
 * `null` is a value (e.g. `plan: null` expects no plan).
 *
 * Integers: heights, versions, powers and counts are JS numbers (safe integers). Plan heights inside messages and
 * plan expectations are `bigint` (int64 in the proto; may be 0, negative or beyond 2^53 on purpose).
 */

import type { OperatorConfig } from "../app/operator.js";
import type { UpgradeMessage } from "../app/types.js";
import type { Action as ChainAction, Step as ChainStep, Trigger as ChainTrigger } from "../chain/actions.js";
import type { BlockTimeModel } from "../chain/block-time.js";
import type { ProposalStatusName } from "../chain/records.js";
import type { DurationMs, Height, UnixMs } from "../core/brand.js";
import type { LogLevel } from "../core/context.js";
import type { Fault } from "../faults/index.js";
import type { PruningOptions } from "../store/pruning.js";
import type { StoreUpgrades } from "../store/types.js";
import type { HaltKind } from "../upgrade/halt.js";
import type { Coins } from "./coins.js";
import type { FallbackVotes } from "./schema.js";

export type { BlockTimeModel };

/** What a node runs, as an expectation: each field checked only when present. */
export interface NodeExpectation {
  readonly binary?: string;
  readonly status?: "running" | "halted" | "stopped";
}

/**
 * x/gov params at genesis as a scenario writes them (gov's own `GovParams` is the parsed form). Ratios are SDK
 * decimal strings as written (e.g. "0.334"); gov parses them.
 */
export interface GenesisGovParams {
  readonly minDeposit: Coins;
  readonly expeditedMinDeposit: Coins;
  readonly maxDepositPeriodMs: DurationMs;
  readonly votingPeriodMs: DurationMs;
  readonly expeditedVotingPeriodMs: DurationMs;
  readonly quorum: string;
  readonly threshold: string;
  readonly expeditedThreshold: string;
  readonly vetoThreshold: string;
  readonly minInitialDepositRatio: string;
  readonly minDepositRatio: string;
  readonly proposalCancelRatio: string;
  /** "" burns withheld deposits. */
  readonly proposalCancelDest: string;
  readonly burnVoteQuorum: boolean;
  readonly burnProposalDepositPrevote: boolean;
  readonly burnVoteVeto: boolean;
}

export interface ValidatorModel {
  readonly name: string;
  /** Bonded `stake`; > 0. */
  readonly power: number;
}

export interface ChainModel {
  readonly chainId: string;
  /** The bech32 account prefix of every address the chain shows (default `chain`). */
  readonly bech32Prefix: string;
  readonly genesisTime: UnixMs;
  readonly blockTime: BlockTimeModel;
  readonly gov: GenesisGovParams;
  /** In file order. */
  readonly validators: readonly ValidatorModel[];
  /** Genesis balances: listed accounts in file order, then each unlisted validator with 1000000000000stake. */
  readonly accounts: ReadonlyMap<string, Coins>;
  /** Pruning of every node's state (default: the `default` strategy). */
  readonly pruning: PruningOptions;
}

/** Shapes match `src/app/binary.ts` (UpgradeDef), so a BinaryModel is a BinaryDef. */
export type UpgradeHandlerModel =
  | { readonly handler: "migrate" | "noop"; readonly storeUpgrades?: StoreUpgrades }
  | { readonly handler: "fail"; readonly failMessage: string; readonly storeUpgrades?: StoreUpgrades };

export interface BinaryModel {
  readonly name: string;
  /** Module → consensus version, ascending by name; includes bank, gov and upgrade (version 1 unless listed). */
  readonly modules: ReadonlyMap<string, number>;
  /** Module → from-versions `v` with a registered migration `v → v+1`, ascending. */
  readonly migrations: ReadonlyMap<string, readonly number[]>;
  /** Plan name → handler, in file order. */
  readonly upgrades: ReadonlyMap<string, UpgradeHandlerModel>;
}

export interface SidecarModel {
  readonly enabled: boolean;
  readonly delayMs: DurationMs;
  /** Plan name → binary to switch to. */
  readonly binaries: ReadonlyMap<string, string>;
}

export interface NodeModel {
  readonly name: string;
  /** True for a validator's node (same name); false for a full node (power 0). */
  readonly validator: boolean;
  readonly power: number;
  /** The binary the node starts with. */
  readonly binary: string;
  readonly skipUpgradeHeights: readonly Height[];
  readonly sidecar: SidecarModel;
  /** The operator model (docs/scenario-format.md §2.4); absent: none. */
  readonly operator?: OperatorConfig | undefined;
  /** false simulates an unwritable data directory: writing upgrade-info.json fails. */
  readonly upgradeInfoWritable: boolean;
  /** Set: the data directory's disk fills up after this many bytes of a write. */
  readonly dataDiskBytes?: number;
}

export type { UpgradeMessage };

/** When a step of a file runs: the chain's triggers, except `now` (library use only). */
export type Trigger = Exclude<ChainTrigger, { readonly kind: "now" }>;

export interface PlanExpectation {
  readonly name: string;
  readonly height: bigint;
  /** Absent: not compared. */
  readonly info?: string;
}

export interface HaltExpectation {
  readonly node?: string;
  readonly height?: Height;
  readonly kind?: HaltKind;
  readonly message?: string;
}

export interface EventExpectation {
  readonly height?: Height;
  readonly type: string;
  /** Attribute key → value; only the keys listed are compared. */
  readonly attributes?: ReadonlyMap<string, string>;
}

export interface LogExpectation {
  readonly height?: Height;
  /** Only this node's final lines before a halt (HaltRecord.logs); a committed block's lines are every committer's. */
  readonly node?: string;
  readonly level: LogLevel;
  readonly module?: string;
  /** The exact text. */
  readonly message: string;
}

export interface Expectations {
  readonly height?: Height;
  readonly halted?: false | { readonly height: Height; readonly nodes?: readonly string[] };
  readonly plan?: PlanExpectation | null;
  readonly applied?: ReadonlyMap<string, Height>;
  readonly moduleVersions?: ReadonlyMap<string, number>;
  readonly protocolVersion?: number;
  readonly proposals?: ReadonlyMap<string, { readonly status: ProposalStatusName; readonly failedReason?: string }>;
  readonly halts?: readonly HaltExpectation[];
  readonly handlerRuns?: ReadonlyMap<string, number>;
  readonly upgradeInfo?: ReadonlyMap<string, PlanExpectation | null>;
  /** Node → the binary it runs and its status (each optional). */
  readonly nodes?: ReadonlyMap<string, NodeExpectation>;
  readonly stores?: readonly string[];
  readonly steps?: ReadonlyMap<string, { readonly ok: boolean; readonly error?: string }>;
  /** Account, validator or module account name → its whole committed balance. */
  readonly balances?: ReadonlyMap<string, Coins>;
  /** The whole total supply. */
  readonly supply?: Coins;
  /** Events that must have been emitted in committed blocks, in this order, others allowed between. */
  readonly events?: readonly EventExpectation[];
  /** Events no committed block may have emitted: each entry matches as in `events`. */
  readonly noEvents?: readonly EventExpectation[];
  /** Log lines that must have been written (committed blocks' and halted nodes' final lines), in this order. */
  readonly logs?: readonly LogExpectation[];
  /** Log lines never written: each entry matches as in `logs`. */
  readonly noLogs?: readonly LogExpectation[];
}

/**
 * What a step of a file does: the chain's actions as they are (the engine runs them unchanged), except its
 * `check` reference; in its place the two checks a file can write, `query` and `expect`, which the simulation
 * turns into `{kind: "check", id: <step index>}`.
 */
export type Action =
  | Exclude<ChainAction, { readonly kind: "check" }>
  | {
      readonly kind: "query";
      readonly node: string;
      readonly path: string;
      readonly height?: number;
      readonly headers: ReadonlyMap<string, string>;
      readonly expect: { readonly status: number; readonly body?: unknown };
    }
  | { readonly kind: "expect"; readonly expect: Expectations };

/** A file's step; `optional`: it may legitimately never run (else a step that never ran fails the scenario). */
export type Step = ChainStep<Action, Trigger> & { readonly optional?: true };

export interface RunModel {
  readonly untilHeight?: Height;
  readonly untilTime?: UnixMs;
  readonly maxBlocks?: number;
}

/** A pending proposal of a profile, as the chain holds it at the start (gov's genesis state). */
export interface ImportedProposal {
  readonly id: bigint;
  /** `proposal-<id>`: the name steps and expectations use. */
  readonly label: string;
  readonly status: "deposit" | "voting";
  readonly expedited: boolean;
  readonly title: string;
  /** The proposer's address, and the depositor of the whole deposit (a profile carries only the total). */
  readonly proposer: string;
  readonly submitTimeMs: number;
  readonly depositEndTimeMs: number;
  readonly votingStartTimeMs?: number;
  readonly votingEndTimeMs?: number;
  readonly deposit: Coins;
  /** Upgrade messages, or another message kept by its type URL (never executed by chainsim's router). */
  readonly messages: readonly (UpgradeMessage | { readonly kind: "other"; readonly typeUrl: string })[];
}

/**
 * Where a scenario `from:` a profile starts: the chain's initial height is `height + 1` (CometBFT's
 * `initial_height`), its genesis time `timeMs` (the profile's `at`), and its genesis state holds the rest.
 */
export interface StartModel {
  /** The profile's path as read. */
  readonly profile: string;
  readonly height: number;
  readonly timeMs: number;
  /** The module versions the profile read (the genesis binary's, checked at load). */
  readonly modules?: ReadonlyMap<string, number>;
  readonly plan: { readonly name: string; readonly height: bigint; readonly info: string } | null;
  readonly applied: readonly { readonly name: string; readonly height: number }[];
  readonly proposals: readonly ImportedProposal[];
}

export interface Scenario {
  /** The file name it was loaded from, as given to the loader. */
  readonly file: string;
  /** Set when the scenario starts `from:` a profile. */
  readonly start?: StartModel;
  readonly name: string;
  readonly description: string;
  readonly seed: number;
  readonly chain: ChainModel;
  /** In file order. */
  readonly binaries: ReadonlyMap<string, BinaryModel>;
  readonly genesisBinary: string;
  /** Validators' nodes in validator order, then full nodes in file order. */
  readonly nodes: ReadonlyMap<string, NodeModel>;
  readonly steps: readonly Step[];
  /** Absent fields: the default stop rule (10 blocks past the last step or plan height; or a stall). */
  readonly run: RunModel;
  readonly expect?: Expectations;
  readonly options: { readonly expeditedFallbackVotes: FallbackVotes; readonly faults: readonly Fault[] };
}
