import fc from "fast-check";
import { predict } from "../../models/oracle.js";
import type { Fault } from "../faults/index.js";
import type { ScenarioDocument } from "../scenario/schema.js";
import {
  type CommandData,
  type CommandTarget,
  describe,
  emptyModel,
  HarnessCommand,
  type HarnessModel,
} from "./commands.js";
import { commandArbitraries } from "./commands-arbitraries.js";
import { type Property, Violation } from "./property.js";
import { Session } from "./session.js";
import {
  driveSession,
  familySeed,
  pinnedConstant,
  runExtension,
  SharedPrefixArbitrary,
  type SharedPrefixOptions,
  type SharedRun,
} from "./shared-prefix.js";
import {
  type GovVariant,
  PLAN_NAMES,
  VALIDATORS,
  type ValidatorName,
  type WorldOptions,
  type WorldVariant,
} from "./world.js";

/**
 * One property checked by fast-check over generated runs; a pure function of these options (the campaign's unit
 * of work). There is no fast-check replay option: a failure is replayed whole as the scenario file its
 * counterexample writes (`chainsim run scenarios/regressions/<file>.yaml`), which needs neither fast-check nor
 * the generator that found it, and survives changes to both.
 */
export interface PropertyRunOptions {
  readonly property: Property;
  readonly seed: number;
  readonly numRuns: number;
  readonly faults?: readonly Fault[];
  readonly maxCommands?: number;
  /** Stop generating new runs after this long (ms); runs already passed count. */
  readonly timeLimitMs?: number;
  /** Report the first failing run as it is, without shrinking it. */
  readonly endOnFailure?: boolean;
  /** Called after each run (for progress bars); `failed` once the property failed. */
  readonly onRun?: () => void;
  /**
   * Called with every session a run drove (generated runs, then shrink runs), and whether it passed: campaigns
   * count the regions runs reach (src/harness/regions.ts). Sessions that failed to start are not reported.
   */
  readonly onSession?: (session: Session, passed: boolean) => void;
  /**
   * Build every session's chain fresh instead of forking its world's ready chain: the reference the harness's
   * shortcuts must equal (harness-equivalence.test.ts). Slower; the same outcome.
   */
  readonly freshChains?: boolean;
  /**
   * Generate the runs as extensions of shared prefixes (shared-prefix.ts): the families are the campaign's
   * (`campaignSeed`), shared by every unit of the property. Off when absent: every run independent.
   */
  readonly sharedPrefixes?: SharedPrefixOptions & { readonly campaignSeed: number };
}

export interface Counterexample {
  readonly property: string;
  readonly violation: string;
  readonly world: WorldOptions;
  readonly commands: readonly CommandData[];
  /** The shrunk run as a scenario: steps, a `run` that stops at the failure, expectations the model predicts. */
  readonly document: ScenarioDocument;
  readonly seed: number;
  readonly path: string;
  readonly numShrinks: number;
}

export interface PropertyOutcome {
  readonly property: string;
  readonly runs: number;
  readonly passed: boolean;
  readonly interrupted: boolean;
  readonly counterexample?: Counterexample;
  /** An error that is not a property violation (a harness bug). */
  readonly error?: string;
  /** Oracle transition ids fired over all runs (coverage). */
  readonly fired: ReadonlySet<string>;
  readonly commandsRun: number;
}

/** Sidecar delay per validator (or none): the first part of every run's input. */
export const sidecarArb = fc.record(
  Object.fromEntries(
    VALIDATORS.map((v) => [v, fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: undefined, freq: 2 })]),
  ) as Record<ValidatorName, fc.Arbitrary<number | undefined>>,
);

/**
 * The gov params of a run: the reference defaults in three runs of five; otherwise one of two variants that between
 * them flip every deposit rule the defaults fix (burns on quorum, veto and drop; the cancel charge and where it goes),
 * so that each rule decides some runs both ways. Two variants rather than every combination: each variant is a world
 * with its own genesis and ready chain.
 */
