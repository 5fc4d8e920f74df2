import fc from "fast-check";
import type { VoteOutcome } from "./commands-gov.js";
import type { Session } from "./session.js";
import {
  BINARIES,
  type BinaryName,
  BLOCK_MS,
  PLAN_NAMES,
  type PlanName,
  VALIDATORS,
  type ValidatorName,
} from "./world.js";

/** The primitive commands (commands.ts `CommandData`) the compound commands are made of. */
type Primitive =
  | { readonly kind: "propose-text"; readonly expedited: false }
  | {
      readonly kind: "propose-upgrade";
      readonly name: PlanName;
      readonly offset: number;
      readonly expedited: false;
      readonly deposit: "full";
    }
  | { readonly kind: "vote"; readonly target: "newest"; readonly outcome: VoteOutcome }
  | { readonly kind: "advance-to-plan"; readonly delta: number }
  | { readonly kind: "advance-to-voting-end"; readonly delta: number; readonly next: "cancel" }
  | { readonly kind: "swap-all"; readonly binary: BinaryName }
  | { readonly kind: "stop"; readonly node: ValidatorName }
  | { readonly kind: "restart"; readonly node: ValidatorName; readonly skipPlanHeight: boolean };

/**
 * The compound commands of the model-based test: each is a short sequence of the primitive commands that a real
 * operator or validator set performs together, and that the uniform draw of primitives reaches only in a few runs
 * of a budget (docs/mutation.md, "Kills that hold at every seed"). Each runs only primitives (`RunPrimitive`), so
 * the oracle and the gov model follow it exactly as they follow those primitives one by one.
 *
 * 1. `decide`: votes aimed at an outcome, on a text proposal it submits first with the regular minimum deposit
 *    (`on: "new"`) or on the newest proposal in its voting period (`on: "newest"`), then the chain runs until that
 *    proposal is tallied: every tally row of the reference (`x/gov/keeper/tally.go`: quorum, all abstain, veto,
 *    threshold) in every budget, with its deposit refunded or burned as the params say. A proposal of its own makes
 *    the tally independent of what the run submitted before; the chain must still be live to tally it.
 * 2. `coordinated-skip`: validators holding more than 2/3 of the power (val1–val3), or all four, restart with the
 *    scheduled plan's height in their `--unsafe-skip-upgrades`, then the chain runs past that height: the
 *    reference's coordinated skip (`x/upgrade/abci.go`: `UPGRADE "…" SKIPPED at …`).
 * 3. `coordinated-upgrade`: a regular proposal for plan `name` with its full deposit, every validator votes yes,
 *    the chain runs to the plan height (it halts there), then every operator switches to `binary`: the upgrade as
 *    a chain runs it, which applies the plan's store upgrades in the store worlds.
 * 4. `outage-over-voting-end`: val3 and val4 stop (200 of 400 power: the chain stalls), the clock passes the
 *    newest voting proposal's voting end, its proposer cancels, and both return: the cancel lands in the first
 *    block after the outage, before the tally, and must be refused (`ErrVotingPeriodEnded`).
 */
export type CompoundCommand =
  | { readonly kind: "decide"; readonly on: "new" | "newest"; readonly outcome: VoteOutcome }
  | { readonly kind: "coordinated-skip"; readonly nodes: 3 | 4 }
  | {
      readonly kind: "coordinated-upgrade";
      readonly name: PlanName;
      /** Plan height relative to the block the proposal passes in (≥ 1: the plan is in the future when it passes). */
      readonly offset: number;
      readonly binary: BinaryName;
    }
  | { readonly kind: "outage-over-voting-end" };

/** Runs a primitive command (commands.ts `runCommand`); `label` as there. */
type RunPrimitive = (c: Primitive, label?: string) => void;

/** At most this many advances wait for a tally (a block time is drawn near BLOCK_MS; one advance usually does). */
const TALLY_ADVANCES = 4;

/** Runs the chain until proposal `label` has left its voting period (tallied), unless the chain stalls or halts. */
function runToTally(s: Session, label: string): void {
  for (let i = 0; i < TALLY_ADVANCES; i++) {
    const p = s.sim.proposals.find((x) => x.label === label);
    const end = p?.votingEndTimeMs;
    if (p === undefined || p.status !== "voting_period" || end === undefined || end === null) return;
    if (s.sim.stalled) return;
    const before = s.sim.height;
    s.advanceBlocks(Math.max(1, Math.ceil((end - s.sim.lastBlockTimeMs) / BLOCK_MS)));
    if (s.sim.height === before) return;
  }
}

