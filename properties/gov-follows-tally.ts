import {
  deliverGovTx,
  endGovBlock,
  type GovModelState,
  type GovPrediction,
  heldDeposits,
  initialGovModel,
} from "../models/gov-model.js";
import type { GovVoteOption } from "../models/gov-tally.js";
import { addressOfName } from "../src/core/address.js";
import { HOLDS, type Property, type Verdict, violated } from "../src/harness/property.js";
import type { SessionView } from "../src/harness/session-view.js";
import { committedBank, committedNodeState } from "../src/scenario/simulate.js";
import { amountOf, DENOM, type GovFact, type GovWorld, govFactOf, govWorldOf } from "./gov-trace.js";

/**
 * Governance does what its rules say with the transactions the harness sent: each succeeds or fails as the model
 * says, and every proposal is activated, dropped, cancelled and decided by the tally of the votes that executed, on
 * time, with its deposits refunded or burned as decided.
 *
 * The model is `models/gov-model.ts` (with the tally of `models/gov-tally.ts`), written from the specification
 * independently of `src/gov`. It is stepped with the gov transactions the harness sent, the validators' powers and
 * the world's gov params, never with the chain's verdicts: which transactions succeed, the proposal ids, the
 * activations, drops, cancels and decisions are all the model's. What it takes from the trace, because the commands
 * cannot predict it: which block a transaction landed in and that block's time (block times are drawn by the chain,
 * and a stalled chain includes nothing); and whether a passing proposal's messages then executed (PASSED or FAILED:
 * the upgrade oracle predicts that, model-agreement compares it).
 *
 * The trace adapter (gov-trace.ts) reads the world and the trace into the facts compared here; the model and its
 * per-run position in the trace are this property's state (`GovFold`). No fault of the catalog plants a gov bug
 * (`catches` is empty): its test holds it to traces of a wrong chain instead (gov-follows-tally.test.ts).
 *
 * It holds when, block by block:
 * - every gov transaction succeeds exactly when the model says, and a refused one fails with the reference's exact
 *   error (a deposit or a cancel on a proposal that is no longer open, a deposit that is empty, in another denom than
 *   min_deposit's, below min_deposit_ratio of the proposal's minimum or above the depositor's balance, a cancel by
 *   someone other than the proposer or after the voting end, a vote outside the voting period);
 * - the chain reports exactly the submissions (with the model's ids), activations, drops and cancels the model
 *   predicts for that block;
 * - a proposal is decided in the first committed block whose time reaches its voting end: PASSED or FAILED exactly
 *   when the model's tally passes, REJECTED otherwise, an expedited one falling back to a regular proposal;
 * - an open proposal stores an empty final_tally_result (all zeros), and a decided one the tally the model counted;
 *   a rejected one stores the failed_reason `proposal did not get enough votes to pass`;
 * - each decision and drop is in the block's results as the EndBlocker's `active_proposal` (or `inactive_proposal`)
 *   event with the outcome's `proposal_result` and `proposal_log`;
 * - a proposal decided, dropped or cancelled leaves no votes and no deposits in the store (one that falls back
 *   from expedited, no votes);
 * - the deposits went where the decisions sent them: the gov module account holds exactly the open proposals'
 *   deposits, each validator's account holds its genesis balance less its deposits still held and its deposits
 *   burned or withheld (so a refused deposit moved nothing), the community pool holds the cancel charges sent to it, and the supply has shrunk by exactly
 *   the deposits burned.
 */
export const govFollowsTally: Property<GovFold> = {
  name: "gov-follows-tally",
  statement:
    "always: each proposal is decided by the tally of the votes that executed, in the first block at or past its voting end",
  kind: "always",
  catches: [],
  runsMultiplier: 2,
  init: (s) => ({
    world: govWorldOf(s.scenario),
    position: 0,
    model: initialGovModel(),
    submitted: [],
    emptied: [],
    decided: [],
  }),
  check(s, fold) {
    for (const ev of s.sim.traceEventsFrom(fold.position)) {
      fold.position++;
      const fact = govFactOf(ev, s.sim.blockEvents);
      const detail = fact === undefined ? undefined : step(fold, fact);
      if (detail !== undefined) return violated(detail);
    }
    return checkTallies(s, fold) ?? checkDeposits(s, fold);
  },
};