export const GOV_VARIANTS: readonly GovVariant[] = [
  {
    burnVoteQuorum: true,
    burnVoteVeto: false,
    burnProposalDepositPrevote: true,
    proposalCancelRatio: "1",
    proposalCancelDest: "community-pool",
  },
  {
    burnVoteQuorum: true,
    burnVoteVeto: true,
    burnProposalDepositPrevote: false,
    proposalCancelRatio: "0",
    proposalCancelDest: "burn",
  },
];

export const govArb: fc.Arbitrary<GovVariant | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom(...GOV_VARIANTS) },
);

export type RunInput = [
  Record<ValidatorName, number | undefined>,
  Iterable<fc.Command<HarnessModel, CommandTarget>>,
  GovVariant | undefined,
];

const runArbitraries = new Map<number, fc.Arbitrary<RunInput>>();

/**
 * The generator of one run: sidecar delays, then the command sequence. Built once per `maxCommands` and shared by
 * every property run and by the generation statistics (statistics.ts), so both draw the same inputs for a seed.
 */
export function runArbitrary(maxCommands: number): fc.Arbitrary<RunInput> {
  let arb = runArbitraries.get(maxCommands);
  if (arb === undefined) {
    const commands = commandArbitraries().map((a) => a.map((d) => new HarnessCommand(d)));
    arb = fc.tuple(sidecarArb, fc.commands(commands, { maxCommands, size: "+1" }), govArb);
    runArbitraries.set(maxCommands, arb);
  }
  return arb;
}

/**
 * Runs one session: the commands, the `always` properties after each, and the `end` properties in order. Throws the
 * first failure once every command has run in the model (the commands after it are not executed: sessionTarget).
 */
export function runSession(
  world: WorldOptions,
  commands: Iterable<fc.Command<HarnessModel, CommandTarget>>,
  properties: readonly Property[],
  observe?: (session: Session, model: HarnessModel, passed: boolean) => void,
  sessionOptions: ConstructorParameters<typeof Session>[1] = {},
): { session: Session; model: HarnessModel } {
  return driveSession(new Session(world, sessionOptions), emptyModel(), commands, properties, observe);
}

const cleanSidecars = (o: Record<string, number | undefined>): Partial<Record<ValidatorName, number>> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<Record<ValidatorName, number>>;

/**
 * The generator of one run of `property`: `runArbitrary`'s input and, for a property checked in several worlds, the
 * world drawn last (a one-world property's runs draw exactly `runArbitrary`'s).
 */
export function propertyRunArbitrary(
  property: Property,
  maxCommands: number,
): fc.Arbitrary<readonly [RunInput, WorldVariant | undefined]> {
  const worlds = property.worlds;
  if (worlds === undefined) return runArbitrary(maxCommands).map((input) => [input, undefined] as const);
  if (worlds.length === 1) return runArbitrary(maxCommands).map((input) => [input, worlds[0]] as const);
  return fc.tuple(runArbitrary(maxCommands), fc.constantFrom(...worlds));
}

/** A run's world part when it extends a prefix: sidecars, gov params, world variant (shared-prefix.ts). */
type RunWorld = readonly [Record<ValidatorName, number | undefined>, GovVariant | undefined, WorldVariant | undefined];
type Run = SharedRun<readonly [RunInput, WorldVariant | undefined], RunWorld>;

