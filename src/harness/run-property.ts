import fc from "fast-check";
import { predict } from "../../models/oracle.js";
import type { Fault } from "../app/faults.js";
import type { ScenarioDocument } from "../scenario/schema.js";
import {
  type CommandData,
  commandArbitraries,
  describe,
  HarnessCommand,
  type HarnessModel,
  runCommand,
} from "./commands.js";
import { checkProperties, type Property, Violation } from "./property.js";
import { Session } from "./session.js";
import { VALIDATORS, type ValidatorName, type WorldOptions } from "./world.js";

export interface PropertyRunOptions {
  readonly property: Property;
  readonly seed: number;
  readonly numRuns: number;
  readonly faults?: readonly Fault[];
  readonly maxCommands?: number;
  /** Replay a recorded failure: fast-check's path (with the same seed). */
  readonly path?: string;
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

/** Runs one session: the commands, the `always` properties after each, and the `end` properties in order. */
export function runSession(
  world: WorldOptions,
  commands: Iterable<fc.Command<HarnessModel, Session>>,
  properties: readonly Property[],
  fired?: Set<string>,
  model: HarnessModel = { proposals: [], proposalCount: 0, log: [] },
  observe?: (session: Session, passed: boolean) => void,
): { session: Session; model: HarnessModel } {
  const session = new Session(world);
  let passed = false;
  try {
    fc.modelRun(() => ({ model, real: session }), commands);
    checkProperties(session, properties, "end");
    passed = true;
  } finally {
    if (fired !== undefined) for (const id of session.fired) fired.add(id);
    observe?.(session, passed);
  }
  return { session, model };
}

const cleanSidecars = (o: Record<string, number | undefined>): Partial<Record<ValidatorName, number>> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<Record<ValidatorName, number>>;

/** The world of one run: the property's world variant, the run's sidecars and the planted faults. */
const worldOf = (o: PropertyRunOptions, sidecars: Record<string, number | undefined>): WorldOptions => ({
  seed: o.seed,
  ...(o.property.world === undefined ? {} : { variant: o.property.world }),
  sidecars: cleanSidecars(sidecars),
  ...(o.faults === undefined ? {} : { faults: o.faults }),
});

/** Checks one property with fast-check; on failure returns the shrunk counterexample as a scenario. */
export function runProperty(o: PropertyRunOptions): PropertyOutcome {
  const properties = [o.property];
  const fired = new Set<string>();
  let commandsRun = 0;
  const arbs = commandArbitraries().map((a) => a.map((d) => new HarnessCommand(d, properties)));
  const prop = fc.property(
    sidecarArb,
    fc.commands(arbs, { maxCommands: o.maxCommands ?? 30, size: "+1" }),
    (sidecars, cmds) => {
      const world = worldOf(o, sidecars);
      try {
        const { model } = runSession(world, cmds, properties, fired, undefined, o.onSession);
        commandsRun += model.log.length;
      } finally {
        o.onRun?.();
      }
    },
  );
  const details = fc.check(prop, {
    seed: o.seed,
    numRuns: o.numRuns,
    ...(o.path === undefined ? {} : { path: o.path, endOnFailure: true }),
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
  const err = details.errorInstance;
  if (!(err instanceof Violation)) {
    return { ...base, passed: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  const [sidecars, cmds] = details.counterexample!;
  const world = worldOf(o, sidecars);
  // Re-run the shrunk case to learn which commands actually ran before the violation.
  const replay: HarnessModel = { proposals: [], proposalCount: 0, log: [] };
  try {
    runSession(world, cmds, properties, undefined, replay);
  } catch {
    // expected: the violation
  }
  const commands = replay.log;
  return {
    ...base,
    passed: false,
    counterexample: {
      property: o.property.name,
      violation: err.detail,
      world,
      commands,
      document: counterexampleDocument(
        o.property,
        world,
        commands,
        err.detail,
        o.seed,
        details.counterexamplePath ?? "",
      ),
      seed: o.seed,
      path: details.counterexamplePath ?? "",
      numShrinks: details.numShrinks,
    },
  };
}

/**
 * Re-runs the shrunk commands (no property checks) and writes them as a scenario: the world, one step per
 * command, a `run` that stops where the failure was seen, and the expectations the ORACLE predicts there. With
 * the planted fault (kept in `options.faults`) the chain deviates from those expectations, so `chainsim run`
 * replays the failure.
 */
export function counterexampleDocument(
  property: Property,
  world: WorldOptions,
  commands: readonly CommandData[],
  violation: string,
  seed: number,
  path: string,
): ScenarioDocument {
  const session = new Session(world);
  const model: HarnessModel = { proposals: [], proposalCount: 0, log: [] };
  for (const c of commands) runCommand(session, model, c);
  // An `end` check may drive the session (the liveness heal): its steps belong to the counterexample.
  if (property.kind === "end") property.check(session);
  const m = predict(session.oracle.snapshot);
  const expect: NonNullable<ScenarioDocument["expect"]> = {
    height: m.height,
    halted: m.stalled ? { height: m.height + 1 } : false,
    plan: m.plan === null ? null : { name: m.plan.name, height: Number(m.plan.height), info: m.plan.info },
    applied: {
      ...Object.fromEntries([...new Set(["v2", "v3", ...Object.keys(m.applied)])].map((n) => [n, m.applied[n] ?? 0])),
    },
    handlerRuns: {
      ...Object.fromEntries(
        [...new Set(["v2", "v3", ...Object.keys(m.handlerRuns)])].map((n) => [n, m.handlerRuns[n] ?? 0]),
      ),
    },
    protocolVersion: m.protocolVersion,
    halts: m.halts.map((h) => ({ node: h.node, height: h.height, kind: h.kind, message: h.message })),
    upgradeInfo: Object.fromEntries(
      Object.entries(m.upgradeInfo).map(([n, u]) => [
        n,
        u === null ? null : { name: u.name, height: u.height, info: u.info },
      ]),
    ),
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
