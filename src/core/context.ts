import type { Height, UnixMs } from "./brand.js";
import type { KVStore } from "./kv.js";

/** An ABCI-style event: a type and ordered string attributes. */
export interface Event {
  readonly type: string;
  readonly attributes: readonly { readonly key: string; readonly value: string }[];
}

/** The levels modules log at (the reference's logger levels that the simulated modules use). */
export const LOG_LEVELS = ["info", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * A log line a module wrote. Not part of the trace: the engine keeps each committed block's lines and each halted
 * node's final lines, and scenarios pin them (operators and sidecars read them), so their text is exact.
 */
export interface LogLine {
  readonly level: LogLevel;
  readonly module: string;
  readonly message: string;
}

/**
 * The execution context handed to keepers: the block header facts they may read, the stores of the current
 * branch, and sinks for events and logs. A keeper never reaches anything else (no clock, no randomness).
 */
export interface Ctx {
  readonly chainId: string;
  readonly height: Height;
  readonly time: UnixMs;
  /** Consensus params `Version.App` (0 when unset); shown in the downgrade halt message. */
  readonly appVersion: bigint;
  kv(storeName: string): KVStore;
  emit(event: Event): void;
  log(level: LogLevel, module: string, message: string): void;
  /**
   * A branch of this context: same header, stores that read through to this context's stores, and its own event
   * and log buffers. `write()` flushes the branch's writes, events and logs into this context; dropping the branch
   * discards them (how failed transactions and failed proposal executions leave no trace).
   */
  branch(): { readonly ctx: Ctx; write(): void };
}
