import type { KeeperClass, StoreLoader } from "../app/hooks.js";
import type { ConsensusHook } from "../chain/consensus.js";
import type { LaunchHook, OperatorLaunchHook } from "../chain/records.js";
import type { UpgradeKeeper } from "../upgrade/keeper.js";
import type { UpgradeMsgServer } from "../upgrade/msg-server.js";
import type { PreBlockResult } from "../upgrade/preblocker.js";

/**
 * What one planted fault intercepts. Every hook is optional; the catalog composes the faults a scenario enables
 * (in catalog order) into the app host's hooks and the engine's consensus hook (compose.ts).
 */
export interface FaultHooks {
  /** A subclass of the keeper class it is given (keeper methods). */
  readonly keeper?: (base: KeeperClass) => KeeperClass;
  /** The PreBlocker's result (a halt swallowed, a plan applied early, ...). */
  readonly preBlock?: (r: PreBlockResult) => PreBlockResult;
  /** The upgrade msg server. */
  readonly msgServer?: (inner: UpgradeMsgServer, keeper: UpgradeKeeper) => UpgradeMsgServer;
  /** The upgrade store loader. */
  readonly storeLoader?: (inner: StoreLoader) => StoreLoader;
  /** The genesis app hash. */
  readonly genesisAppHash?: (hash: string) => string;
  /** The engine's commit decision. */
  readonly consensus?: ConsensusHook;
  /** The binary an operator's swap or restart launches. */
  readonly launch?: LaunchHook;
  /** The binary an operator-model restart launches. */
  readonly operatorLaunch?: OperatorLaunchHook;
}

/** A planted fault: what it breaks, how (its hooks), and what must catch it. */
export interface FaultDefinition {
  readonly name: string;
  /** One line: how the chain is wrong under this fault. */
  readonly breaks: string;
  readonly hooks: FaultHooks;
  /**
   * Which library scenarios catch it. The properties that catch it declare it themselves (`catches` on
   * src/harness/property.ts `Property`); properties/faults.test.ts holds every fault to at least one of them.
   */
  readonly caughtBy: {
    /** Scenario files (scenarios/<name>.yaml) whose expectations fail with it enabled. */
    readonly scenarios: readonly string[];
  };
  /**
   * Whether the oracle's predictions differ from the chain under this fault, so a counterexample written as a
   * scenario (expectations from the oracle) replays to a failure.
   */
  readonly replayFails: boolean;
}
