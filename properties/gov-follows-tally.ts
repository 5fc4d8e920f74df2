import { depositFate, type GovVoteOption, type TallyParams, tally } from "../models/gov-tally.js";
import type { TraceEvent } from "../src/chain/trace-events.js";
import { addressOfName } from "../src/core/address.js";
import { parseDuration } from "../src/core/go/duration.js";
import { HOLDS, type Property, violated } from "../src/harness/property.js";
import type { Session } from "../src/harness/session.js";
import { parseCoins } from "../src/scenario/coins.js";
import { GOV_DEFAULTS, SCENARIO_DEFAULTS } from "../src/scenario/defaults.js";
import { committedBank } from "../src/scenario/simulate.js";

/**
 * Governance decides every proposal by the tally of the votes that executed, and on time.
 *
 * The model is `models/gov-tally.ts`, written from the specification independently of `src/gov`; it is stepped from
 * what the harness did (the vote transactions it sent that executed, the validators' powers and the gov params of
 * the world), never from the chain's own verdict. What the model cannot predict and takes from the trace: which block
 * a transaction landed in and that block's time (block times are drawn by the chain, and a stalled chain includes
 * nothing), and the proposal's activation (the block whose deposit reached the minimum).
 *
 * It holds when:
 * - a regular proposal ends PASSED or FAILED exactly when the model's tally passes, REJECTED otherwise; an expedited
 *   one passes under the expedited threshold or falls back to a regular proposal (its votes deleted);
 * - the decision comes in the first committed block whose time reaches the voting end time (voting start +
 *   voting period, or + expedited voting period; after a fallback the regular period from the same start);
 * - the deposits go where the decision sends them: the gov module account holds exactly the deposits of the
 *   proposals still open, and the supply has shrunk by exactly the deposits burned (a vetoed proposal's, a cancelled
 *   proposal's withheld share, and a missed quorum's when burn_vote_quorum is on); everything else was refunded.
 */
export const govFollowsTally: Property = {
  name: "gov-follows-tally",
  statement:
    "always: each proposal is decided by the tally of the votes that executed, in the first block at or past its voting end",
  kind: "always",
  check(s) {
    const fold = foldOf(s);
    for (const ev of s.sim.traceEventsFrom(fold.position)) {
      fold.position++;
      const detail = step(fold, ev);
      if (detail !== undefined) return violated(detail);
    }
    return checkDeposits(s, fold);
  },
};

interface OpenProposal {
  expedited: boolean;
  /** Deposits held for it, by depositor (DENOM only). */
  readonly deposits: Map<string, bigint>;
  votes: [string, GovVoteOption][];
  /** Voting end (Unix ms) once voting started; null while in the deposit period. */
  votingEndMs: number | null;
  votingStartMs: number | null;
}

interface GovFold {
  position: number;
  /** Validator account address → voting power (a validator votes from its own account). */
  readonly powers: Map<string, number>;
  /** Address → validator name, for readable violations. */
  readonly names: Map<string, string>;
  readonly params: TallyParams;
  readonly votingPeriodMs: number;
  readonly expeditedVotingPeriodMs: number;
  /** Proposals submitted and not yet decided, dropped or cancelled, by id. */
  readonly open: Map<bigint, OpenProposal>;
  /** Submitted proposals whose id the chain has not yet announced, in submission order. */
  readonly submitted: { readonly expedited: boolean; readonly proposer: string; readonly deposit: bigint }[];
  readonly cancelRatio: string;
  readonly cancelBurns: boolean;
  readonly burnPrevote: boolean;
  /** DENOM supply at genesis, and burned since (as the model decides). */
  readonly genesisSupply: bigint;
  burned: bigint;
}

/** The deposit denom of the property worlds. */
const DENOM = "stake";
const GOV_MODULE_ACCOUNT = addressOfName("gov");

const amountOf = (coins: readonly { readonly denom: string; readonly amount: bigint }[]): bigint =>
  coins.reduce((n, c) => (c.denom === DENOM ? n + c.amount : n), 0n);

