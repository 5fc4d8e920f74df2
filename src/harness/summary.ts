import { machineTransitions } from "../../models/coverage.js";
import type { CampaignResult, PropertyResult, Verdict } from "./campaign-result.js";
import { type CommandData, describe } from "./commands.js";
import { REGION_NAMES, REGIONS, type RegionName, regionPercentages } from "./regions.js";
import type { SharedPrefixOptions } from "./shared-prefix.js";

/**
 * `summary.json` of a check campaign (and the one line of `chainsim check --json`): plain JSON data, versioned by
 * `format`. The HTML report and CI read it; fields are only ever added.
 */
export interface CheckSummary {
  readonly format: "chainsim-check/1";
  readonly runId: string;
  readonly command: string;
  readonly startedAt: string;
  readonly seed: number;
  readonly commit: string;
  readonly options: {
    readonly properties: readonly string[];
    readonly runsPerProperty: number;
    readonly runsPerUnit: number;
    readonly shard: string;
    readonly unitsTotal: number;
    readonly unitsInShard: number;
    readonly timeLimitMs: number | null;
    readonly maxCommands: number;
    readonly faults: readonly string[];
    /** How runs shared their command prefixes (`--prefix-share`); absent when every run was independent. */
    readonly sharedPrefixes?: SharedPrefixOptions;
  };
  readonly verdict: Verdict;
  readonly exitCode: number;
  readonly runs: number;
  readonly failures: number;
  readonly commands: number;
  readonly wallMs: number;
  readonly runsPerS: number;
  readonly simulated: { readonly blocks: number; readonly chainMs: number; readonly chainMsPerWallMs: number };
  readonly properties: readonly PropertySummary[];
  readonly coverage: {
    readonly fired: number;
    readonly total: number;
    readonly ratio: number;
    readonly missing: readonly string[];
    /** Every transition of the model (document order) → times it fired in the campaign (0: never). */
    readonly counts: Readonly<Record<string, number>>;
  };
  readonly generation: null | {
    readonly samples: number;
    readonly seed: number;
    readonly classes: Readonly<Record<string, number>>;
    readonly lengths: Readonly<Record<string, number>>;
  };
  readonly regions: {
    readonly runs: number;
    readonly counts: Readonly<Record<RegionName, number>>;
    readonly percentages: Readonly<Record<RegionName, number>>;
    readonly descriptions: Readonly<Record<RegionName, string>>;
  };
  /** Extra sections (e.g. the scenario replay of `chainsim all`). */
  readonly [extra: string]: unknown;
}

export interface PropertySummary {
  readonly property: string;
  readonly text: string;
  readonly passed: boolean;
  readonly runs: number;
  readonly failures: number;
  readonly commands: number;
  readonly wallMs: number;
  readonly runsPerS: number;
  readonly interrupted: boolean;
  readonly units: readonly {
    readonly index: number;
    readonly block: number;
    readonly seed: number;
    readonly numRuns: number;
    readonly status: string;
    readonly runs: number;
    readonly wallMs: number;
  }[];
  readonly counterexample?: {
    readonly violation: string;
    readonly commands: readonly string[];
    readonly commandData: readonly CommandData[];
    readonly sidecars: Readonly<Record<string, number>>;
    readonly seed: number;
    readonly path: string;
    readonly numShrinks: number;
    readonly file: string | null;
  };
  readonly error?: string;
  readonly regions: Readonly<Record<RegionName, number>>;
}

/** Exit code of a verdict: 0 passed, 1 a property failed, 3 the harness crashed. */
export const verdictExitCode = (v: Verdict): number => (v === "passed" ? 0 : v === "failed" ? 1 : 3);

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The summary of campaign `r`, with the run's identity and the regression files written per property. */
export function checkSummary(
  r: CampaignResult,
  o: {
    readonly runId: string;
    readonly command: string;
    readonly startedAt: string;
    readonly commit: string;
    readonly regressionFiles: ReadonlyMap<string, string>;
  },
): CheckSummary {
  const o2 = r.options;
  return {
    format: "chainsim-check/1",
    runId: o.runId,
    command: o.command,
    startedAt: o.startedAt,
    seed: o2.seed,
    commit: o.commit,
    options: {
      properties: o2.properties,
      runsPerProperty: o2.runsPerProperty,
      runsPerUnit: o2.runsPerUnit,
      shard: `${o2.shard.index}/${o2.shard.count}`,
      unitsTotal: r.unitsTotal,
      unitsInShard: r.unitsInShard,
      timeLimitMs: o2.timeLimitMs,
      maxCommands: o2.maxCommands,
      faults: o2.faults,
      ...(o2.sharedPrefixes === undefined ? {} : { sharedPrefixes: o2.sharedPrefixes }),
    },
    verdict: r.verdict,
    exitCode: verdictExitCode(r.verdict),
    runs: r.runs,
    failures: r.failures,
    commands: r.commands,
    wallMs: round(r.wallMs, 1),
    runsPerS: r.runsPerS,
    simulated: {
      blocks: r.regions.simHeights,
      chainMs: r.regions.simChainMs,
      chainMsPerWallMs: r.wallMs <= 0 ? 0 : round(r.regions.simChainMs / r.wallMs, 1),
    },
    properties: r.properties.map((p) => propertySummary(p, o.regressionFiles.get(p.property) ?? null)),
    coverage: {
      fired: r.coverage.covered.length,
      total: r.coverage.total,
      ratio: round(r.coverage.ratio, 4),
      missing: r.coverage.missing,
      counts: Object.fromEntries(machineTransitions().map((t) => [t.id, r.transitionCounts[t.id] ?? 0])),
    },
    generation:
      r.generation === null
        ? null
        : {
            samples: r.generation.samples,
            seed: r.generation.seed,
            classes: r.generation.classes,
            lengths: r.generation.lengths,
          },
    regions: {
      runs: r.regions.runs,
      counts: r.regions.hits,
      percentages: regionPercentages(r.regions),
      descriptions: Object.fromEntries(REGION_NAMES.map((n) => [n, REGIONS[n]])) as Record<RegionName, string>,
    },
  };
}

/** One property's part of the summary; `file`: where its counterexample was written as a regression, if it was. */
function propertySummary(p: PropertyResult, file: string | null): PropertySummary {
  const cx = p.counterexample;
  return {
    property: p.property,
    text: p.text,
    passed: p.passed,
    runs: p.runs,
    failures: p.failures,
    commands: p.commands,
    wallMs: round(p.wallMs, 1),
    runsPerS: p.runsPerS,
    interrupted: p.interrupted,
    units: p.units.map((u) => ({
      index: u.unit.index,
      block: u.unit.block,
      seed: u.unit.seed,
      numRuns: u.unit.numRuns,
      status: u.status,
      runs: u.runs,
      wallMs: round(u.wallMs, 1),
    })),
    ...(cx === undefined
      ? {}
      : {
          counterexample: {
            violation: cx.violation,
            commands: cx.commands.map(describe),
            commandData: cx.commands,
            sidecars: { ...(cx.world.sidecars ?? {}) } as Record<string, number>,
            seed: cx.seed,
            path: cx.path,
            numShrinks: cx.numShrinks,
            file,
          },
        }),
    ...(p.error === undefined ? {} : { error: p.error }),
    regions: regionPercentages(p.regions),
  };
}
