import type { PlainError, Result } from "../core/errors.js";
import type { KVStore } from "../core/kv.js";

/** Named module stores. */
export interface MultiStore {
  /** The module store with this name; throws a programming error when the store is not mounted. */
  getKVStore(name: string): KVStore;
  hasStore(name: string): boolean;
  /** Mounted store names in byte order. */
  storeNames(): readonly string[];
}

/** A branch of a multistore: reads fall through to the parent, writes stay here until `write()`. */
export interface CacheMultiStore extends MultiStore {
  /** Flushes this branch's writes into its parent. Discarding a branch is simply dropping it. */
  write(): void;
}

/** StoreUpgrades as in the reference (`added`, `renamed` {old_key,new_key}, `deleted`). */
export interface StoreUpgrades {
  readonly added: readonly string[];
  readonly renamed: readonly { readonly oldKey: string; readonly newKey: string }[];
  readonly deleted: readonly string[];
}

/** Store-level failures render as Go `errors.New`/`fmt.Errorf` texts: plain errors. */
export type StoreError = PlainError;

/** The identity of a committed version: its number and the app hash of its content. */
export interface CommitId {
  readonly version: number;
  readonly appHash: Uint8Array;
}

/**
 * The committing multistore the app runs on (VersionedMultiStore). `getKVStore` serves the working state: the
 * current block's uncommitted writes over the last commit.
 */
export interface CommitMultiStore extends MultiStore {
  branch(): CacheMultiStore;
  /** Commits the working state as the next version and prunes per the pruning options. */
  commit(): CommitId;
  /** Drops the uncommitted writes of the current block. */
  discardWorking(): void;
  lastCommitId(): CommitId;
  latestVersion(): number;
  earliestVersion(): number;
  /** A read-only view of a retained version. */
  readAt(version: number): Result<MultiStore, StoreError>;
  appHashAt(version: number): Result<Uint8Array, StoreError>;
  loadLatestVersion(): Result<void, StoreError>;
  loadLatestVersionAndUpgrade(upgrades: StoreUpgrades): Result<void, StoreError>;
}
