/**
 * The governance commands of the model-based test (commands.ts composes them): proposals, votes, deposits, cancels,
 * and the upgrade messages the authority or a validator sends itself. Each builds its chain action once; the session
 * derives the step's scenario form from it (scenario/step-document.ts).
 *
 * Reference: cosmos-sdk v0.50 x/gov (MsgSubmitProposal, MsgDeposit, MsgVote, MsgCancelProposal, the tally) and
 * x/upgrade's Msg server (MsgSoftwareUpgrade, MsgCancelUpgrade and their authority check).
 */
import { parseCoins } from "../scenario/coins.js";
import { SCENARIO_DEFAULTS } from "../scenario/defaults.js";
import type { HarnessMsg, Session } from "./session.js";
import {
  BLOCK_MS,
  EXPEDITED_MIN_DEPOSIT,
  EXPEDITED_VOTING_PERIOD_MS,
  MIN_DEPOSIT,
  type PlanName,
  type ValidatorName,
  VOTING_PERIOD_MS,
} from "./world.js";

/**
 * The proposal a vote, deposit or cancel is about: the newest or the oldest one still open (deposit or voting
 * period), or the newest one no longer open (passed, rejected, failed, dropped or cancelled), which the chain must
 * refuse to touch; for deposits also the newest one decided by its tally (passed, rejected or failed: still stored,
 * so the refusal is `inactive proposal`, not the store's not-found). Resolved when the command runs; none such: the
 * command does nothing.
 */
export type ProposalTarget = "newest" | "oldest" | "closed" | "decided";

/**
 * What a deposit carries (`depositCoins`, for a proposal whose minimum deposit is `min`: the expedited minimum for a
 * proposal submitted as expedited): `valid` the expedited minimum in stake (it completes any proposal's minimum);
 * `at-ratio` exactly min_deposit_ratio (0.01) of the proposal's minimum, the smallest deposit it accepts;
 * `below-ratio` one stake less; `empty` no coins (invalid coins); `other-denom` a coin of a denom min_deposit does
 * not name beside a valid stake amount (the whole deposit is refused); `over-balance` one stake more than a
 * validator's genesis balance, more than the depositor can ever hold (the bank's insufficient funds). A deposit
 * command always ends with the valid amount, so proposals enter voting as often as with valid deposits alone.
 */
export type DepositAmount = "valid" | "at-ratio" | "below-ratio" | "empty" | "other-denom" | "over-balance";

/**
 * How the validators vote (`VOTES`), three of the four unless said: all yes (passes), all no (rejected), two vetoes
 * and a yes (vetoed), one validator alone (100 of 400 misses the quorum), all abstain (the quorum is met but
 * nothing is left to decide: rejected, deposits refunded), or one yes and two abstentions (abstentions count for
 * the quorum, not for the threshold: passes). Two sit at the world's thresholds (quorum and veto 0.334, threshold
 * 0.5, expedited 0.667): `veto-below`, one veto and two yes (a veto share of 1/3, just below 0.334: not vetoed; yes
 * 2/3 passes a regular proposal and misses the expedited threshold), and `yes-at-threshold`, one yes and one no of
 * two (a yes share of exactly 0.5, which must be more than the threshold: rejected).
 */
export type VoteOutcome =
  | "pass"
  | "reject"
  | "veto"
  | "veto-below"
  | "no-quorum"
  | "abstain"
  | "pass-over-abstain"
  | "yes-at-threshold";

/** The governance commands, as plain data (commands.ts `CommandData`). */
export type GovCommand =
  | {
      readonly kind: "propose-upgrade";
      readonly name: PlanName;
      /** Plan height relative to the block the proposal is expected to pass in (negative: in the past). */
      readonly offset: number;
      readonly expedited: boolean;
      readonly deposit: "full" | "partial";
    }
  | { readonly kind: "propose-cancel"; readonly expedited: boolean; readonly deposit: "full" | "partial" }
  /** A text proposal: metadata only, no messages (passing it executes nothing). */
  | { readonly kind: "propose-text"; readonly expedited: boolean }
  | { readonly kind: "vote"; readonly target: ProposalTarget; readonly outcome: VoteOutcome }
  /**
   * MsgDeposits from val2, together in one block in this order: the valid amount alone, or other amounts first
   * (DepositAmount), as an operator's mistaken deposits followed by the intended one.
   */
  | { readonly kind: "deposit"; readonly target: ProposalTarget; readonly amounts: readonly DepositAmount[] }
  /** MsgCancelProposal, signed by the proposal's proposer or by another validator (which the chain must refuse). */
  | { readonly kind: "withdraw"; readonly target: ProposalTarget; readonly by: "proposer" | "other" }
  | { readonly kind: "emergency-upgrade"; readonly name: PlanName; readonly offset: number }
  | { readonly kind: "emergency-cancel" }
  /**
   * Governance (the authority) sends a plan that fails ValidateBasic, an empty name or a height of 0: the Msg server
   * refuses it (`plan: name cannot be empty: invalid request`) and the plan slot is untouched.
   */
  | { readonly kind: "invalid-plan"; readonly flaw: "empty-name" | "zero-height" }
  /**
   * A validator signs an upgrade message itself instead of going through governance: MsgSoftwareUpgrade of a plan
   * (or MsgCancelUpgrade) with the validator as the authority. The Msg server refuses it, whatever the plan.
   */
  | {
      readonly kind: "self-signed-upgrade";
      readonly signer: ValidatorName;
      readonly cancel: boolean;
      readonly name: PlanName;
      readonly offset: number;
    };

