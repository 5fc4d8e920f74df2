import fc from "fast-check";
import { parseCoins } from "../scenario/coins.js";
import { SCENARIO_DEFAULTS } from "../scenario/defaults.js";
import {
  type CompoundCommand,
  compoundArbitraries,
  describeCompound,
  runCompound,
  type VoteOutcome,
} from "./compound-commands.js";
import { checkProperties, type Property } from "./property.js";
import type { HarnessMsg, Session } from "./session.js";
import {
  BINARIES,
  type BinaryName,
  BLOCK_MS,
  EXPEDITED_MIN_DEPOSIT,
  EXPEDITED_VOTING_PERIOD_MS,
  MIN_DEPOSIT,
  PLAN_NAMES,
  type PlanName,
  VALIDATORS,
  type ValidatorName,
  VOTING_PERIOD_MS,
} from "./world.js";

/**
 * The commands of the model-based test, as plain data (so a failing sequence is printable, storable and
 * replayable without randomness). Heights are relative to where the chain is when the command runs, which keeps
 * generated plans near the interesting region: the height at which a proposal passes, or the next block.
 */
export type CommandData =
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
    }
  | { readonly kind: "advance"; readonly blocks: number }
  | { readonly kind: "advance-to-plan"; readonly delta: number }
  /**
   * Waits for the voting end of the newest proposal in its voting period: the next command's transactions land in
   * the block whose time first reaches it, shifted by `delta` blocks (0: the block that also tallies the proposal,
   * after its transactions; -1: the last block before; +1: the first after). While the chain is halted or stalled,
   * the clock moves on to that time instead, so the first block after the outage comes past the voting end.
   * `next: "cancel"` has the proposer cancel that proposal right away, so the cancel races its voting end (accepted
   * at the end itself, refused once the end has passed, whether or not the proposal was tallied yet).
   */
  | { readonly kind: "advance-to-voting-end"; readonly delta: number; readonly next: "nothing" | "cancel" }
  | { readonly kind: "advance-time"; readonly ms: number }
  | { readonly kind: "swap"; readonly node: ValidatorName; readonly binary: BinaryName }
  /** The operators of every validator switch to `binary` (a coordinated upgrade, or a coordinated mistake). */
  | { readonly kind: "swap-all"; readonly binary: BinaryName }
  | { readonly kind: "restart"; readonly node: ValidatorName; readonly skipPlanHeight: boolean }
  | { readonly kind: "stop"; readonly node: ValidatorName }
  /** Sequences of the commands above that operators perform together (compound-commands.ts). */
  | CompoundCommand;

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

/** The model of fast-check's Model/Real split: what the harness knows from the commands' intent alone. */
export interface HarnessModel {
  /** Labels of submitted proposals, in order. */
  readonly proposals: string[];
  proposalCount: number;
  /** Commands executed so far (the counterexample, once shrunk). */
  readonly log: CommandData[];
}

export const emptyModel = (): HarnessModel => ({ proposals: [], proposalCount: 0, log: [] });

/**
 * The real side a command runs against: the chain of a session, with the `always` properties checked after every
 * command (sessionTarget), or, for generation statistics, anything that records the commands.
 */
export interface CommandTarget {
  /** Runs `c`; `label` is the label the model gave the proposal a propose-* command submits. */
  execute(c: CommandData, label: string | undefined): void;
  /**
   * The run's first failure, once a command failed; later commands are then not executed (HarnessCommand.run).
   * Absent on targets that never fail.
   */
  readonly failure?: { readonly error: unknown } | undefined;
}

/**
 * The session's chain as a command target: the command, then the `always` properties. The first failure (a
 * Violation of a checked property, or an error of the harness or the chain) is kept in `failure` instead of thrown,
 * and the run's later commands are skipped; the caller throws it once the sequence has run (runSession).
 *
 * Why not throw at once: fast-check's shrinker keeps, of a failing sequence, only the commands it saw run, and
 * when it shrinks another part of the run's input (the sidecars, the gov params) it goes on reading which commands
 * ran from the sequence's earlier execution. A failure that comes later in the shrunk world (fewer sidecars swap
 * binaries, so the chain halts for longer) needs commands the earlier execution never reached, and no shrink of
 * the sequence could contain them again: shrinking stalled. Run to its end, a sequence runs the same commands in
 * every world (a command's precondition reads the model only), so the commands kept are the same whatever the
 * world, and whichever command fails.
 */
export function sessionTarget(s: Session, properties: readonly Property[]): CommandTarget {
  let failure: { readonly error: unknown } | undefined;
  return {
    get failure() {
      return failure;
    },
    execute(c, label) {
      if (failure !== undefined) return;
      try {
        runCommand(s, c, label);
        checkProperties(s, properties, "always");
      } catch (error) {
        failure = { error };
      }
    },
  };
}