/** The newest proposal in its voting period, or undefined. */
function newestVoting(s: Session): string | undefined {
  const voting = s.sim.proposals.filter((p) => p.status === "voting_period");
  return voting[voting.length - 1]?.label ?? undefined;
}

/** Runs one compound command through its primitives (see the header). `label` names a proposal it submits. */
export function runCompound(s: Session, c: CompoundCommand, label: string | undefined, run: RunPrimitive): void {
  switch (c.kind) {
    case "decide": {
      if (c.on === "new") run({ kind: "propose-text", expedited: false }, label);
      const proposal = newestVoting(s);
      if (proposal === undefined) return;
      run({ kind: "vote", target: "newest", outcome: c.outcome });
      runToTally(s, proposal);
      return;
    }
    case "coordinated-skip": {
      const plan = s.sim.committed()?.plan;
      if (plan === null || plan === undefined) return;
      // Together, at one opportunity: restarted one block apart, the last could come after the plan height.
      const skip = [plan.height];
      s.actTogether(
        VALIDATORS.slice(0, c.nodes).map((node) => ({
          action: { kind: "restart" as const, node, skipUpgradeHeights: skip },
        })),
      );
      if (s.sim.height <= plan.height) run({ kind: "advance-to-plan", delta: 1 });
      return;
    }
    case "coordinated-upgrade": {
      run({ kind: "propose-upgrade", name: c.name, offset: c.offset, expedited: false, deposit: "full" }, label);
      if (label === undefined || newestVoting(s) !== label) return;
      run({ kind: "vote", target: "newest", outcome: "pass" });
      runToTally(s, label);
      run({ kind: "advance-to-plan", delta: 0 });
      run({ kind: "swap-all", binary: c.binary });
      return;
    }
    case "outage-over-voting-end":
      for (const node of ["val3", "val4"] as const) run({ kind: "stop", node });
      run({ kind: "advance-to-voting-end", delta: 1, next: "cancel" });
      for (const node of ["val3", "val4"] as const) run({ kind: "restart", node, skipPlanHeight: false });
      return;
  }
}

/** Readable text of a compound command (see commands.ts `describe`). */
export function describeCompound(c: CompoundCommand): string {
  switch (c.kind) {
    case "decide":
      return `decide(${c.on === "new" ? "a new text proposal" : "newest"}, ${c.outcome})`;
    case "coordinated-skip":
      return `coordinated-skip(${c.nodes === 4 ? "every validator" : "val1-val3"} restart skipping the plan height)`;
    case "coordinated-upgrade":
      return `coordinated-upgrade(${c.name}, pass+${c.offset}, then swapBinary(every validator, ${c.binary}))`;
    case "outage-over-voting-end":
      return "outage-over-voting-end(val3, val4 down past the voting end; the proposer cancels)";
  }
}

/**
 * The outcomes `decide` aims at: each row of the tally once, the near-threshold ones included (veto just below
 * the threshold, yes at exactly the threshold).
 */
const DECIDE_OUTCOMES: readonly VoteOutcome[] = [
  "pass",
  "reject",
  "veto",
  "veto-below",
  "no-quorum",
  "abstain",
  "pass-over-abstain",
  "yes-at-threshold",
];

/**
 * The compound commands' generators (commands.ts `commandArbitraries` lists them beside the primitives; fast-check
 * draws each entry equally often): `decide` is listed twice, so that each tally row comes up in every budget.
 */
export function compoundArbitraries(): fc.Arbitrary<CompoundCommand>[] {
  const decide = fc.record({
    kind: fc.constant("decide" as const),
    on: fc.constantFrom("new" as const, "new" as const, "newest" as const),
    outcome: fc.constantFrom(...DECIDE_OUTCOMES),
  });
  return [
    decide,
    decide,
    fc.record({ kind: fc.constant("coordinated-skip" as const), nodes: fc.constantFrom(3 as const, 4 as const) }),
    fc.record({
      kind: fc.constant("coordinated-upgrade" as const),
      // Plan v2 carries the store upgrades of the store worlds, and binary v2 is the one that keeps mounting the
      // store its plan deletes: the draw leans towards both without leaving out the others.
      name: fc.oneof({ weight: 3, arbitrary: fc.constant("v2" as const) }, fc.constantFrom(...PLAN_NAMES)),
      offset: fc.integer({ min: 1, max: 6 }),
      binary: fc.oneof({ weight: 3, arbitrary: fc.constant("v2" as const) }, fc.constantFrom(...BINARIES)),
    }),
    fc.constant({ kind: "outage-over-voting-end" as const }),
  ];
}
