import {
  deliverGovTx,
  endGovBlock,
  type GovModelParams,
  type GovModelState,
  type GovPrediction,
  type GovTx,
  heldDeposits,
  initialGovModel,
} from "../models/gov-model.js";
import type { GovVoteOption } from "../models/gov-tally.js";
import type { SimTx } from "../src/app/types.js";
import type { TraceEvent } from "../src/chain/trace-events.js";
import { addressOfName } from "../src/core/address.js";
import type { Event } from "../src/core/context.js";
import { parseDuration } from "../src/core/go/duration.js";
import { HOLDS, type Property, violated } from "../src/harness/property.js";
import type { Session } from "../src/harness/session.js";
import { parseCoins } from "../src/scenario/coins.js";
import { GOV_DEFAULTS, SCENARIO_DEFAULTS } from "../src/scenario/defaults.js";
import { committedBank, committedNodeState } from "../src/scenario/simulate.js";

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
export const govFollowsTally: Property = {
  name: "gov-follows-tally",
  statement:
    "always: each proposal is decided by the tally of the votes that executed, in the first block at or past its voting end",
  kind: "always",
  runsMultiplier: 2,
  check(s) {
    const fold = foldOf(s);
    for (const ev of s.sim.traceEventsFrom(fold.position)) {
      fold.position++;
      const detail = step(fold, ev, s.sim.blockEvents);
      if (detail !== undefined) return violated(detail);
    }
    return checkTallies(s, fold) ?? checkDeposits(s, fold);
  },
};

const ZERO_TALLY = { yes: "0", abstain: "0", no: "0", noWithVeto: "0" };
/** The failed_reason the reference's EndBlocker stores on a proposal whose tally rejects it. */
const REJECTED_REASON = "proposal did not get enough votes to pass";

/**
 * Since the last check: each proposal submitted and still open stores an empty final_tally_result (every count
 * "0": the reference's EmptyTallyResult, what the tally query answers in the deposit period); each proposal
 * decided, dropped or cancelled left no votes and no deposits in the store, and an expedited one that fell back
 * no votes; each proposal decided stores the tally the model counted.
 */