const blocksFor = (ms: number) => Math.ceil(ms / BLOCK_MS);

/** Readable scenario-like text of a command (fast-check prints these for a counterexample). */
export function describe(c: CommandData): string {
  switch (c.kind) {
    case "propose-upgrade":
      return `propose-upgrade(${c.name}, pass${c.offset >= 0 ? "+" : ""}${c.offset}${c.expedited ? ", expedited" : ""}, ${c.deposit} deposit)`;
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
      return `authorityExec(schedule ${c.name} at next${c.offset >= 0 ? "+" : ""}${c.offset})`;
    case "emergency-cancel":
      return "authorityExec(cancel)";
    case "invalid-plan":
      return `authorityExec(schedule an invalid plan: ${c.flaw})`;
    case "self-signed-upgrade":
      return c.cancel
        ? `tx from ${c.signer}(cancel)`
        : `tx from ${c.signer}(schedule ${c.name} at next${c.offset >= 0 ? "+" : ""}${c.offset})`;
    case "advance":
      return `advance(${c.blocks} blocks)`;
    case "advance-to-plan":
      return `advance-to-plan(${c.delta >= 0 ? "+" : ""}${c.delta})`;
    case "advance-to-voting-end":
      return `advance-to-voting-end(${c.delta >= 0 ? "+" : ""}${c.delta})${c.next === "cancel" ? " then withdraw(it)" : ""}`;
    case "advance-time":
      return `advance-time(${c.ms} ms)`;
    case "swap":
      return `swapBinary(${c.node}, ${c.binary})`;
    case "swap-all":
      return `swapBinary(every validator, ${c.binary})`;
    case "restart":
      return `restart(${c.node}${c.skipPlanHeight ? ", skip the plan height" : ""})`;
    case "stop":
      return `stop(${c.node})`;
    default:
      return describeCompound(c);
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
export function depositCoins(a: DepositAmount, min: bigint): { readonly denom: string; readonly amount: bigint }[] {
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
const CANCEL_SIGNER = { proposer: "val1", other: "val2" } as const;

const PROPOSE: ReadonlySet<CommandData["kind"]> = new Set([
  "propose-upgrade",
  "propose-cancel",
  "propose-text",
  "coordinated-upgrade",
]);
/** Whether the command submits a proposal (the model gives it a label). */
const proposes = (c: CommandData): boolean => PROPOSE.has(c.kind) || (c.kind === "decide" && c.on === "new");
/** The commands that act on a submitted proposal (HarnessCommand.check). */
const ON_PROPOSAL: ReadonlySet<CommandData["kind"]> = new Set([
  "vote",
  "deposit",
  "withdraw",
  "decide",
  "outage-over-voting-end",
]);

/**
 * Runs one command against the session (the real chain; the oracle follows through `sync`). `label` names the
 * proposal a propose-* command submits (the model's, see HarnessCommand.run).
 */
export function runCommand(s: Session, c: CommandData, label: string | undefined): void {
  const sim = s.sim;
  if (proposes(c) && label === undefined) throw new Error(`${describe(c)}: the model gave no proposal label`);
  switch (c.kind) {
    case "propose-upgrade":
    case "propose-cancel": {
      const expedited = c.expedited;
      const min = expedited ? EXPEDITED_MIN_DEPOSIT : MIN_DEPOSIT;
      const msgs: HarnessMsg[] =
        c.kind === "propose-upgrade"
          ? [
              {
                kind: "softwareUpgrade",
                name: c.name,
                height: Math.max(
                  1,
                  sim.height + 1 + blocksFor(expedited ? EXPEDITED_VOTING_PERIOD_MS : VOTING_PERIOD_MS) + c.offset,
                ),
                info: "",
              },
            ]
          : [{ kind: "cancelUpgrade" }];
      s.submitProposal(label!, msgs, { expedited, deposit: c.deposit === "full" ? min : min / 10n, proposer: "val1" });
      return;
    }
    case "propose-text": {
      const deposit = c.expedited ? EXPEDITED_MIN_DEPOSIT : MIN_DEPOSIT;
      s.submitProposal(label!, [], { expedited: c.expedited, deposit, proposer: "val1", metadata: "text proposal" });
      return;
    }
    case "vote": {
      const proposal = target(s, c.target, true);
      if (proposal === undefined) return;
      const votes = VOTES[c.outcome];
      s.act(
        { kind: "vote", proposal, votes: new Map(votes) },
        { vote: { proposal, votes: Object.fromEntries(votes) } },
      );
      return;
    }
    case "deposit": {
      const proposal = target(s, c.target);
      if (proposal === undefined) return;
      const min = s.expedited.has(proposal) ? EXPEDITED_MIN_DEPOSIT : MIN_DEPOSIT;
      s.actTogether(
        c.amounts.map((a) => {
          const amount = depositCoins(a, min);
          const text = amount.map((x) => `${x.amount}${x.denom}`).join(",");
          return {
            action: { kind: "deposit", proposal, from: "val2", amount },
            docAction: { deposit: { proposal, from: "val2", amount: text } },
          };
        }),
      );
      return;
    }
    case "withdraw": {
      const proposal = target(s, c.target);
      if (proposal === undefined) return;
      const from = CANCEL_SIGNER[c.by];
      s.act({ kind: "cancelProposal", proposal, from }, { cancelProposal: { proposal, from } });
      return;
    }
    case "emergency-upgrade":
      s.authorityExec([
        { kind: "softwareUpgrade", name: c.name, height: Math.max(1, sim.height + 1 + c.offset), info: "" },
      ]);
      return;
    case "emergency-cancel":
      s.authorityExec([{ kind: "cancelUpgrade" }]);
      return;
    case "invalid-plan":
      s.authorityExec([
        c.flaw === "empty-name"
          ? { kind: "softwareUpgrade", name: "", height: sim.height + 10, info: "" }
          : { kind: "softwareUpgrade", name: "v2", height: 0, info: "" },
      ]);
      return;
    case "self-signed-upgrade":
      s.accountTx(c.signer, [
        c.cancel
          ? { kind: "cancelUpgrade" }
          : { kind: "softwareUpgrade", name: c.name, height: Math.max(1, sim.height + 1 + c.offset), info: "" },
      ]);
      return;
    case "advance":
      s.advanceBlocks(c.blocks);
      return;
    case "advance-to-plan": {
      const plan = sim.committed()?.plan;
      if (plan === null || plan === undefined) return;
      const target = plan.height + c.delta;
      if (target > sim.height) s.advanceBlocks(target - sim.height);
      return;
    }
    case "advance-to-voting-end": {
      const voting = sim.proposals.filter((p) => p.status === "voting_period" && p.votingEndTimeMs !== null);
      const newest = voting[voting.length - 1];
      const end = newest?.votingEndTimeMs;
      if (newest === undefined || end === undefined || end === null) return;
      const targetMs = end + c.delta * BLOCK_MS;
      // Blocks come every BLOCK_MS: stop where the next block is the first at or past the target.
      const blocks = sim.stalled ? 0 : Math.ceil((targetMs - sim.lastBlockTimeMs) / BLOCK_MS) - 1;
      if (blocks > 0) s.advanceBlocks(blocks);
      if (sim.stalled && targetMs > sim.nowMs) s.advanceTime(targetMs - sim.nowMs);
      if (c.next === "cancel" && newest.label !== null) {
        const proposal = newest.label;
        const from = CANCEL_SIGNER.proposer;
        s.act({ kind: "cancelProposal", proposal, from }, { cancelProposal: { proposal, from } });
      }
      return;
    }
    case "advance-time":
      s.advanceTime(c.ms);
      return;
    case "swap":
      s.act({ kind: "swapBinary", node: c.node, binary: c.binary }, { swapBinary: { node: c.node, binary: c.binary } });
      return;
    case "swap-all":
      for (const node of VALIDATORS)
        s.act({ kind: "swapBinary", node, binary: c.binary }, { swapBinary: { node, binary: c.binary } });
      return;
    case "restart": {
      const plan = sim.committed()?.plan;
      const skip = c.skipPlanHeight && plan !== null && plan !== undefined ? [plan.height] : [];
      s.act(
        { kind: "restart", node: c.node, skipUpgradeHeights: skip },
        { restart: { node: c.node, skipUpgradeHeights: skip } },
      );
      return;
    }
    case "stop":
      s.act({ kind: "stop", node: c.node }, { stop: { node: c.node } });
      return;
    default:
      runCompound(s, c, label, (p, l) => runCommand(s, p, l));
      return;
  }
}

/** A fast-check command wrapping `CommandData` (fast-check's ICommand contracts). */
export class HarnessCommand implements fc.Command<HarnessModel, CommandTarget> {
  constructor(readonly data: CommandData) {}
  /**
   * Whether the command may run in the model's state. Reads the model only and never changes it: a vote, deposit,
   * withdraw, decide on the newest proposal or outage over a voting end needs a submitted proposal; every other
   * command always runs.
   */
  check(m: Readonly<HarnessModel>): boolean {
    if (proposes(this.data)) return true;
    if (ON_PROPOSAL.has(this.data.kind)) return m.proposals.length > 0;
    return true;
  }
  /**
   * Steps the model from the command's intent (a new proposal label for a propose-* command), then, unless the
   * run already failed (`t.failure`), logs the command and runs it on the target. Called only after `check`
   * returned true. Throws when the target does (a harness bug; sessionTarget keeps its failures instead).
   */
  run(m: HarnessModel, t: CommandTarget): void {
    let label: string | undefined;
    if (proposes(this.data)) {
      label = `p${++m.proposalCount}`;
      m.proposals.push(label);
    }
    if (t.failure !== undefined) return;
    m.log.push(this.data);
    t.execute(this.data, label);
  }
  toString(): string {
    return describe(this.data);
  }
}

const node = fc.constantFrom(...VALIDATORS);
/** A closed proposal one time in five: most votes, deposits and cancels should still reach an open one. */
const targetArb = fc.constantFrom(
  "newest" as const,
  "oldest" as const,
  "newest" as const,
  "oldest" as const,
  "closed" as const,
);
/** Offsets cluster around 0 (the decision height) with a tail into "far". */
const nearOffset = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -3, max: 6 }) },
  { weight: 2, arbitrary: fc.integer({ min: 7, max: 30 }) },
  { weight: 1, arbitrary: fc.integer({ min: 31, max: 120 }) },
);

