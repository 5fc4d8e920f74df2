import fc from "fast-check";
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
  | {
      readonly kind: "vote";
      readonly target: "newest" | "oldest";
      readonly outcome: "pass" | "reject" | "veto" | "no-quorum";
    }
  | { readonly kind: "deposit"; readonly target: "newest" | "oldest" }
  | { readonly kind: "withdraw"; readonly target: "newest" | "oldest" }
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
  | { readonly kind: "advance-time"; readonly ms: number }
  | { readonly kind: "swap"; readonly node: ValidatorName; readonly binary: BinaryName }
  /** The operators of every validator switch to `binary` (a coordinated upgrade, or a coordinated mistake). */
  | { readonly kind: "swap-all"; readonly binary: BinaryName }
  | { readonly kind: "restart"; readonly node: ValidatorName; readonly skipPlanHeight: boolean }
  | { readonly kind: "stop"; readonly node: ValidatorName };

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
}

/** The session's chain as a command target: the command, then the `always` properties (a Violation if one fails). */
export const sessionTarget = (s: Session, properties: readonly Property[]): CommandTarget => ({
  execute(c, label) {
    runCommand(s, c, label);
    checkProperties(s, properties, "always");
  },
});

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
      return `deposit(${c.target})`;
    case "withdraw":
      return `withdraw(${c.target})`;
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
  }
}

const VOTES: Record<
  "pass" | "reject" | "veto" | "no-quorum",
  readonly (readonly [string, "yes" | "no" | "no_with_veto"])[]
> = {
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
  "no-quorum": [["val4", "yes"]],
};

function target(s: Session, which: "newest" | "oldest"): string | undefined {
  const open = s.sim.proposals.filter((p) => p.status === "voting_period" || p.status === "deposit_period");
  const p = which === "newest" ? open[open.length - 1] : open[0];
  return p?.label ?? undefined;
}

const PROPOSE: ReadonlySet<CommandData["kind"]> = new Set(["propose-upgrade", "propose-cancel", "propose-text"]);

/**
 * Runs one command against the session (the real chain; the oracle follows through `sync`). `label` names the
 * proposal a propose-* command submits (the model's, see HarnessCommand.run).
 */
export function runCommand(s: Session, c: CommandData, label: string | undefined): void {
  const sim = s.sim;
  if (PROPOSE.has(c.kind) && label === undefined) throw new Error(`${describe(c)}: the model gave no proposal label`);
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
      const proposal = target(s, c.target);
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
      const amount = [{ denom: "stake", amount: EXPEDITED_MIN_DEPOSIT }];
      s.act(
        { kind: "deposit", proposal, from: "val2", amount },
        { deposit: { proposal, from: "val2", amount: `${EXPEDITED_MIN_DEPOSIT}stake` } },
      );
      return;
    }
    case "withdraw": {
      const proposal = target(s, c.target);
      if (proposal === undefined) return;
      s.act({ kind: "cancelProposal", proposal, from: "val1" }, { cancelProposal: { proposal, from: "val1" } });
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
  }
}

/** A fast-check command wrapping `CommandData` (fast-check's ICommand contracts). */
export class HarnessCommand implements fc.Command<HarnessModel, CommandTarget> {
  constructor(readonly data: CommandData) {}
  /**
   * Whether the command may run in the model's state. Reads the model only and never changes it: a vote, deposit or
   * withdraw needs a submitted proposal; every other command always runs.
   */
  check(m: Readonly<HarnessModel>): boolean {
    if (this.data.kind === "vote" || this.data.kind === "deposit" || this.data.kind === "withdraw")
      return m.proposals.length > 0;
    return true;
  }
  /**
   * Steps the model from the command's intent (the log; a new proposal label for a propose-* command), then runs
   * the command on the target. Called only after `check` returned true. Throws when the target does (a Violation
   * of a checked property, or a harness bug).
   */
  run(m: HarnessModel, t: CommandTarget): void {
    m.log.push(this.data);
    let label: string | undefined;
    if (PROPOSE.has(this.data.kind)) {
      label = `p${++m.proposalCount}`;
      m.proposals.push(label);
    }
    t.execute(this.data, label);
  }
  toString(): string {
    return describe(this.data);
  }
}

const node = fc.constantFrom(...VALIDATORS);
const targetArb = fc.constantFrom("newest" as const, "oldest" as const);
/** Offsets cluster around 0 (the decision height) with a tail into "far". */
const nearOffset = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -3, max: 6 }) },
  { weight: 2, arbitrary: fc.integer({ min: 7, max: 30 }) },
  { weight: 1, arbitrary: fc.integer({ min: 31, max: 120 }) },
);

/** The command generators, weighted towards the interesting region (plans near the decision height). */
export function commandArbitraries(): fc.Arbitrary<CommandData>[] {
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
    fc.record({
      kind: fc.constant("vote" as const),
      target: targetArb,
      outcome: fc.constantFrom(
        "pass" as const,
        "pass" as const,
        "reject" as const,
        "veto" as const,
        "no-quorum" as const,
      ),
    }),
    fc.record({ kind: fc.constant("deposit" as const), target: targetArb }),
    fc.record({ kind: fc.constant("withdraw" as const), target: targetArb }),
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
    fc.record({ kind: fc.constant("advance-time" as const), ms: fc.integer({ min: 1000, max: 180_000 }) }),
    fc.record({ kind: fc.constant("swap" as const), node, binary: fc.constantFrom(...BINARIES) }),
    fc.record({ kind: fc.constant("swap-all" as const), binary: fc.constantFrom(...BINARIES) }),
    fc.record({ kind: fc.constant("restart" as const), node, skipPlanHeight: fc.boolean() }),
    fc.record({ kind: fc.constant("stop" as const), node }),
  ];
}
