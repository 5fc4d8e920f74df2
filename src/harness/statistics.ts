import fc from "fast-check";
import { type CommandData, commandArbitraries, HarnessCommand } from "./commands.js";
import { sidecarArb } from "./run-property.js";

/**
 * Generation statistics: how often the command generator of `runProperty` reaches the interesting region, measured
 * with `fc.statistics` over the same `fc.commands(...)` arbitrary (same command list, `maxCommands`, `size: "+1"`)
 * and a classify function over the generated command data. Generation only: nothing runs, so preconditions (a vote
 * needs a proposal) are not applied.
 */
export const GENERATION_CLASSES = {
  "plan near decision height": "an upgrade (proposal or authority) with |offset| <= 2 from the decision height",
  "early swap":
    "after an upgrade was proposed or scheduled, a swap to a binary with a handler before any advance-to-plan",
  "cancel proposal": "a cancel proposal (propose-cancel)",
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
    switch (c.t) {
      case "propose-upgrade":
      case "emergency-upgrade":
        upgradeSeen = true;
        if (Math.abs(c.offset) <= 2) out.add("plan near decision height");
        break;
      case "propose-cancel":
        out.add("cancel proposal");
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
  /** Percentage of sampled sequences per class (0 when never reached). */
  readonly classes: Readonly<Record<GenerationClass, number>>;
  /** Percentage of sampled sequences per length bucket. */
  readonly lengths: Readonly<Record<string, number>>;
  /** The lines fc.statistics printed (captured from its logger). */
  readonly lines: readonly string[];
}

/** The generator of one run as `runProperty` builds it: sidecar delays and the command sequence (same order). */
export function runArbitrary(maxCommands: number) {
  const arbs = commandArbitraries().map((a) => a.map((d) => new HarnessCommand(d, [])));
  return fc.tuple(sidecarArb, fc.commands(arbs, { maxCommands, size: "+1" }));
}

/** Command data of a generated `fc.commands` value (its items are fast-check wrappers around HarnessCommand). */
export function commandDataOf(cmds: Iterable<unknown>): CommandData[] {
  const out: CommandData[] = [];
  for (const w of cmds) {
    const cmd = (w as { cmd?: unknown }).cmd ?? w;
    if (cmd instanceof HarnessCommand) out.push(cmd.data);
  }
  return out;
}

const LINE = /^(.*?)\.{2,}(\d+(?:\.\d+)?)%$/;

/** Parses fc.statistics' lines (`label......12.34%`) into percentages. */
export function parseStatisticsLines(lines: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const l of lines) {
    const m = LINE.exec(l);
    if (m !== null) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

/**
 * Samples `samples` runs of the run generator with `seed` and reports the classes' percentages. fast-check samples
 * with the same bias as `fc.check`, so with a unit's seed these are the inputs of that unit's first runs.
 */
export function generationStatistics(o: {
  readonly seed: number;
  readonly samples: number;
  readonly maxCommands: number;
}): GenerationStatistics {
  const lines: string[] = [];
  const sidecarCount = (s: Readonly<Record<string, number | undefined>>) =>
    Object.values(s).filter((v) => v !== undefined).length;
  fc.statistics(
    runArbitrary(o.maxCommands),
    ([sidecars, cmds]) => classifyCommands(commandDataOf(cmds), sidecarCount(sidecars)),
    {
      seed: o.seed,
      numRuns: o.samples,
      logger: (l) => lines.push(l),
    },
  );
  const pct = parseStatisticsLines(lines);
  const classes = Object.fromEntries(
    (Object.keys(GENERATION_CLASSES) as GenerationClass[]).map((c) => [c, pct.get(c) ?? 0]),
  ) as Record<GenerationClass, number>;
  const lengths = Object.fromEntries(
    LENGTH_BUCKETS.map(([lo]) => lengthLabel(lo)).map((l) => [l.replace(/^length /, ""), pct.get(l) ?? 0]),
  );
  return { samples: o.samples, seed: o.seed, maxCommands: o.maxCommands, classes, lengths, lines };
}
