import type { Event } from "../core/context.js";

/** x/gov event types, attribute keys and values (`x/gov/types/events.go`). Attribute order is part of the contract. */
export const GovEventTypes = {
  submitProposal: "submit_proposal",
  proposalDeposit: "proposal_deposit",
  proposalVote: "proposal_vote",
  inactiveProposal: "inactive_proposal",
  activeProposal: "active_proposal",
  cancelProposal: "cancel_proposal",
} as const;

export type ProposalResult =
  | "proposal_dropped"
  | "proposal_passed"
  | "proposal_rejected"
  | "proposal_failed"
  | "expedited_proposal_rejected";

const event = (type: string, attrs: readonly (readonly [string, string])[]): Event => ({
  type,
  attributes: attrs.map(([key, value]) => ({ key, value })),
});

/** `proposal_messages` is every type url prefixed by a comma, leading comma included. */
export const submitProposalEvent = (id: bigint, typeUrls: readonly string[]): Event =>
  event(GovEventTypes.submitProposal, [
    ["proposal_id", id.toString()],
    ["proposal_messages", typeUrls.map((u) => `,${u}`).join("")],
  ]);

export const votingPeriodStartEvent = (type: "submit_proposal" | "proposal_deposit", id: bigint): Event =>
  event(type, [["voting_period_start", id.toString()]]);

export const proposalDepositEvent = (amount: string, id: bigint): Event =>
  event(GovEventTypes.proposalDeposit, [
    ["amount", amount],
    ["proposal_id", id.toString()],
  ]);

/** `option` is the JSON of the weighted options, e.g. `[{"option":1,"weight":"1.000000000000000000"}]`. */
export const proposalVoteEvent = (voter: string, optionJson: string, id: bigint): Event =>
  event(GovEventTypes.proposalVote, [
    ["voter", voter],
    ["option", optionJson],
    ["proposal_id", id.toString()],
  ]);

export const inactiveProposalEvent = (id: bigint, result: ProposalResult): Event =>
  event(GovEventTypes.inactiveProposal, [
    ["proposal_id", id.toString()],
    ["proposal_result", result],
  ]);

export const activeProposalEvent = (id: bigint, result: ProposalResult, log: string): Event =>
  event(GovEventTypes.activeProposal, [
    ["proposal_id", id.toString()],
    ["proposal_result", result],
    ["proposal_log", log],
  ]);

export const cancelProposalEvent = (sender: string, id: bigint): Event =>
  event(GovEventTypes.cancelProposal, [
    ["sender", sender],
    ["proposal_id", id.toString()],
  ]);