function checkTallies(s: Session, f: GovFold): ReturnType<Property["check"]> | undefined {
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

/** The deposit denom of the property worlds. */
const DENOM = "stake";
const GOV_MODULE_ACCOUNT = addressOfName("gov");
const COMMUNITY_POOL = addressOfName("distribution");

interface GovFold {
  position: number;
  readonly params: GovModelParams;
  readonly model: GovModelState;
  /** Address → validator name, for readable violations. */
  readonly names: Map<string, string>;
  /** Each validator account's genesis balance (DENOM). */
  readonly genesisBalances: Map<string, bigint>;
  /** DENOM supply at genesis. */
  readonly genesisSupply: bigint;
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

const amountOf = (coins: readonly { readonly denom: string; readonly amount: bigint }[]): bigint =>
  coins.reduce((n, c) => (c.denom === DENOM ? n + c.amount : n), 0n);

/** Every account's genesis balance (DENOM): the world's accounts, and each unlisted validator at the format's default. */
function genesisBalances(s: Session): Map<string, bigint> {
  const accounts = s.doc.chain?.accounts ?? {};
  const out = new Map<string, bigint>();
  for (const [name, text] of Object.entries(accounts)) {
    const c = parseCoins(text);
    if (!c.ok) throw new RangeError(`world account balance "${text}": ${c.error}`);
    out.set(addressOfName(name), amountOf(c.value));
  }
  const unlisted = parseCoins(SCENARIO_DEFAULTS.validatorBalance);
  if (!unlisted.ok) throw new RangeError(`default validator balance: ${unlisted.error}`);
  for (const v of s.doc.chain?.validators ?? [])
    if (!Object.hasOwn(accounts, v.name)) out.set(addressOfName(v.name), amountOf(unlisted.value));
  return out;
}

function checkDeposits(s: Session, f: GovFold): ReturnType<Property["check"]> {
  const bank = committedBank(s.sim, [GOV_MODULE_ACCOUNT, COMMUNITY_POOL, ...f.names.keys()]);
  if (bank === undefined) return HOLDS;
  const held = heldDeposits(f.model);
  const inModule = amountOf(bank.balances.get(GOV_MODULE_ACCOUNT) ?? []);
  if (inModule !== held)
    return violated(
      `the gov module account holds ${inModule}${DENOM}, but the open proposals' deposits are ${held}${DENOM} (a deposit was not refunded, burned or kept as decided)`,
    );
  for (const [address, name] of f.names) {
    const genesis = f.genesisBalances.get(address) ?? 0n;
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
  const poolWant = (f.genesisBalances.get(COMMUNITY_POOL) ?? 0n) + f.model.paid;
  if (pool !== poolWant)
    return violated(
      `the community pool holds ${pool}${DENOM}, but the cancel charges sent to it are ${poolWant}${DENOM}`,
    );
  const supply = f.genesisSupply - f.model.burned;
  if (amountOf(bank.supply) !== supply)
    return violated(
      `the ${DENOM} supply is ${amountOf(bank.supply)}, but genesis ${f.genesisSupply} less the ${f.model.burned} burned by decisions is ${supply}`,
    );
  return HOLDS;
}

const folds = new WeakMap<Session, GovFold>();

function durationMs(text: string): number {
  const d = parseDuration(text);
  if (!d.ok) throw new RangeError(`world gov period "${text}": ${d.error}`);
  return d.value;
}

function coinAmount(text: string): bigint {
  const c = parseCoins(text);
  if (!c.ok) throw new RangeError(`world gov deposit "${text}": ${c.error}`);
  return amountOf(c.value);
}

function foldOf(s: Session): GovFold {
  let f = folds.get(s);
  if (f === undefined) {
    // The world's gov params, each unset one at the scenario format's default (the reference's).
    const world = s.doc.chain?.gov;
    const gov = <K extends keyof typeof GOV_DEFAULTS>(k: K) => world?.[k] ?? GOV_DEFAULTS[k];
    const validators = s.doc.chain?.validators ?? [];
    const balances = genesisBalances(s);
    let supply = 0n;
    for (const b of balances.values()) supply += b;
    f = {
      position: 0,
      params: {
        tally: {
          quorum: gov("quorum"),
          threshold: gov("threshold"),
          expeditedThreshold: gov("expeditedThreshold"),
          vetoThreshold: gov("vetoThreshold"),
          burnVoteQuorum: gov("burnVoteQuorum"),
          burnVoteVeto: gov("burnVoteVeto"),
        },
        powers: new Map(validators.map((v) => [addressOfName(v.name), v.power ?? 0])),
        denom: DENOM,
        minDeposit: coinAmount(gov("minDeposit")),
        expeditedMinDeposit: coinAmount(gov("expeditedMinDeposit")),
        minDepositRatio: gov("minDepositRatio"),
        genesisBalances: balances,
        maxDepositPeriodMs: durationMs(gov("maxDepositPeriod")),
        votingPeriodMs: durationMs(gov("votingPeriod")),
        expeditedVotingPeriodMs: durationMs(gov("expeditedVotingPeriod")),
        cancelRatio: gov("proposalCancelRatio"),
        cancelBurns: gov("proposalCancelDest") === "",
        burnPrevote: gov("burnProposalDepositPrevote"),
      },
      model: initialGovModel(),
      names: new Map(validators.map((v) => [addressOfName(v.name), v.name])),
      genesisBalances: balances,
      genesisSupply: supply,
      submitted: [],
      emptied: [],
      decided: [],
    };
    folds.set(s, f);
  }
  return f;
}

const iso = (ms: number) => new Date(ms).toISOString();

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

/** A chain gov event in the model's vocabulary: PASSED and FAILED both mean the tally passed. */
const chainKind = (kind: string): string => (kind === "passed" || kind === "failed" ? "passes" : kind);
const DECISIONS = new Set(["passes", "rejected", "expedited-fallback"]);

function decisionDetail(f: GovFold, p: GovPrediction, chain: string, height: number): string {
  if (p.kind !== "passes" && p.kind !== "rejected" && p.kind !== "expedited-fallback") return "";
  const votes = p.votes.map(([v, o]) => `${f.names.get(v) ?? v}:${o}`).join(",") || "none";
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

/** Applies one trace event to the fold; a violation's text, or undefined. */
function step(f: GovFold, ev: TraceEvent, blockEvents: ReadonlyMap<number, readonly Event[]>): string | undefined {
  if (ev.kind === "blocks") {
    const due = overdue(f, ev.timeToMs);
    if (due !== undefined)
      return `proposal ${due.id}'s ${due.what} ended at ${iso(due.atMs)}, but blocks ${ev.from}-${ev.to} (until ${iso(ev.timeToMs)}) committed without deciding it`;
    return undefined;
  }
  if (ev.kind !== "block") return undefined;
  const predicted: GovPrediction[] = [];
  // Transactions run before the EndBlocker: their submissions and votes count in this block's tally.
  for (const { tx, result } of ev.txs) {
    const g = govTx(tx);
    if (g === undefined) continue;
    const r = deliverGovTx(f.model, f.params, ev.timeMs, g);
    if (r.ok !== result.ok)
      return `block ${ev.height}: a ${tx.kind} transaction ${result.ok ? "succeeded" : `failed (${result.error ?? ""})`}, but the gov rules say it ${r.ok ? "succeeds" : `fails (${r.error})`}`;
    if (!r.ok) {
      if (result.error !== r.error)
        return `block ${ev.height}: a ${tx.kind} transaction failed with "${result.error ?? ""}", but the gov rules say "${r.error}"`;
      continue;
    }
    predicted.push(...r.events);
    for (const e of r.events) if (e.kind === "submitted") f.submitted.push(e.id);
  }
  const chainEvents = ev.gov.map((g) => ({ kind: chainKind(g.kind), id: g.id, raw: g.kind }));
  // Decisions the chain made that the model does not expect in this block come first: they say the most.
  const endBlock = endGovBlock(f.model, f.params, ev.timeMs);
  for (const c of chainEvents) {
    if (!DECISIONS.has(c.kind)) continue;
    const p = endBlock.find((x) => x.id === c.id);
    if (p === undefined) {
      const open = predicted.find((x) => x.id === c.id) ?? f.model.open.get(c.id);
      const end = f.model.open.get(c.id)?.votingEndMs;
      return open === undefined
        ? `proposal ${c.id} was decided (${c.raw}) in block ${ev.height}, but it is not open`
        : `proposal ${c.id} was decided (${c.raw}) in block ${ev.height} at ${iso(ev.timeMs)}, before its voting end ${end === null || end === undefined ? "(voting never started)" : iso(end)}`;
    }
    if (p.kind !== c.kind) return decisionDetail(f, p, c.raw, ev.height);
  }
  predicted.push(...endBlock);
  for (const p of predicted)
    if (p.kind !== "submitted" && p.kind !== "voting-started")
      f.emptied.push({ id: p.id, what: p.kind === "expedited-fallback" ? "votes" : "all" });
  for (const d of endBlock)
    if (d.kind === "passes" || d.kind === "rejected")
      f.decided.push({ id: d.id, result: d.outcome.result, rejected: d.kind === "rejected" });
  const key = (e: { readonly kind: string; readonly id: bigint }) => `${e.kind} ${e.id}`;
  const want = predicted.map(key);
  const got = chainEvents.map(key);
  for (const w of want)
    if (!got.includes(w)) {
      const [kind, id] = w.split(" ");
      return DECISIONS.has(kind ?? "")
        ? `proposal ${id}'s voting period ended, but block ${ev.height} at ${iso(ev.timeMs)} did not decide it`
        : `block ${ev.height}: the gov rules say proposal ${id} is ${kind}, but the chain did not report it`;
    }
  for (const g of got)
    if (!want.includes(g)) {
      const [kind, id] = g.split(" ");
      return `block ${ev.height}: the chain reports proposal ${id} ${kind}, which the gov rules do not`;
    }
  const emitted = blockEvents.get(ev.height) ?? [];
  for (const p of predicted) {
    const want = decisionEvent(p, ev.gov.find((g) => g.id === p.id && g.kind === "failed")?.kind);
    if (want === undefined) continue;
    const attr = (e: Event, key: string) => e.attributes.find((a) => a.key === key)?.value;
    const found = emitted.find((e) => e.type === want.type && attr(e, "proposal_id") === `${p.id}`);
    const got =
      found === undefined ? undefined : { result: attr(found, "proposal_result"), log: attr(found, "proposal_log") };
    if (got === undefined || got.result !== want.result || (want.log !== undefined && got.log !== want.log))
      return `block ${ev.height}: proposal ${p.id} ${p.kind === "passes" ? "passed" : p.kind}, so its ${want.type} event must say proposal_result ${want.result}${want.log === undefined ? "" : ` and proposal_log "${want.log}"`}; the block's results have ${got === undefined ? "none" : JSON.stringify(got)}`;
  }
  return undefined;
}