const GOV_KINDS: ReadonlySet<string> = new Set<GovCommand["kind"]>([
  "propose-upgrade",
  "propose-cancel",
  "propose-text",
  "vote",
  "deposit",
  "withdraw",
  "emergency-upgrade",
  "emergency-cancel",
  "invalid-plan",
  "self-signed-upgrade",
]);

/** Whether `c` is a governance command. */
export const isGovCommand = (c: { readonly kind: string }): c is GovCommand => GOV_KINDS.has(c.kind);

const signed = (offset: number): string => `${offset >= 0 ? "+" : ""}${offset}`;

/** Readable scenario-like text of a governance command (commands.ts `describe`). */
export function describeGov(c: GovCommand): string {
  switch (c.kind) {
    case "propose-upgrade":
      return `propose-upgrade(${c.name}, pass${signed(c.offset)}${c.expedited ? ", expedited" : ""}, ${c.deposit} deposit)`;
    case "propose-cancel":
      return `propose-cancel(${c.expedited ? "expedited, " : ""}${c.deposit} deposit)`;
    case "propose-text":
      return `propose-text(${c.expedited ? "expedited" : "regular"})`;
    case "vote":
      return `vote(${c.target}, ${c.outcome})`;
    case "deposit":
      return c.amounts.length === 1 && c.amounts[0] === "valid"
        ? `deposit(${c.target})`
        : `deposit(${c.target}: ${c.amounts.join(", ")} in one block)`;
    case "withdraw":
      return `withdraw(${c.target}${c.by === "other" ? ", signed by another validator" : ""})`;
    case "emergency-upgrade":
      return `authorityExec(schedule ${c.name} at next${signed(c.offset)})`;
    case "emergency-cancel":
      return "authorityExec(cancel)";
    case "invalid-plan":
      return `authorityExec(schedule an invalid plan: ${c.flaw})`;
    case "self-signed-upgrade":
      return c.cancel
        ? `tx from ${c.signer}(cancel)`
        : `tx from ${c.signer}(schedule ${c.name} at next${signed(c.offset)})`;
  }
}

const VOTES: Record<VoteOutcome, readonly (readonly [string, "yes" | "no" | "no_with_veto" | "abstain"])[]> = {
  pass: [
    ["val1", "yes"],
    ["val2", "yes"],
    ["val3", "yes"],
  ],
  reject: [
    ["val1", "no"],
    ["val2", "no"],
    ["val3", "no"],
  ],
  veto: [
    ["val1", "no_with_veto"],
    ["val2", "no_with_veto"],
    ["val3", "yes"],
  ],
  "veto-below": [
    ["val1", "no_with_veto"],
    ["val2", "yes"],
    ["val3", "yes"],
  ],
  "no-quorum": [["val4", "yes"]],
  abstain: [
    ["val1", "abstain"],
    ["val2", "abstain"],
    ["val3", "abstain"],
  ],
  "pass-over-abstain": [
    ["val1", "yes"],
    ["val2", "abstain"],
    ["val3", "abstain"],
  ],
  "yes-at-threshold": [
    ["val1", "yes"],
    ["val2", "no"],
  ],
};

/**
 * The label of the proposal `which` names, from the chain's record of its proposals; undefined when none. A vote's
 * newest or oldest proposal is one in its voting period (validators vote on those; a vote in the deposit period is
 * refused like one on a closed proposal).
 */
function target(s: Session, which: ProposalTarget, votable = false): string | undefined {
  const pool = s.sim.proposals.filter((p) =>
    which === "decided"
      ? p.status === "passed" || p.status === "rejected" || p.status === "failed"
      : which === "closed"
        ? p.status !== "voting_period" && p.status !== "deposit_period"
        : p.status === "voting_period" || (!votable && p.status === "deposit_period"),
  );
  const p = which === "oldest" ? pool[0] : pool[pool.length - 1];
  return p?.label ?? undefined;
}

/** A validator's genesis balance in stake (the world lists no account: each holds the format's default). */
const VALIDATOR_STAKE = (() => {
  const c = parseCoins(SCENARIO_DEFAULTS.validatorBalance);
  const stake = c.ok ? c.value.find((x) => x.denom === "stake") : undefined;
  if (stake === undefined)
    throw new RangeError(`default validator balance: no stake in "${SCENARIO_DEFAULTS.validatorBalance}"`);
  return stake.amount;
})();