/** The generator of `property`'s runs with shared prefixes (or, without the option, its independent runs). */
function runsOf(o: PropertyRunOptions): fc.Arbitrary<Run> {
  const maxCommands = o.maxCommands ?? 30;
  const base = propertyRunArbitrary(o.property, maxCommands);
  const shared = o.sharedPrefixes;
  if (shared === undefined) return base.map((input): Run => ({ kind: "independent", input }));
  const worlds = o.property.worlds;
  const variant = worlds === undefined ? fc.constant(undefined) : fc.constantFrom(...worlds);
  const commands = commandArbitraries().map((a) => a.map((d) => new HarnessCommand(d)));
  const prefix = Math.min(shared.prefixCommands, maxCommands - 1);
  return new SharedPrefixArbitrary(
    base,
    fc.tuple(sidecarArb, govArb, variant),
    fc.commands(commands, { maxCommands: prefix, size: "max" }),
    fc.commands(commands, { maxCommands: Math.max(1, maxCommands - prefix), size: "+1" }),
    {
      ...shared,
      seedOf: (k) => familySeed(shared.campaignSeed, o.property.name, k),
      // Stratified: family k of a property checked in several world variants is in variant k mod n, so every
      // variant has a family when there are at least as many families as variants.
      ...(worlds === undefined || worlds.length < 2
        ? {}
        : { familyWorld: (k: number) => fc.tuple(sidecarArb, govArb, pinnedConstant(worlds, k % worlds.length)) }),
    },
  );
}

/** Runs one generated run: whole on a session of its own, or (an extension of a family) forked from its prefix. */
function runRun(
  o: PropertyRunOptions,
  run: Run,
  observe: (world: WorldOptions) => (session: Session, model: HarnessModel, passed: boolean) => void,
): void {
  const sessionOptions = o.freshChains === true ? { readyChain: false } : {};
  if (run.kind === "independent") {
    const [[sidecars, cmds, gov], variant] = run.input;
    const world = worldOf(o, o.seed, variant, sidecars, gov);
    runSession(world, cmds, [o.property], observe(world), sessionOptions);
    return;
  }
  const [[sidecars, gov, variant], prefix, extension] = run.parts;
  const world = worldOf(o, run.seed, variant, sidecars, gov);
  if (run.kind === "extension" && o.freshChains !== true) {
    const key = JSON.stringify([world, run.family, o.sharedPrefixes, o.maxCommands ?? 30]);
    runExtension(key, world, run.parts, o.property, observe(world));
    return;
  }
  const whole = (function* () {
    yield* prefix;
    yield* extension;
  })();
  runSession(world, whole, [o.property], observe(world), sessionOptions);
}

/** The world of one run: its world variant, the run's sidecars and gov params, and the planted faults. */
const worldOf = (
  o: PropertyRunOptions,
  seed: number,
  variant: WorldVariant | undefined,
  sidecars: Record<string, number | undefined>,
  gov: GovVariant | undefined,
): WorldOptions => ({
  seed,
  ...(variant === undefined || variant === "standard" ? {} : { variant }),
  sidecars: cleanSidecars(sidecars),
  ...(gov === undefined ? {} : { gov }),
  ...(o.faults === undefined ? {} : { faults: o.faults }),
});

/**
 * Checks one property with fast-check; on failure returns the shrunk counterexample as a scenario. The
 * counterexample is the last run that failed (fast-check reports the last failing shrink), so its session, and the
 * model's log of the commands that ran before the violation, are kept from that run rather than re-run.
 */