function genesisSupply(s: Session): bigint {
  const accounts = s.doc.chain?.accounts ?? {};
  let supply = 0n;
  for (const text of Object.values(accounts)) {
    const c = parseCoins(text);
    if (!c.ok) throw new RangeError(`world account balance "${text}": ${c.error}`);
    supply += amountOf(c.value);
  }
  // A validator not listed in `chain.accounts` starts with the scenario format's default balance.
  const unlisted = parseCoins(SCENARIO_DEFAULTS.validatorBalance);
  if (!unlisted.ok) throw new RangeError(`default validator balance: ${unlisted.error}`);
  for (const v of s.doc.chain?.validators ?? [])
    if (!Object.hasOwn(accounts, v.name)) supply += amountOf(unlisted.value);
  return supply;
}

/** floor(amount × ratio) for a decimal ratio string. */
function mulFloor(amount: bigint, ratio: string): bigint {
  const [whole = "0", frac = ""] = ratio.split(".");
  return (amount * BigInt(`${whole}${frac}`)) / 10n ** BigInt(frac.length);
}

function checkDeposits(s: Session, f: GovFold): ReturnType<Property["check"]> {
  const bank = committedBank(s.sim, [GOV_MODULE_ACCOUNT]);
  if (bank === undefined) return HOLDS;
  const amount = (coins: readonly { denom: string; amount: bigint }[] | undefined) =>
    coins?.find((c) => c.denom === DENOM)?.amount ?? 0n;
  let held = 0n;
  for (const p of f.open.values()) for (const d of p.deposits.values()) held += d;
  const inModule = amount(bank.balances.get(GOV_MODULE_ACCOUNT));
  if (inModule !== held)
    return violated(
      `the gov module account holds ${inModule}${DENOM}, but the open proposals' deposits are ${held}${DENOM} (a deposit was not refunded, burned or kept as decided)`,
    );
  const supply = f.genesisSupply - f.burned;
  if (amount(bank.supply) !== supply)
    return violated(
      `the ${DENOM} supply is ${amount(bank.supply)}, but genesis ${f.genesisSupply} less the ${f.burned} burned by decisions is ${supply}`,
    );
  return HOLDS;
}

const folds = new WeakMap<Session, GovFold>();

function durationMs(text: string): number {
  const d = parseDuration(text);
  if (!d.ok) throw new RangeError(`world gov period "${text}": ${d.error}`);
  return d.value;
}