/**
 * The command generators, weighted towards the interesting region (plans near the decision height).
 */
export function commandArbitraries(): fc.Arbitrary<CommandData>[] {
  const vote = fc.record({
    kind: fc.constant("vote" as const),
    target: targetArb,
    outcome: fc.constantFrom(
      "pass" as const,
      "pass" as const,
      "reject" as const,
      "veto" as const,
      "veto-below" as const,
      "no-quorum" as const,
      "abstain" as const,
      "pass-over-abstain" as const,
      "yes-at-threshold" as const,
    ),
  });
  return [
    fc.record({
      kind: fc.constant("propose-upgrade" as const),
      name: fc.constantFrom(...PLAN_NAMES),
      offset: nearOffset,
      expedited: fc.boolean(),
      deposit: fc.constantFrom("full" as const, "full" as const, "partial" as const),
    }),
    fc.record({
      kind: fc.constant("propose-cancel" as const),
      expedited: fc.boolean(),
      deposit: fc.constantFrom("full" as const, "partial" as const),
    }),
    vote,
    fc.record({
      kind: fc.constant("deposit" as const),
      target: fc.oneof({ weight: 5, arbitrary: targetArb }, { weight: 1, arbitrary: fc.constant("decided" as const) }),
      // Half are the valid amount alone; the other half send other amounts before it in the same block.
      amounts: fc.oneof(
        fc.constant(["valid" as const]),
        fc
          .subarray(["at-ratio", "below-ratio", "empty", "other-denom", "over-balance"] as const, { minLength: 1 })
          .map((other): DepositAmount[] => [...other, "valid"]),
      ),
    }),
    fc.record({
      kind: fc.constant("withdraw" as const),
      target: targetArb,
      by: fc.constantFrom("proposer" as const, "proposer" as const, "other" as const),
    }),
    fc.record({
      kind: fc.constant("emergency-upgrade" as const),
      name: fc.constantFrom(...PLAN_NAMES),
      offset: nearOffset,
    }),
    fc.constant({ kind: "emergency-cancel" as const }),
    // Upgrade messages the Msg server must refuse share one slot: they change nothing, so they are rarer.
    fc.oneof(
      fc.record({
        kind: fc.constant("invalid-plan" as const),
        flaw: fc.constantFrom("empty-name" as const, "zero-height" as const),
      }),
      fc.record({
        kind: fc.constant("self-signed-upgrade" as const),
        signer: node,
        cancel: fc.boolean(),
        name: fc.constantFrom(...PLAN_NAMES),
        offset: nearOffset,
      }),
    ),
    fc.record({ kind: fc.constant("advance" as const), blocks: fc.integer({ min: 1, max: 25 }) }),
    fc.record({ kind: fc.constant("advance-to-plan" as const), delta: fc.integer({ min: -2, max: 2 }) }),
    fc.record({
      kind: fc.constant("advance-to-voting-end" as const),
      delta: fc.integer({ min: -1, max: 1 }),
      next: fc.constantFrom("nothing" as const, "cancel" as const),
    }),
    fc.record({ kind: fc.constant("advance-time" as const), ms: fc.integer({ min: 1000, max: 180_000 }) }),
    fc.record({ kind: fc.constant("swap" as const), node, binary: fc.constantFrom(...BINARIES) }),
    fc.record({ kind: fc.constant("swap-all" as const), binary: fc.constantFrom(...BINARIES) }),
    fc.record({ kind: fc.constant("restart" as const), node, skipPlanHeight: fc.boolean() }),
    fc.record({ kind: fc.constant("stop" as const), node }),
    ...compoundArbitraries(),
  ];
}