export function runProperty(o: PropertyRunOptions): PropertyOutcome {
  const fired = new Set<string>();
  let commandsRun = 0;
  let lastFailure:
    | { readonly world: WorldOptions; readonly session: Session; readonly model: HarnessModel }
    | undefined;
  const prop = fc.property(runsOf(o), (run) => {
    try {
      runRun(o, run, (world) => (session, model, passed) => {
        for (const id of session.fired) fired.add(id);
        commandsRun += model.log.length;
        if (!passed) lastFailure = { world, session, model };
        o.onSession?.(session, passed);
      });
    } finally {
      o.onRun?.();
    }
  });
  const details = fc.check(prop, {
    seed: o.seed,
    numRuns: o.numRuns,
    ...(o.endOnFailure === true ? { endOnFailure: true } : {}),
    ...(o.timeLimitMs === undefined ? {} : { interruptAfterTimeLimit: o.timeLimitMs }),
  });
  const base = {
    property: o.property.name,
    runs: details.numRuns,
    fired,
    commandsRun,
    interrupted: details.interrupted,
  };
  if (!details.failed) return { ...base, passed: true };
  if (outOfTimeBeforeFirstRun(details)) return { ...base, runs: 0, passed: true };
  const err = details.errorInstance;
  if (!(err instanceof Violation) || lastFailure === undefined) {
    return { ...base, passed: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  const { world, session, model } = lastFailure;
  const path = details.counterexamplePath ?? "";
  return {
    ...base,
    passed: false,
    counterexample: {
      property: o.property.name,
      violation: err.detail,
      world,
      commands: model.log,
      document: counterexampleDocument(o.property, session, model.log, err.detail, o.seed, path),
      seed: o.seed,
      path,
      numShrinks: details.numShrinks,
    },
  };
}

/**
 * fast-check reports a check that its time limit interrupted before a single run passed as failed, without an error
 * or a counterexample. That is a unit out of time (interrupted, no runs), not a crash of the harness: a slow machine
 * or a slow mutant must not turn it into a "crashed" verdict.
 */
export const outOfTimeBeforeFirstRun = (d: {
  readonly failed: boolean;
  readonly interrupted: boolean;
  readonly counterexamplePath: string | null;
  readonly errorInstance: unknown;
}): boolean => d.failed && d.interrupted && d.counterexamplePath === null && d.errorInstance === null;

/**
 * The failing session written as a scenario: the world, one step per command (and the steps an `end` check drove,
 * such as the liveness heal), a `run` that stops where the failure was seen, and the expectations the ORACLE
 * predicts there. With the planted fault (kept in `options.faults`) the chain deviates from those expectations,
 * so `chainsim run` replays the failure.
 */
function counterexampleDocument(
  property: Property,
  session: Session,
  commands: readonly CommandData[],
  violation: string,
  seed: number,
  path: string,
): ScenarioDocument {
  const m = predict(session.oracle.snapshot);
  const expect: NonNullable<ScenarioDocument["expect"]> = {
    height: m.height,
    halted: m.stalled ? { height: m.height + 1 } : false,
    plan: m.plan === null ? null : { name: m.plan.name, height: Number(m.plan.height), info: m.plan.info },
    applied: {
      ...Object.fromEntries(
        [...new Set([...PLAN_NAMES, ...Object.keys(m.applied)])].map((n) => [n, m.applied[n] ?? 0]),
      ),
    },
    handlerRuns: {
      ...Object.fromEntries(
        [...new Set([...PLAN_NAMES, ...Object.keys(m.handlerRuns)])].map((n) => [n, m.handlerRuns[n] ?? 0]),
      ),
    },
    protocolVersion: m.protocolVersion,
    moduleVersions: { ...m.moduleVersions },
    halts: m.halts.map((h) => ({ node: h.node, height: h.height, kind: h.kind, message: h.message })),
    upgradeInfo: Object.fromEntries(
      Object.entries(m.upgradeInfo).map(([n, u]) => [
        n,
        u === null ? null : { name: u.name, height: u.height, info: u.info },
      ]),
    ),
    nodes: Object.fromEntries(Object.entries(m.nodes).map(([n, v]) => [n, { binary: v.binary, status: v.status }])),
  };
  const doc = session.document({ expect });
  return {
    ...doc,
    name: `${property.name}-counterexample`,
    description: [
      `Counterexample of "${property.name}" found by chainsim check (fast-check seed ${seed}, path ${JSON.stringify(path)}).`,
      `Violation: ${violation}`,
      `Commands: ${commands.map(describe).join("; ")}`,
      "The expectations are the oracle's predictions; a chain that violates the property fails them.",
    ].join("\n"),
  };
}
