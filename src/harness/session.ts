import { createOracle, type Oracle } from "../../models/oracle.js";
import type { OracleInput, UpgradeMsg } from "../../models/types.js";
import type { UpgradeMessage } from "../app/types.js";
import type { StepResult } from "../chain/actions.js";
import { addressOfName, govAuthority } from "../core/address.js";
import { BoundedCache } from "../core/bounded-cache.js";
import type { Result } from "../core/errors.js";
import { formatRfc3339 } from "../core/go/time.js";
import { refill } from "../core/refill.js";
import type { Scenario } from "../scenario/model.js";
import type { ScenarioDocument, StepDocument } from "../scenario/schema.js";
import {
  buildSimulation,
  forkSimulation,
  type Simulation,
  type SimulationSnapshot,
  scheduleStep,
  snapshotSimulation,
} from "../scenario/simulate.js";
import { stepDocumentOf, type WritableAction } from "../scenario/step-document.js";
import type { Intent } from "./intent.js";
import { type BlockWithPlan, PlanIndex } from "./plan-index.js";
import { type HarnessMsg, type RecordsImage, SessionRecords } from "./session-records.js";
import type { SessionView } from "./session-view.js";
import { type WorldOptions, worldDocument } from "./world.js";
import { parsedDocument, parsedWorld, readyChain, worldOracle } from "./world-cache.js";

// commands.ts names the message type from here.
export type { HarnessMsg } from "./session-records.js";

/** An engine message in the oracle's form (heights as the harness writes them: safe integers). */
const oracleMsgOf = (m: UpgradeMessage): UpgradeMsg =>
  m.kind === "softwareUpgrade"
    ? { type: "softwareUpgrade", plan: { name: m.plan.name, height: Number(m.plan.height), info: m.plan.info } }
    : { type: "cancelUpgrade" };

/** An upgrade message of `authority` (the gov authority unless an account signs it itself). */
const toEngineMsg = (m: HarnessMsg, authority: string): UpgradeMessage =>
  m.kind === "softwareUpgrade"
    ? {
        kind: "softwareUpgrade",
        authority,
        plan: { name: m.name, height: BigInt(m.height), info: m.info },
      }
    : { kind: "cancelUpgrade", authority };

/** The intent an action carries for the model (none for proposals, deposits and votes: gov-follows-tally models those). */
function intentOf(a: WritableAction): Intent | undefined {
  switch (a.kind) {
    case "swapBinary":
      return { kind: "node", action: a.kind, node: a.node, binary: a.binary, skip: a.skipUpgradeHeights };
    case "restart":
      return { kind: "node", action: a.kind, node: a.node, binary: undefined, skip: a.skipUpgradeHeights };
    case "stop":
      return { kind: "node", action: a.kind, node: a.node, binary: undefined, skip: undefined };
    case "authorityExec":
      return { kind: "authority", msgs: a.messages.map(oracleMsgOf) };
    default:
      return undefined;
  }
}

/** Initial oracles of the scenario-document sessions (the coverage world), memoised by their input. */
const oracleCache = new BoundedCache<string, Oracle>(64);

/** Oracle snapshots are immutable, so one initial oracle serves every session of the same world. */
const initialOracle = (input: OracleInput): Oracle =>
  oracleCache.getOrCompute(JSON.stringify(input), () => createOracle(input));

/** A session frozen between commands (`Session.image`): plain data but for the property states' keys. */
export interface SessionImage {
  readonly doc: ScenarioDocument;
  readonly scenario: Scenario;
  readonly sim: SimulationSnapshot;
  readonly records: RecordsImage;
  readonly steps: readonly StepDocument[];
  readonly expedited: readonly string[];
  readonly stepIndex: number;
  readonly plans: PlanIndex;
  readonly propertyStates: readonly (readonly [object, unknown])[];
}

/**
 * What a session starts from: the property world (`WorldOptions`), any scenario document with the oracle's view of
 * it (`{doc, oracleInput}`, e.g. the coverage world), or an image of another session (`{image}`: a fork of it).
 */
type SessionSource =
  | WorldOptions
  | { readonly doc: ScenarioDocument; readonly oracleInput: OracleInput }
  | { readonly image: SessionImage };

