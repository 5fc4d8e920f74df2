/**
 * The generators of the model-based test's commands (commands.ts `CommandData`), weighted towards the interesting
 * region: plans near the height at which their proposal passes, votes on open proposals, deposits that end with the
 * valid amount. fast-check draws each listed generator equally often; a weight inside one shapes its own values.
 */
import fc from "fast-check";
import type { CommandData } from "./commands.js";
import type { DepositAmount } from "./commands-gov.js";
import { compoundArbitraries } from "./compound-commands.js";
import { BINARIES, PLAN_NAMES, VALIDATORS } from "./world.js";

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