function foldOf(s: Session): GovFold {
  let f = folds.get(s);
  if (f === undefined) {
    // The world's gov params, each unset one at the scenario format's default (the reference's).
    const world = s.doc.chain?.gov;
    const gov = <K extends keyof typeof GOV_DEFAULTS>(k: K) => world?.[k] ?? GOV_DEFAULTS[k];
    const validators = s.doc.chain?.validators ?? [];
    f = {
      position: 0,
      powers: new Map(validators.map((v) => [addressOfName(v.name), v.power ?? 0])),
      names: new Map(validators.map((v) => [addressOfName(v.name), v.name])),
      params: {
        quorum: gov("quorum"),
        threshold: gov("threshold"),
        expeditedThreshold: gov("expeditedThreshold"),
        vetoThreshold: gov("vetoThreshold"),
        burnVoteQuorum: gov("burnVoteQuorum"),
        burnVoteVeto: gov("burnVoteVeto"),
      },
      cancelRatio: gov("proposalCancelRatio"),
      cancelBurns: gov("proposalCancelDest") === "",
      burnPrevote: gov("burnProposalDepositPrevote"),
      genesisSupply: genesisSupply(s),
      burned: 0n,
      votingPeriodMs: durationMs(gov("votingPeriod")),
      expeditedVotingPeriodMs: durationMs(gov("expeditedVotingPeriod")),
      open: new Map(),
      submitted: [],
    };
    folds.set(s, f);
  }
  return f;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Applies one trace event to the fold; a violation's text, or undefined. */
function step(f: GovFold, ev: TraceEvent): string | undefined {
  if (ev.kind === "blocks") {
    for (const [id, p] of f.open)
      if (p.votingEndMs !== null && ev.timeToMs >= p.votingEndMs)
        return `proposal ${id}'s voting period ended at ${iso(p.votingEndMs)}, but blocks ${ev.from}-${ev.to} (until ${iso(ev.timeToMs)}) committed without deciding it`;
    return undefined;
  }
  if (ev.kind !== "block") return undefined;
  // Transactions run before the EndBlocker: their submissions and votes count in this block's tally.
  for (const { tx, result } of ev.txs) {
    if (!result.ok) continue;
    if (tx.kind === "submitProposal")
      f.submitted.push({ expedited: tx.expedited, proposer: tx.proposer, deposit: amountOf(tx.initialDeposit) });
    if (tx.kind === "vote") f.open.get(tx.proposalId)?.votes.push([tx.voter, tx.option as GovVoteOption]);
    if (tx.kind === "deposit") {
      const deposits = f.open.get(tx.proposalId)?.deposits;
      if (deposits !== undefined) deposits.set(tx.depositor, (deposits.get(tx.depositor) ?? 0n) + amountOf(tx.amount));
    }
  }
  const decided = new Set<bigint>();
  for (const g of ev.gov) {
    switch (g.kind) {
      case "submitted": {
        const sub = f.submitted.shift();
        if (sub === undefined) return `proposal ${g.id} was submitted in block ${ev.height} without a submission there`;
        const deposits = new Map(sub.deposit > 0n ? [[sub.proposer, sub.deposit]] : []);
        f.open.set(g.id, { expedited: sub.expedited, deposits, votes: [], votingEndMs: null, votingStartMs: null });
        break;
      }
      case "voting-started": {
        const p = f.open.get(g.id);
        if (p === undefined) break;
        p.votingStartMs = ev.timeMs;
        p.votingEndMs = ev.timeMs + (p.expedited ? f.expeditedVotingPeriodMs : f.votingPeriodMs);
        break;
      }
      case "passed":
      case "failed":
      case "rejected":
      case "expedited-fallback": {
        const p = f.open.get(g.id);
        if (p === undefined) break;
        decided.add(g.id);
        if (p.votingEndMs === null || ev.timeMs < p.votingEndMs)
          return `proposal ${g.id} was decided (${g.kind}) in block ${ev.height} at ${iso(ev.timeMs)}, before its voting end ${p.votingEndMs === null ? "(voting never started)" : iso(p.votingEndMs)}`;
        const model = tally(p.votes, f.powers, f.params, p.expedited);
        const chainPassed = g.kind === "passed" || g.kind === "failed";
        const votes = p.votes.map(([v, o]) => `${f.names.get(v) ?? v}:${o}`).join(",") || "none";
        if (chainPassed !== model.passes) {
          const want = model.passes ? "pass" : p.expedited ? "fall back to a regular proposal" : "be rejected";
          return `proposal ${g.id}${p.expedited ? " (expedited)" : ""} ended ${g.kind} in block ${ev.height}, but the tally of its votes (${votes}) says it should ${want} (${model.reason})`;
        }
        const fate = depositFate(model, p.expedited);
        if (fate === "burn") for (const d of p.deposits.values()) f.burned += d;
        if (g.kind === "expedited-fallback") {
          // The regular tally decides it later, from the same voting start; the counted votes are deleted.
          p.expedited = false;
          p.votes = [];
          p.votingEndMs = (p.votingStartMs ?? ev.timeMs) + f.votingPeriodMs;
        } else f.open.delete(g.id);
        break;
      }
      case "dropped": {
        const p = f.open.get(g.id);
        if (p !== undefined && f.burnPrevote) for (const d of p.deposits.values()) f.burned += d;
        f.open.delete(g.id);
        decided.add(g.id);
        break;
      }
      case "cancelled": {
        // Each deposit's cancel share is withheld (burned when no destination is set), the rest refunded.
        const p = f.open.get(g.id);
        if (p !== undefined && f.cancelBurns)
          for (const d of p.deposits.values()) f.burned += mulFloor(d, f.cancelRatio);
        f.open.delete(g.id);
        decided.add(g.id);
        break;
      }
    }
  }
  for (const [id, p] of f.open)
    if (!decided.has(id) && p.votingEndMs !== null && ev.timeMs >= p.votingEndMs)
      return `proposal ${id}'s voting period ended at ${iso(p.votingEndMs)}, but block ${ev.height} at ${iso(ev.timeMs)} did not decide it`;
  return undefined;
}
