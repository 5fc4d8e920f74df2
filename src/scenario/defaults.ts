/**
 * Defaults of the scenario format (docs/scenario-format.md §2), written in the file's own syntax so that they go through the
 * same parsers as user input. Gov defaults are the reference's (docs/fidelity.md §3.8, `x/gov/types/v1/params.go`).
 */

export const SCENARIO_DEFAULTS = {
  description: "",
  seed: 1,
  chainId: "chain-sim-1",
  genesisTime: "2026-01-01T00:00:00Z",
  blockTime: "6s",
  /** Lower clip of the normal block-time model. */
  normalBlockTimeMin: "1ms",
  validators: [{ name: "val1", power: 100 }],
  /** Balance of each validator not listed in `chain.accounts`. */
  validatorBalance: "1000000000000stake",
  sidecarDelay: "0s",
  failMessage: "upgrade handler failed",
  expeditedFallbackVotes: "delete",
} as const;

export const GOV_DEFAULTS = {
  minDeposit: "10000000stake",
  expeditedMinDeposit: "50000000stake",
  maxDepositPeriod: "48h",
  votingPeriod: "48h",
  expeditedVotingPeriod: "24h",
  quorum: "0.334",
  threshold: "0.5",
  expeditedThreshold: "0.667",
  vetoThreshold: "0.334",
  minInitialDepositRatio: "0",
  minDepositRatio: "0.01",
  proposalCancelRatio: "0.5",
  proposalCancelDest: "",
  burnVoteQuorum: false,
  burnProposalDepositPrevote: false,
  burnVoteVeto: true,
} as const;

/** Modules every binary has, at consensus version 1 unless the binary lists them. */
export const BASE_MODULES = ["bank", "gov", "upgrade"] as const;