/** What one run keeps: the world's facts, the model stepped through the trace so far, and what to check next. */
interface GovFold {
  readonly world: GovWorld;
  /** Trace events read so far. */
  position: number;
  readonly model: GovModelState;
  /** Proposals submitted since the last check. */
  readonly submitted: bigint[];
  /** Proposals whose votes (`votes`), or votes and deposits (`all`), the store deleted since the last check. */
  readonly emptied: { readonly id: bigint; readonly what: "votes" | "all" }[];
  /** Proposals decided for good since the last check, with the tally the model counted. */
  readonly decided: {
    readonly id: bigint;
    readonly result: Readonly<Record<GovVoteOption, bigint>>;
    readonly rejected: boolean;
  }[];
}

const ZERO_TALLY = { yes: "0", abstain: "0", no: "0", noWithVeto: "0" };
/** The failed_reason the reference's EndBlocker stores on a proposal whose tally rejects it. */
const REJECTED_REASON = "proposal did not get enough votes to pass";

/**
 * Since the last check: each proposal submitted and still open stores an empty final_tally_result (every count
 * "0": the reference's EmptyTallyResult, what the tally query answers in the deposit period); each proposal
 * decided, dropped or cancelled left no votes and no deposits in the store, and an expedited one that fell back
 * no votes; each proposal decided stores the tally the model counted.
 */
function checkTallies(s: SessionView, f: GovFold): Verdict | undefined {
  if (f.decided.length === 0 && f.submitted.length === 0 && f.emptied.length === 0) return undefined;
  const state = committedNodeState(s.sim);
  if (state === undefined) return undefined;
  for (const id of f.submitted.splice(0)) {
    if (!f.model.open.has(id)) continue;
    const stored = s.sim.host.readProposal(state, id)?.finalTally;
    if (JSON.stringify(stored) !== JSON.stringify(ZERO_TALLY))
      return violated(
        `proposal ${id} is open, but its final_tally_result is ${JSON.stringify(stored ?? null)} instead of the empty tally ${JSON.stringify(ZERO_TALLY)}`,
      );
  }
  for (const { id, what } of f.emptied.splice(0)) {
    const left = s.sim.host.readProposalRecords(state, id);
    if (left.votes !== 0 || (what === "all" && left.deposits !== 0))
      return violated(
        `proposal ${id} keeps ${left.votes} votes and ${left.deposits} deposits in the store after it was ${what === "all" ? "closed" : "converted to a regular proposal"} (its votes${what === "all" ? " and deposits" : ""} must be deleted)`,
      );
  }
  for (const d of f.decided.splice(0)) {
    const view = s.sim.host.readProposal(state, d.id);
    if (d.rejected && view?.failedReason !== REJECTED_REASON)
      return violated(
        `proposal ${d.id} was rejected, but its failed_reason is ${JSON.stringify(view?.failedReason ?? null)} instead of "${REJECTED_REASON}"`,
      );
    const stored = view?.finalTally;
    const want = {
      yes: `${d.result.yes}`,
      abstain: `${d.result.abstain}`,
      no: `${d.result.no}`,
      noWithVeto: `${d.result.no_with_veto}`,
    };
    if (JSON.stringify(stored) !== JSON.stringify(want))
      return violated(
        `proposal ${d.id}'s final_tally_result is ${JSON.stringify(stored ?? null)}, but the votes that executed count ${JSON.stringify(want)}`,
      );
  }
  return undefined;
}

const GOV_MODULE_ACCOUNT = addressOfName("gov");
const COMMUNITY_POOL = addressOfName("distribution");

