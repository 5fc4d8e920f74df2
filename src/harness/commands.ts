/**
 * The commands of the model-based test, as plain data (so a failing sequence is printable, storable and replayable
 * without randomness), and fast-check's command over them. By concept: the governance commands (commands-gov.ts),
 * the node actions and clock (commands-node.ts), the compound commands operators perform together
 * (compound-commands.ts), and the generators (commands-arbitraries.ts). Each command builds its chain action once;
 * the session derives the step's scenario form, which a counterexample prints, from that action
 * (scenario/step-document.ts).
 */
import type fc from "fast-check";
import { describeGov, type GovCommand, isGovCommand, runGovCommand } from "./commands-gov.js";
import { describeNode, isNodeCommand, type NodeCommand, runNodeCommand } from "./commands-node.js";
import { type CompoundCommand, describeCompound, runCompound } from "./compound-commands.js";
import { checkProperties, type Property } from "./property.js";
import type { Session } from "./session.js";

/**
 * A command of the model-based test. Heights are relative to where the chain is when the command runs, which keeps
 * generated plans near the interesting region: the height at which a proposal passes, or the next block.
 */
export type CommandData =
  | GovCommand
  | NodeCommand
  /** Sequences of the commands above that operators perform together (compound-commands.ts). */
  | CompoundCommand;

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

/** Readable scenario-like text of a command (fast-check prints these for a counterexample). */
export function describe(c: CommandData): string {
  if (isGovCommand(c)) return describeGov(c);
  if (isNodeCommand(c)) return describeNode(c);
  return describeCompound(c);
}

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
  if (proposes(c) && label === undefined) throw new Error(`${describe(c)}: the model gave no proposal label`);
  if (isGovCommand(c)) runGovCommand(s, c, label);
  else if (isNodeCommand(c)) runNodeCommand(s, c);
  else runCompound(s, c, label, (p, l) => runCommand(s, p, l));
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