/** The chain, oracle, document and scenario a session of `o` starts with; `forked` when the chain is a fork. */
function startOf(o: SessionSource, options: { readonly readyChain?: boolean }) {
  const engine = { engine: { keepTrace: true } };
  if ("image" in o) {
    const { scenario, doc, sim, records } = o.image;
    return { sim: valid(forkSimulation(scenario, sim, engine)), oracle: records.oracle, doc, scenario, forked: true };
  }
  if ("doc" in o) {
    const scenario = parsedDocument(o.doc);
    const sim = valid(buildSimulation(scenario, engine));
    return { sim, oracle: initialOracle(o.oracleInput), doc: o.doc, scenario, forked: false };
  }
  const scenario = parsedWorld(o);
  const forked = options.readyChain !== false;
  const sim = valid(
    forked ? forkSimulation(scenario, readyChain(o, scenario), engine) : buildSimulation(scenario, engine),
  );
  return { sim, oracle: worldOracle(o), doc: worldDocument(o), scenario, forked };
}

const valid = (r: Result<Simulation, string>): Simulation => {
  if (!r.ok) throw new Error(`world is invalid: ${r.error}`);
  return r.value;
};

/**
 * A property-test session: the real chain (the engine over the real keeper) and the oracle, driven by steps the
 * harness schedules exactly as a scenario file would. Every step is recorded as a scenario step, so a session is
 * always a scenario: `document()` returns it, and replaying it with `chainsim run` reproduces the same trace. What
 * the chain did is followed and recorded by the base class (session-records.ts); properties read it through the
 * read-only `SessionView`, and the per-run state of each property lives here (`stateOf`), made by its `init`.
 *
 * Replay contract: a step is scheduled `at: <next height>` while the chain is live, or `at: {time: now + 1 ms}`
 * while it is stalled, and every advance ends with all events at or before `now` processed. Then scheduling steps
 * one by one as the run goes gives the same trajectory as scheduling them all up front.
 */
export class Session extends SessionRecords implements SessionView {
  readonly doc: ScenarioDocument;
  readonly scenario: Scenario;
  readonly steps: StepDocument[] = [];
  /** Labels of the proposals submitted as expedited. */
  readonly expedited = new Set<string>();
  #stepIndex = 0;
  #plans = new PlanIndex();
  /** Each property's state for this run, by the property (its `init` made it on its first check). */
  readonly #propertyStates = new Map<object, unknown>();

  /**
   * A session over the property world (`WorldOptions`), or over any scenario document with the oracle's view of it
   * (`{doc, oracleInput}`, e.g. the coverage world), or a fork of another session (`{image}`, see `image()`).
   * `readyChain: false` builds the property world's chain fresh instead of forking its ready chain (the equivalence
   * test's reference); the coverage world (`{doc, oracleInput}`) is always built fresh.
   */
  constructor(o: SessionSource, options: { readonly readyChain?: boolean } = {}) {
    const start = startOf(o, options);
    super(start.sim, start.oracle);
    this.doc = start.doc;
    this.scenario = start.scenario;
    if ("image" in o) this.#restore(o.image);
    // The world is a chain that started on its genesis binary: block 1 commits before any command (a ready chain
    // has committed it; the oracle follows its trace).
    else if (start.forked) this.sync();
    else this.advanceBlocks(1);
  }

  /**
   * The session as it stands, as an image from which `new Session({ image })` makes forks: each continues exactly as
   * this session would (the engine's snapshot, the records, the steps and every property's state for this run), and
   * none sees what another (or this session) does later. Between commands only.
   */
  image(): SessionImage {
    return {
      doc: this.doc,
      scenario: this.scenario,
      sim: snapshotSimulation(this.sim),
      records: this.recordsImage(),
      steps: [...this.steps],
      expedited: [...this.expedited],
      stepIndex: this.#stepIndex,
      plans: this.#plans.clone(),
      propertyStates: [...this.#propertyStates].map(([p, state]) => [p, structuredClone(state)] as const),
    };
  }

  #restore(img: SessionImage): void {
    this.restoreRecords(img.records);
    refill(this.steps, img.steps);
    refill(this.expedited, img.expedited);
    this.#stepIndex = img.stepIndex;
    this.#plans = img.plans.clone();
    refill(
      this.#propertyStates,
      img.propertyStates.map(([p, state]) => [p, structuredClone(state)] as const),
    );
  }

