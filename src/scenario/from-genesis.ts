/**
 * The genesis of a scenario `from:` a profile (from.ts): what InitChain writes at the chain's initial height so
 * that it holds what the live chain held (src/app/node-process.ts `ImportedGenesis`), and the proposals the engine
 * tracks from the first block.
 *
 * - gov (reference x/gov/genesis.go): each pending proposal with its id, messages, status, times and deposit; one
 *   deposit record (the proposer's: a profile carries only the total); the gov module account holds the deposits;
 *   the next proposal id is one past the highest imported (the live chain's may be higher: ended proposals are not
 *   imported). The tally so far is not carried: gov stores votes, not tallies, and a profile's tally does not say who
 *   voted; a scenario's steps cast the votes.
 * - upgrade: the pending plan under x/upgrade's plan key, and a done marker for each applied plan at its height.
 */
import { create } from "@bufbuild/protobuf";
import { AnySchema, timestampFromMs } from "@bufbuild/protobuf/wkt";
import { packUpgradeMsg } from "../app/deliver.js";
import type { ImportedGenesis } from "../app/node-process.js";
import { addCoins, type Coins, coinsToProto } from "../bank/coins.js";
import type { GenesisProposalRecord } from "../chain/config.js";
import { DepositSchema, ProposalSchema, ProposalStatus } from "../gen/chain/gov/v1/gov_pb.js";
import { emptyTallyResult } from "../gov/tally.js";
import { makePlan } from "../upgrade/plan.js";
import type { ImportedProposal, StartModel } from "./model.js";

const packed = (m: ImportedProposal["messages"][number]) =>
  create(AnySchema, m.kind === "other" ? { typeUrl: m.typeUrl } : packUpgradeMsg(m));

const ts = (ms: number | undefined) => (ms === undefined ? undefined : timestampFromMs(ms));

/** InitChain's imported state of a start. */
export function importedGenesis(start: StartModel): ImportedGenesis {
  const proposals = start.proposals.map((p) =>
    create(ProposalSchema, {
      id: p.id,
      messages: p.messages.map(packed),
      status: p.status === "deposit" ? ProposalStatus.DEPOSIT_PERIOD : ProposalStatus.VOTING_PERIOD,
      finalTallyResult: emptyTallyResult(),
      submitTime: ts(p.submitTimeMs),
      depositEndTime: ts(p.depositEndTimeMs),
      votingStartTime: ts(p.votingStartTimeMs),
      votingEndTime: ts(p.votingEndTimeMs),
      totalDeposit: coinsToProto(p.deposit),
      metadata: "",
      title: p.title,
      summary: p.title,
      proposer: p.proposer,
      expedited: p.expedited,
    }),
  );
  const deposits = start.proposals
    .filter((p) => p.deposit.length > 0)
    .map((p) => create(DepositSchema, { proposalId: p.id, depositor: p.proposer, amount: coinsToProto(p.deposit) }));
  const highest = start.proposals.reduce((m, p) => (p.id > m ? p.id : m), 0n);
  return {
    gov: { startingProposalId: highest + 1n, proposals, deposits },
    plan: start.plan === null ? undefined : makePlan(start.plan),
    done: start.applied.map((a) => ({ name: a.name, height: BigInt(a.height) })),
  };
}

/** The gov module account's genesis balance: the sum of the imported deposits. */
export const importedDeposits = (start: StartModel): Coins =>
  start.proposals.reduce<Coins>((sum, p) => addCoins(sum, p.deposit), []);

/** The imported proposals as the engine records them (label, status, times). */
export const genesisProposalRecords = (start: StartModel): GenesisProposalRecord[] =>
  start.proposals.map((p) => ({
    id: p.id,
    label: p.label,
    status: p.status === "deposit" ? "deposit_period" : "voting_period",
    depositEndTimeMs: p.depositEndTimeMs,
    votingStartTimeMs: p.votingStartTimeMs ?? null,
    votingEndTimeMs: p.votingEndTimeMs ?? null,
  }));
