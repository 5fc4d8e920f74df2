import { UpgradeKeeper, type UpgradeKeeperOptions } from "../upgrade/keeper.js";
import type { UpgradeMsgServer } from "../upgrade/msg-server.js";
import type { PreBlockResult } from "../upgrade/preblocker.js";
import type { upgradeStoreLoader } from "../upgrade/store-loader.js";

/** A class of upgrade keeper a node process instantiates. */
export type KeeperClass = new (opts: UpgradeKeeperOptions) => UpgradeKeeper;

/** The upgrade store loader's shape (`upgradeStoreLoader`). */
export type StoreLoader = typeof upgradeStoreLoader;

/**
 * Interception points at the app's seams. Production builds the app host with none (NO_HOOKS) and then runs the
 * reference wiring unchanged; a planted-fault catalog (src/faults/) composes them to make the chain wrong on
 * purpose. Each hook is pure data flow: it receives what the reference computed and returns what the app uses.
 */
export interface AppHooks {
  /** The keeper class every node process instantiates (a subclass intercepts keeper methods). */
  readonly keeper: KeeperClass;
  /** The PreBlocker's result, before the process acts on it. */
  readonly preBlock: (r: PreBlockResult) => PreBlockResult;
  /** The upgrade msg server the gov router and authority transactions use. */
  readonly msgServer: (inner: UpgradeMsgServer, keeper: UpgradeKeeper) => UpgradeMsgServer;
  /** The store loader a starting binary runs. */
  readonly storeLoader: (inner: StoreLoader) => StoreLoader;
  /** The genesis app hash the host reports. */
  readonly genesisAppHash: (hash: string) => string;
}

/** The reference wiring: every hook is the identity. */
export const NO_HOOKS: AppHooks = Object.freeze({
  keeper: UpgradeKeeper,
  preBlock: (r: PreBlockResult) => r,
  msgServer: (inner: UpgradeMsgServer) => inner,
  storeLoader: (inner: StoreLoader) => inner,
  genesisAppHash: (hash: string) => hash,
});
