import type { UnixMs } from "../core/brand.js";
import type { BlockTimeModel } from "./block-time.js";

/** The chain-wide settings of a run: chain id, genesis time, the seed of every random stream, the block-time model. */
export interface ChainConfig {
  readonly chainId: string;
  /** The bech32 account prefix: scenario accounts send from `addressOfName(name, bech32Prefix)`. */
  readonly bech32Prefix: string;
  readonly genesisTimeMs: UnixMs;
  readonly seed: number;
  readonly blockTime: BlockTimeModel;
  /**
   * CometBFT's `initial_height`: the height of the first block (InitChain runs in it); absent: 1. A chain started
   * `from:` a profile begins at the imported height + 1, at `genesisTimeMs` = the imported block's time.
   */
  readonly initialHeight?: number;
  /** Proposals the chain holds at genesis (a profile's), tracked from the first block like submitted ones. */
  readonly genesisProposals?: readonly GenesisProposalRecord[];
  /** The plan the upgrade store holds at genesis (a profile's pending plan): the committed plan already traced. */
  readonly genesisPlan?: { readonly name: string; readonly height: number; readonly info: string };
}

/** A proposal in the genesis state: its id, the label steps name it by, and its times. */
export interface GenesisProposalRecord {
  readonly id: bigint;
  readonly label: string;
  readonly status: "deposit_period" | "voting_period";
  readonly depositEndTimeMs: number;
  readonly votingStartTimeMs: number | null;
  readonly votingEndTimeMs: number | null;
}

export type NodeStatus = "running" | "halted" | "stopped";
