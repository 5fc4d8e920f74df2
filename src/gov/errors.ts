import { type PlainError, plain, type RegisteredError } from "../core/errors.js";

const register = (code: number, description: string): RegisteredError =>
  Object.freeze({ codespace: "gov", code, description });

/** x/gov registered errors (`x/gov/types/errors.go`, v0.50): codespace `gov`, same codes and descriptions. */
export const GovErrors = {
  ErrUnknownProposal: register(2, "unknown proposal"),
  ErrInactiveProposal: register(3, "inactive proposal"),
  ErrAlreadyActiveProposal: register(4, "proposal already active"),
  ErrInvalidProposalContent: register(5, "invalid proposal content"),
  ErrInvalidProposalType: register(6, "invalid proposal type"),
  ErrInvalidVote: register(7, "invalid vote option"),
  ErrInvalidGenesis: register(8, "invalid genesis state"),
  ErrNoProposalHandlerExists: register(9, "no handler exists for proposal type"),
  ErrUnroutableProposalMsg: register(10, "proposal message not recognized by router"),
  ErrNoProposalMsgs: register(11, "no messages proposed"),
  ErrInvalidProposalMsg: register(12, "invalid proposal message"),
  ErrInvalidSigner: register(13, "expected gov account as only signer for proposal message"),
  ErrInvalidSignalMsg: register(14, "signal message is invalid"),
  ErrMetadataTooLong: register(15, "metadata too long"),
  ErrMinDepositTooSmall: register(16, "minimum deposit is too small"),
  ErrProposalNotFound: register(17, "proposal is not found"),
  ErrInvalidProposer: register(18, "invalid proposer"),
  ErrNoDeposits: register(19, "no deposits found"),
  ErrVotingPeriodEnded: register(20, "voting period already ended"),
  ErrInvalidProposal: register(21, "invalid proposal"),
  ErrSummaryTooLong: register(22, "summary too long"),
  ErrInvalidDepositDenom: register(23, "invalid deposit denom"),
} as const;

/**
 * The error of a missing proposal in the reference's collections map (`Proposals.Get`), returned as-is by
 * AddDeposit and CancelProposal: a plain error, not a registered one.
 */
export const proposalNotInStore = (id: bigint): PlainError =>
  plain(`collections: not found: key '${id}' of type github.com/cosmos/gogoproto/chain.gov.v1.Proposal`);