/** The coins of a deposit to a proposal whose minimum deposit is `min` (sorted by denom, as the chain requires). */
function depositCoins(a: DepositAmount, min: bigint): { readonly denom: string; readonly amount: bigint }[] {
  const stake = (amount: bigint) => [{ denom: "stake", amount }];
  switch (a) {
    case "valid":
      return stake(EXPEDITED_MIN_DEPOSIT);
    case "at-ratio":
      return stake(min / 100n);
    case "below-ratio":
      return stake(min / 100n - 1n);
    case "empty":
      return [];
    case "other-denom":
      return [{ denom: "atom", amount: 1n }, ...stake(EXPEDITED_MIN_DEPOSIT)];
    case "over-balance":
      return stake(VALIDATOR_STAKE + 1n);
  }
}

/** The validator that signs a cancel: the proposer of every harness proposal (val1), or another validator. */
export const CANCEL_SIGNER = { proposer: "val1", other: "val2" } as const;

const blocksFor = (ms: number) => Math.ceil(ms / BLOCK_MS);

/** A propose-* command's submission; `label` is the model's label for the proposal. */
function propose(s: Session, c: Extract<GovCommand, { kind: `propose-${string}` }>, label: string): void {
  if (c.kind === "propose-text") {
    const deposit = c.expedited ? EXPEDITED_MIN_DEPOSIT : MIN_DEPOSIT;
    s.submitProposal(label, [], { expedited: c.expedited, deposit, proposer: "val1", metadata: "text proposal" });
    return;
  }
  const expedited = c.expedited;
  const min = expedited ? EXPEDITED_MIN_DEPOSIT : MIN_DEPOSIT;
  const votingBlocks = blocksFor(expedited ? EXPEDITED_VOTING_PERIOD_MS : VOTING_PERIOD_MS);
  const msgs: HarnessMsg[] =
    c.kind === "propose-upgrade"
      ? [
          {
            kind: "softwareUpgrade",
            name: c.name,
            height: Math.max(1, s.sim.height + 1 + votingBlocks + c.offset),
            info: "",
          },
        ]
      : [{ kind: "cancelUpgrade" }];
  s.submitProposal(label, msgs, { expedited, deposit: c.deposit === "full" ? min : min / 10n, proposer: "val1" });
}

/** The transactions of a command on an existing proposal (vote, deposit, withdraw); none when no proposal fits. */
function onProposal(s: Session, c: Extract<GovCommand, { kind: "vote" | "deposit" | "withdraw" }>): void {
  const proposal = target(s, c.target, c.kind === "vote");
  if (proposal === undefined) return;
  switch (c.kind) {
    case "vote":
      s.act({ kind: "vote", proposal, votes: new Map(VOTES[c.outcome]) });
      return;
    case "deposit": {
      const min = s.expedited.has(proposal) ? EXPEDITED_MIN_DEPOSIT : MIN_DEPOSIT;
      s.actTogether(
        c.amounts.map((a) => ({ action: { kind: "deposit", proposal, from: "val2", amount: depositCoins(a, min) } })),
      );
      return;
    }
    case "withdraw":
      s.act({ kind: "cancelProposal", proposal, from: CANCEL_SIGNER[c.by] });
      return;
  }
}

/**
 * Runs one governance command against the session. `label` names the proposal a propose-* command submits (the
 * model's, see HarnessCommand.run); commands.ts `runCommand` checks that it is given.
 */
export function runGovCommand(s: Session, c: GovCommand, label: string | undefined): void {
  const next = (offset: number) => Math.max(1, s.sim.height + 1 + offset);
  switch (c.kind) {
    case "propose-upgrade":
    case "propose-cancel":
    case "propose-text":
      propose(s, c, label!);
      return;
    case "vote":
    case "deposit":
    case "withdraw":
      onProposal(s, c);
      return;
    case "emergency-upgrade":
      s.authorityExec([{ kind: "softwareUpgrade", name: c.name, height: next(c.offset), info: "" }]);
      return;
    case "emergency-cancel":
      s.authorityExec([{ kind: "cancelUpgrade" }]);
      return;
    case "invalid-plan":
      s.authorityExec([
        c.flaw === "empty-name"
          ? { kind: "softwareUpgrade", name: "", height: s.sim.height + 10, info: "" }
          : { kind: "softwareUpgrade", name: "v2", height: 0, info: "" },
      ]);
      return;
    case "self-signed-upgrade":
      s.accountTx(c.signer, [
        c.cancel
          ? { kind: "cancelUpgrade" }
          : { kind: "softwareUpgrade", name: c.name, height: next(c.offset), info: "" },
      ]);
      return;
  }
}
