import type { GovModelParams, GovTx } from "../models/gov-model.js";
import type { GovVoteOption } from "../models/gov-tally.js";
import type { SimTx } from "../src/app/types.js";
import type { TraceEvent } from "../src/chain/trace-events.js";
import { addressOfName } from "../src/core/address.js";
import type { Event } from "../src/core/context.js";
import type { Scenario } from "../src/scenario/model.js";

/**
 * The trace adapter of gov-follows-tally.ts: what the property compares with the gov model, read from the world and
 * the chain's trace, in the model's vocabulary. It judges nothing.
 *
 * 1. `govWorldOf(scenario)`: the model's params from the world as resolved (every default of the scenario format
 *    already filled in by src/scenario/resolve.ts), the validators' powers and names, the genesis balances.
 * 2. `govFactOf(event, blockEvents)`: one trace event as a fact: an idle range of blocks (no transaction, no
 *    EndBlocker outcome), or a committed block with its gov transactions and their results, the gov outcomes the
 *    chain reports, and the EndBlocker events in its results.
 */

/** The deposit denom of the property worlds. */
export const DENOM = "stake";

export const amountOf = (coins: readonly { readonly denom: string; readonly amount: bigint }[]): bigint =>
  coins.reduce((n, c) => (c.denom === DENOM ? n + c.amount : n), 0n);

/** The world as the gov model needs it. */
export interface GovWorld {
  readonly params: GovModelParams;
  /** Validator address → name, for readable violations. */
  readonly names: ReadonlyMap<string, string>;
  /** Each genesis account's balance (DENOM), by address: listed accounts and the unlisted validators. */
  readonly genesisBalances: ReadonlyMap<string, bigint>;
  /** DENOM supply at genesis. */
  readonly genesisSupply: bigint;
}

export function govWorldOf(scenario: Scenario): GovWorld {
  const { gov, validators, accounts } = scenario.chain;
  const genesisBalances = new Map([...accounts].map(([name, coins]) => [addressOfName(name), amountOf(coins)]));
  let genesisSupply = 0n;
  for (const b of genesisBalances.values()) genesisSupply += b;
  const params: GovModelParams = {
    tally: {
      quorum: gov.quorum,
      threshold: gov.threshold,
      expeditedThreshold: gov.expeditedThreshold,
      vetoThreshold: gov.vetoThreshold,
      burnVoteQuorum: gov.burnVoteQuorum,
      burnVoteVeto: gov.burnVoteVeto,
    },
    powers: new Map(validators.map((v) => [addressOfName(v.name), v.power])),
    denom: DENOM,
    minDeposit: amountOf(gov.minDeposit),
    expeditedMinDeposit: amountOf(gov.expeditedMinDeposit),
    minDepositRatio: gov.minDepositRatio,
    genesisBalances,
    maxDepositPeriodMs: gov.maxDepositPeriodMs,
    votingPeriodMs: gov.votingPeriodMs,
    expeditedVotingPeriodMs: gov.expeditedVotingPeriodMs,
    cancelRatio: gov.proposalCancelRatio,
    cancelBurns: gov.proposalCancelDest === "",
    burnPrevote: gov.burnProposalDepositPrevote,
  };
  const names = new Map(validators.map((v) => [addressOfName(v.name), v.name]));
  return { params, names, genesisBalances, genesisSupply };
}

/** A gov transaction a block ran, in the model's terms, with the chain's result. */
export interface GovTxFact {
  /** The transaction's kind as the chain names it (`submitProposal`, `vote`, ...), for readable violations. */
  readonly kind: SimTx["kind"];
  readonly tx: GovTx;
  readonly ok: boolean;
  readonly error: string | undefined;
}

/** A gov outcome the chain reported in a block, in the model's vocabulary (`kind`) and the chain's (`raw`). */
export interface GovOutcomeFact {
  readonly kind: string;
  readonly id: bigint;
  readonly raw: string;
}

/** An EndBlocker event of a proposal in a block's results: its `proposal_result` and `proposal_log`. */
export interface DecisionEventFact {
  readonly result: string | undefined;
  readonly log: string | undefined;
}

export type GovFact =
  | { readonly kind: "idle"; readonly from: number; readonly to: number; readonly timeToMs: number }
  | {
      readonly kind: "block";
      readonly height: number;
      readonly timeMs: number;
      /** In the order the block ran them: before the EndBlocker, so their submissions and votes count in its tally. */
      readonly txs: readonly GovTxFact[];
      readonly outcomes: readonly GovOutcomeFact[];
      /** The proposals whose messages failed after their tally passed (the chain's FAILED). */
      readonly failed: ReadonlySet<bigint>;
      /** The EndBlocker event of `type` for proposal `id` in the block's results, if any. */
      readonly decisionEvent: (type: string, id: bigint) => DecisionEventFact | undefined;
    };

/** A transaction in the model's terms, or undefined for one gov does not handle. */
function govTx(tx: SimTx): GovTx | undefined {
  switch (tx.kind) {
    case "submitProposal":
      return { kind: "submit", proposer: tx.proposer, deposit: amountOf(tx.initialDeposit), expedited: tx.expedited };
    case "deposit":
      return { kind: "deposit", id: tx.proposalId, depositor: tx.depositor, coins: tx.amount };
    case "vote":
      return { kind: "vote", id: tx.proposalId, voter: tx.voter, option: tx.option as GovVoteOption };
    case "cancelProposal":
      return { kind: "cancel", id: tx.proposalId, proposer: tx.proposer };
    default:
      return undefined;
  }
}

/** A chain gov event in the model's vocabulary: PASSED and FAILED both mean the tally passed. */
const modelKind = (kind: string): string => (kind === "passed" || kind === "failed" ? "passes" : kind);

/** One trace event as a gov fact; undefined for an event that carries none (node starts, stalls, plans, ...). */
export function govFactOf(ev: TraceEvent, blockEvents: ReadonlyMap<number, readonly Event[]>): GovFact | undefined {
  if (ev.kind === "blocks") return { kind: "idle", from: ev.from, to: ev.to, timeToMs: ev.timeToMs };
  if (ev.kind !== "block") return undefined;
  const txs: GovTxFact[] = [];
  for (const { tx, result } of ev.txs) {
    const g = govTx(tx);
    if (g !== undefined) txs.push({ kind: tx.kind, tx: g, ok: result.ok, error: result.error });
  }
  const emitted = blockEvents.get(ev.height) ?? [];
  const attr = (e: Event, key: string) => e.attributes.find((a) => a.key === key)?.value;
  return {
    kind: "block",
    height: ev.height,
    timeMs: ev.timeMs,
    txs,
    outcomes: ev.gov.map((g) => ({ kind: modelKind(g.kind), id: g.id, raw: g.kind })),
    failed: new Set(ev.gov.filter((g) => g.kind === "failed").map((g) => g.id)),
    decisionEvent: (type, id) => {
      const found = emitted.find((e) => e.type === type && attr(e, "proposal_id") === `${id}`);
      return found === undefined
        ? undefined
        : { result: attr(found, "proposal_result"), log: attr(found, "proposal_log") };
    },
  };
}