  /**
   * The state of `property` for this run: made by its `init` on the first call (undefined without one), then the
   * same value every time (property.ts). Keyed by the property itself, so two properties never share a state.
   */
  stateOf<S>(property: { readonly init?: (view: SessionView) => S }): S {
    if (!this.#propertyStates.has(property)) this.#propertyStates.set(property, property.init?.(this));
    return this.#propertyStates.get(property) as S;
  }

  blocksWithPlan(): readonly BlockWithPlan[] {
    return this.#plans.extend(this.blocks);
  }

  get height(): number {
    return this.sim.height;
  }

  /**
   * Schedules one step at the next opportunity, runs the chain until it has run, and syncs the oracle. The step's
   * scenario form (`steps`, `document()`) is derived from the action (scenario/step-document.ts).
   */
  act(action: WritableAction, label?: string): StepResult | undefined {
    return this.actTogether([{ action, ...(label === undefined ? {} : { label }) }])[0];
  }

  /**
   * Schedules the steps together at the next opportunity, in order (one block runs their transactions in that
   * order), runs the chain until they have run, and syncs the oracle. Their results, in the same order.
   */
  actTogether(
    items: readonly { readonly action: WritableAction; readonly label?: string }[],
  ): (StepResult | undefined)[] {
    const live = !this.sim.stalled;
    const at = live ? this.sim.height + 1 : this.sim.nowMs + 1;
    const indices: number[] = [];
    for (const { action, label } of items) {
      const index = this.#stepIndex++;
      indices.push(index);
      const intent = intentOf(action);
      if (intent !== undefined) this.intents.expect(index, intent);
      this.steps.push({
        at: live ? at : { time: formatRfc3339(at) },
        ...(label === undefined ? {} : { label }),
        ...stepDocumentOf(action, this.sim.cfg.bech32Prefix),
      } as StepDocument);
      scheduleStep(this.sim, {
        index,
        ...(label === undefined ? {} : { label }),
        trigger: live ? { kind: "height", height: at } : { kind: "time", timeMs: at },
        action,
      });
    }
    if (live) this.#advance({ untilHeight: at });
    else this.#advance({ untilTimeMs: at });
    for (const index of indices) this.intents.settle(index);
    const results = this.sim.stepResults();
    return indices.map((index) => results.find((r) => r.index === index));
  }

  submitProposal(
    label: string,
    msgs: readonly HarnessMsg[],
    o: { expedited: boolean; deposit: bigint; proposer: string; metadata?: string },
  ) {
    this.proposals.set(label, msgs);
    if (o.expedited) this.expedited.add(label);
    return this.act({
      kind: "submitProposal",
      id: label,
      proposer: o.proposer,
      title: label,
      summary: label,
      metadata: o.metadata ?? "",
      deposit: o.deposit === 0n ? [] : [{ denom: "stake", amount: o.deposit }],
      expedited: o.expedited,
      messages: msgs.map((m) => toEngineMsg(m, govAuthority(this.sim.cfg.bech32Prefix))),
    });
  }

  /** An upgrade transaction that account `from` signs itself, as the messages' authority: not the gov's. */
  accountTx(from: string, msgs: readonly HarnessMsg[]) {
    const authority = addressOfName(from, this.sim.cfg.bech32Prefix);
    return this.act({ kind: "tx", from, messages: msgs.map((m) => toEngineMsg(m, authority)) });
  }

  authorityExec(msgs: readonly HarnessMsg[]) {
    return this.act({
      kind: "authorityExec",
      messages: msgs.map((m) => toEngineMsg(m, govAuthority(this.sim.cfg.bech32Prefix))),
    });
  }

  /** Advances `n` blocks (or until the chain stalls with nothing pending). */
  advanceBlocks(n: number): void {
    this.#advance({ untilHeight: this.sim.height + n });
  }

  /** Advances the simulated clock by `ms`. */
  advanceTime(ms: number): void {
    this.#advance({ untilTimeMs: this.sim.nowMs + ms });
  }

  #advance(stop: { untilHeight?: number; untilTimeMs?: number }): void {
    this.sim.run(stop);
    // Normal form: every event at or before `now` processed (see the replay contract above).
    this.sim.run({ untilTimeMs: this.sim.nowMs });
    this.sync();
  }

  /** The session as a scenario document: the world, the steps so far, and a `run` that stops where it is now. */
  document(extra: Partial<ScenarioDocument> = {}): ScenarioDocument {
    return {
      ...this.doc,
      steps: [...this.steps],
      run: { untilTime: formatRfc3339(this.sim.nowMs) },
      ...extra,
    };
  }
}
