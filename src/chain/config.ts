import type { UnixMs } from "../core/brand.js";
import type { BlockTimeModel } from "./block-time.js";

/** The chain-wide settings of a run: chain id, genesis time, the seed of every random stream, the block-time model. */
export interface ChainConfig {
  readonly chainId: string;
  readonly genesisTimeMs: UnixMs;
  readonly seed: number;
  readonly blockTime: BlockTimeModel;
}

export type NodeStatus = "running" | "halted" | "stopped";