function checkDeposits(s: SessionView, f: GovFold): Verdict {
  const bank = committedBank(s.sim, [GOV_MODULE_ACCOUNT, COMMUNITY_POOL, ...f.world.names.keys()]);
  if (bank === undefined) return HOLDS;
  const held = heldDeposits(f.model);
  const inModule = amountOf(bank.balances.get(GOV_MODULE_ACCOUNT) ?? []);
  if (inModule !== held)
    return violated(
      `the gov module account holds ${inModule}${DENOM}, but the open proposals' deposits are ${held}${DENOM} (a deposit was not refunded, burned or kept as decided)`,
    );
  for (const [address, name] of f.world.names) {
    const genesis = f.world.genesisBalances.get(address) ?? 0n;
    const heldFrom = heldDeposits(f.model, address);
    const lostFrom = f.model.lostFrom.get(address) ?? 0n;
    const want = genesis - heldFrom - lostFrom;
    const has = amountOf(bank.balances.get(address) ?? []);
    if (has !== want)
      return violated(
        `${name} holds ${has}${DENOM}, but its genesis ${genesis} less its ${heldFrom} in open deposits and its ${lostFrom} burned or withheld is ${want} (a refund went to the wrong account or was lost)`,
      );
  }
  const pool = amountOf(bank.balances.get(COMMUNITY_POOL) ?? []);
  const poolWant = (f.world.genesisBalances.get(COMMUNITY_POOL) ?? 0n) + f.model.paid;
  if (pool !== poolWant)
    return violated(
      `the community pool holds ${pool}${DENOM}, but the cancel charges sent to it are ${poolWant}${DENOM}`,
    );
  const supply = f.world.genesisSupply - f.model.burned;
  if (amountOf(bank.supply) !== supply)
    return violated(
      `the ${DENOM} supply is ${amountOf(bank.supply)}, but genesis ${f.world.genesisSupply} less the ${f.model.burned} burned by decisions is ${supply}`,
    );
  return HOLDS;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The first deadline an open proposal has reached by `timeMs` (deposit end while inactive, else voting end). */
function overdue(
  f: GovFold,
  timeMs: number,
): { readonly id: bigint; readonly what: string; readonly atMs: number } | undefined {
  for (const p of f.model.open.values()) {
    if (p.votingEndMs === null && p.depositEndMs <= timeMs)
      return { id: p.id, what: "deposit period", atMs: p.depositEndMs };
    if (p.votingEndMs !== null && p.votingEndMs <= timeMs)
      return { id: p.id, what: "voting period", atMs: p.votingEndMs };
  }
  return undefined;
}

const DECISIONS = new Set(["passes", "rejected", "expedited-fallback"]);

function decisionDetail(f: GovFold, p: GovPrediction, chain: string, height: number): string {
  if (p.kind !== "passes" && p.kind !== "rejected" && p.kind !== "expedited-fallback") return "";
  const votes = p.votes.map(([v, o]) => `${f.world.names.get(v) ?? v}:${o}`).join(",") || "none";
  const want =
    p.kind === "passes" ? "pass" : p.kind === "expedited-fallback" ? "fall back to a regular proposal" : "be rejected";
  return `proposal ${p.id}${p.expedited ? " (expedited)" : ""} ended ${chain} in block ${height}, but the tally of its votes (${votes}) says it should ${want} (${p.outcome.reason})`;
}

/**
 * The EndBlocker event each decision emits in the block's results, as the reference's EndBlocker writes it:
 * `active_proposal` (or `inactive_proposal` for a drop) with the proposal id, `proposal_result` and, where the
 * outcome fixes it, `proposal_log`. A passing proposal whose messages failed reports `proposal_failed`.
 */
function decisionEvent(
  p: GovPrediction,
  chainKind: string | undefined,
): { readonly type: string; readonly result: string; readonly log?: string } | undefined {
  switch (p.kind) {
    case "passes":
      return chainKind === "failed"
        ? { type: "active_proposal", result: "proposal_failed" }
        : { type: "active_proposal", result: "proposal_passed", log: "passed" };
    case "rejected":
      return { type: "active_proposal", result: "proposal_rejected", log: "rejected" };
    case "expedited-fallback":
      return {
        type: "active_proposal",
        result: "expedited_proposal_rejected",
        log: "expedited proposal converted to regular",
      };
    case "dropped":
      return { type: "inactive_proposal", result: "proposal_dropped" };
    default:
      return undefined;
  }
}

type BlockFact = Extract<GovFact, { kind: "block" }>;

/** Steps the model with one fact of the trace; a violation's text, or undefined. */
function step(f: GovFold, fact: GovFact): string | undefined {
  if (fact.kind === "idle") {
    const due = overdue(f, fact.timeToMs);
    if (due !== undefined)
      return `proposal ${due.id}'s ${due.what} ended at ${iso(due.atMs)}, but blocks ${fact.from}-${fact.to} (until ${iso(fact.timeToMs)}) committed without deciding it`;
    return undefined;
  }
  const predicted: GovPrediction[] = [];
  const txs = deliverTxs(f, fact, predicted);
  if (txs !== undefined) return txs;
  // Decisions the chain made that the model does not expect in this block come first: they say the most.
  const endBlock = endGovBlock(f.model, f.world.params, fact.timeMs);
  const early = unexpectedDecision(f, fact, predicted, endBlock);
  if (early !== undefined) return early;
  predicted.push(...endBlock);
  for (const p of predicted)
    if (p.kind !== "submitted" && p.kind !== "voting-started")
      f.emptied.push({ id: p.id, what: p.kind === "expedited-fallback" ? "votes" : "all" });
  for (const d of endBlock)
    if (d.kind === "passes" || d.kind === "rejected")
      f.decided.push({ id: d.id, result: d.outcome.result, rejected: d.kind === "rejected" });
  return outcomesDiffer(fact, predicted) ?? decisionEventsDiffer(fact, predicted);
}

/**
 * The block's gov transactions through the model, in order (they run before the EndBlocker: their submissions and
 * votes count in this block's tally): each must succeed or fail as the model says. Their events go to `predicted`.
 */
function deliverTxs(f: GovFold, b: BlockFact, predicted: GovPrediction[]): string | undefined {
  for (const t of b.txs) {
    const r = deliverGovTx(f.model, f.world.params, b.timeMs, t.tx);
    if (r.ok !== t.ok)
      return `block ${b.height}: a ${t.kind} transaction ${t.ok ? "succeeded" : `failed (${t.error ?? ""})`}, but the gov rules say it ${r.ok ? "succeeds" : `fails (${r.error})`}`;
    if (!r.ok) {
      if (t.error !== r.error)
        return `block ${b.height}: a ${t.kind} transaction failed with "${t.error ?? ""}", but the gov rules say "${r.error}"`;
      continue;
    }
    predicted.push(...r.events);
    for (const e of r.events) if (e.kind === "submitted") f.submitted.push(e.id);
  }
  return undefined;
}

/** A decision the chain made that the model's EndBlocker does not make in this block, or makes otherwise. */
function unexpectedDecision(
  f: GovFold,
  b: BlockFact,
  predicted: readonly GovPrediction[],
  endBlock: readonly GovPrediction[],
): string | undefined {
  for (const c of b.outcomes) {
    if (!DECISIONS.has(c.kind)) continue;
    const p = endBlock.find((x) => x.id === c.id);
    if (p === undefined) {
      const open = predicted.find((x) => x.id === c.id) ?? f.model.open.get(c.id);
      const end = f.model.open.get(c.id)?.votingEndMs;
      return open === undefined
        ? `proposal ${c.id} was decided (${c.raw}) in block ${b.height}, but it is not open`
        : `proposal ${c.id} was decided (${c.raw}) in block ${b.height} at ${iso(b.timeMs)}, before its voting end ${end === null || end === undefined ? "(voting never started)" : iso(end)}`;
    }
    if (p.kind !== c.kind) return decisionDetail(f, p, c.raw, b.height);
  }
  return undefined;
}

/** The outcomes the chain reports in the block are exactly the model's (submissions, activations, drops, ...). */
function outcomesDiffer(b: BlockFact, predicted: readonly GovPrediction[]): string | undefined {
  const key = (e: { readonly kind: string; readonly id: bigint }) => `${e.kind} ${e.id}`;
  const want = predicted.map(key);
  const got = b.outcomes.map(key);
  for (const w of want)
    if (!got.includes(w)) {
      const [kind, id] = w.split(" ");
      return DECISIONS.has(kind ?? "")
        ? `proposal ${id}'s voting period ended, but block ${b.height} at ${iso(b.timeMs)} did not decide it`
        : `block ${b.height}: the gov rules say proposal ${id} is ${kind}, but the chain did not report it`;
    }
  for (const g of got)
    if (!want.includes(g)) {
      const [kind, id] = g.split(" ");
      return `block ${b.height}: the chain reports proposal ${id} ${kind}, which the gov rules do not`;
    }
  return undefined;
}

/** Each decision and drop has its EndBlocker event in the block's results, saying what the outcome says. */
function decisionEventsDiffer(b: BlockFact, predicted: readonly GovPrediction[]): string | undefined {
  for (const p of predicted) {
    const want = decisionEvent(p, b.failed.has(p.id) ? "failed" : undefined);
    if (want === undefined) continue;
    const got = b.decisionEvent(want.type, p.id);
    if (got === undefined || got.result !== want.result || (want.log !== undefined && got.log !== want.log))
      return `block ${b.height}: proposal ${p.id} ${p.kind === "passes" ? "passed" : p.kind}, so its ${want.type} event must say proposal_result ${want.result}${want.log === undefined ? "" : ` and proposal_log "${want.log}"`}; the block's results have ${got === undefined ? "none" : JSON.stringify(got)}`;
  }
  return undefined;
}
