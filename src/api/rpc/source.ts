import type { QueryBackend } from "../backend.js";
import type { BlockSource } from "../services/block.js";

/**
 * What the CometBFT RPC reads of a node. The devnet serves all of it; a simulated node (`chainsim serve`) serves the
 * read-only part (no `broadcast`).
 */
export interface RpcEventAttribute {
  readonly key: string;
  readonly value: string;
  readonly index: boolean;
}

export interface RpcEvent {
  readonly type: string;
  readonly attributes: readonly RpcEventAttribute[];
}

/** An ExecTxResult / ResponseCheckTx as the RPC serves it. */
export interface RpcTxResult {
  readonly code: number;
  readonly codespace: string;
  readonly log: string;
  readonly gasWanted: bigint;
  readonly gasUsed: bigint;
  readonly events: readonly RpcEvent[];
  /** ExecTxResult.data (the TxMsgData of a successful devnet transaction); absent or empty renders as null. */
  readonly data?: Uint8Array;
}

export interface RpcValidator {
  /** 20-byte consensus address (the header's proposer address). */
  readonly address: Uint8Array;
  /** 32-byte ed25519 consensus public key. */
  readonly pubkey: Uint8Array;
  readonly power: bigint;
  readonly name: string;
}

/** The outcome of CheckTx as the RPC needs it: the application's answer, or the mempool's own refusal. */
export type RpcCheck =
  | { readonly kind: "checked"; readonly hash: string; readonly result: RpcTxResult }
  | { readonly kind: "mempool"; readonly hash: string; readonly message: string };

/** The write side of a live node. */
export interface RpcBroadcast {
  check(tx: Uint8Array): RpcCheck;
  /** Resolves when the tx is committed (its height), or undefined after `timeoutMs`. */
  committed(hash: string, timeoutMs: number): Promise<number | undefined>;
  readonly commitTimeoutMs: number;
}

export interface RpcSource {
  /** The query services and height rules shared with gRPC and REST (abci_query runs through them). */
  readonly backend: QueryBackend;
  readonly blocks: BlockSource;
  /** The app hash after block `height` (upper-case hex), for abci_info and status. */
  appHashAfter(height: number): string | undefined;
  /** The tx results of a stored block, in block order. */
  blockResults(height: number): readonly RpcTxResult[];
  /** The consensus validator set (the same at every height: the chains served here have no staking changes). */
  validators(): readonly RpcValidator[];
  /**
   * Genesis time, CometBFT's `initial_height` (the first block's height: 1, or a later one for a chain that starts
   * from an imported state) and the application state to show in `genesis`.
   */
  genesis(): { readonly timeMs: number; readonly initialHeight: number; readonly appState: unknown };
  mempool(): { readonly count: number; readonly bytes: number };
  /** The height of a committed tx by hash, when the node keeps a tx index (else `tx` scans the blocks). */
  txHeight?(hash: string): number | undefined;
  readonly broadcast?: RpcBroadcast;
}
