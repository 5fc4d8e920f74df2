import fc from "fast-check";
import { type CommandData, type CommandTarget, emptyModel, type HarnessModel } from "./commands.js";
import { runArbitrary } from "./run-property.js";

/**
 * Generation statistics: how often the run generator of `runProperty` reaches the interesting region, counted over
 * `fc.sample` of the very arbitrary the runs use (run-property.ts `runArbitrary`) with a classify function over the
 * commands each sequence executes. Nothing runs on the chain; commands whose precondition fails are not counted.
 */
export const GENERATION_CLASSES = {
  "plan near decision height": "an upgrade (proposal or authority) with |offset| <= 2 from the decision height",
  "early swap":
    "after an upgrade was proposed or scheduled, a swap to a binary with a handler before any advance-to-plan",
  "cancel proposal": "a cancel proposal (propose-cancel)",
  "cancel by another validator": "a MsgCancelProposal signed by a validator other than the proposer",
  "gov tx on a closed proposal": "a vote, deposit or cancel aimed at a proposal no longer open",
  "unusual deposit":
    "a deposit that is empty, in a denom min_deposit does not name, at or below min_deposit_ratio of the minimum, or above the balance",
  abstentions: "a vote in which validators abstain",
  "restart with skip height": "a restart that skips the plan height",
  "with sidecars": "at least one validator has a sidecar",
} as const;

export type GenerationClass = keyof typeof GENERATION_CLASSES;

/** Length buckets of generated sequences. */
export const LENGTH_BUCKETS = [
  [0, 0],
  [1, 5],
  [6, 10],
  [11, 20],
  [21, 30],
  [31, Number.POSITIVE_INFINITY],
] as const;

export const lengthLabel = (n: number): string => {
  const b = LENGTH_BUCKETS.find(([lo, hi]) => n >= lo && n <= hi)!;
  return b[0] === b[1]
    ? `length ${b[0]}`
    : b[1] === Number.POSITIVE_INFINITY
      ? `length ${b[0]}+`
      : `length ${b[0]}-${b[1]}`;
};

const HANDLERLESS_BINARIES: ReadonlySet<string> = new Set(["v1"]);

/** The classes one generated sequence belongs to (plus its length bucket label). */
export function classifyCommands(cmds: readonly CommandData[], sidecars: number): string[] {
  const out = new Set<string>();
  let upgradeSeen = false;
  let advancedToPlan = false;
  for (const c of cmds) {
    switch (c.kind) {
      case "propose-upgrade":
      case "emergency-upgrade":
        upgradeSeen = true;
        if (Math.abs(c.offset) <= 2) out.add("plan near decision height");
        break;
      case "propose-cancel":
        out.add("cancel proposal");
        break;
      case "vote":
      case "deposit":
      case "withdraw":
        if (c.target === "closed" || c.target === "decided") out.add("gov tx on a closed proposal");
        if (c.kind === "withdraw" && c.by === "other") out.add("cancel by another validator");
        if (c.kind === "deposit" && c.amounts.some((a) => a !== "valid")) out.add("unusual deposit");
        if (c.kind === "vote" && (c.outcome === "abstain" || c.outcome === "pass-over-abstain")) out.add("abstentions");
        break;
      case "advance-to-plan":
        advancedToPlan = true;
        break;
      case "swap":
      case "swap-all":
        if (upgradeSeen && !advancedToPlan && !HANDLERLESS_BINARIES.has(c.binary)) out.add("early swap");
        break;
      case "restart":
        if (c.skipPlanHeight) out.add("restart with skip height");
        break;
      default:
        break;
    }
  }
  if (sidecars > 0) out.add("with sidecars");
  return [...out, lengthLabel(cmds.length)];
}

export interface GenerationStatistics {
  readonly samples: number;
  readonly seed: number;
  readonly maxCommands: number;
  /** Percentage of sampled sequences per class (0 when never reached), to 2 decimals. */
  readonly classes: Readonly<Record<GenerationClass, number>>;
  /** Percentage of sampled sequences per length bucket, to 2 decimals. */
  readonly lengths: Readonly<Record<string, number>>;
}

/**
 * The commands of a generated sequence, as a run executes them: fed through `fc.modelRun` to a target that only
 * records them, so a command whose precondition fails in the model (a vote with no proposal) is left out, as in
 * a real run.
 */
export function commandsOf(cmds: Iterable<fc.Command<HarnessModel, CommandTarget>>): CommandData[] {
  const seen: CommandData[] = [];
  fc.modelRun(() => ({ model: emptyModel(), real: { execute: (c) => void seen.push(c) } }), cmds);
  return seen;
}

/**
 * Samples `samples` runs of the run generator with `seed` (`fc.sample`, the same arbitrary and bias as
 * `fc.check`, so with a unit's seed these are the inputs of that unit's first runs) and counts the classes.
 */
export function generationStatistics(o: {
  readonly seed: number;
  readonly samples: number;
  readonly maxCommands: number;
}): GenerationStatistics {
  const counts = new Map<string, number>();
  for (const [sidecars, cmds] of fc.sample(runArbitrary(o.maxCommands), { seed: o.seed, numRuns: o.samples })) {
    const withSidecar = Object.values(sidecars).filter((v) => v !== undefined).length;
    for (const c of classifyCommands(commandsOf(cmds), withSidecar)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  const pct = (label: string) =>
    o.samples === 0 ? 0 : Math.round(((counts.get(label) ?? 0) * 10_000) / o.samples) / 100;
  const classes = Object.fromEntries(
    (Object.keys(GENERATION_CLASSES) as GenerationClass[]).map((c) => [c, pct(c)]),
  ) as Record<GenerationClass, number>;
  const lengths = Object.fromEntries(
    LENGTH_BUCKETS.map(([lo]) => lengthLabel(lo)).map((l) => [l.replace(/^length /, ""), pct(l)]),
  );
  return { samples: o.samples, seed: o.seed, maxCommands: o.maxCommands, classes, lengths };
}
