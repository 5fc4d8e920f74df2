import { signerRefusal } from "../../models/keeper-rules.js";
import {
  createOracle,
  type Oracle,
  step as oracleStep,
  stepBlocks as oracleStepBlocks,
  selectPlan,
} from "../../models/oracle.js";
import type { ExecReport, OracleEvent, OracleInput, UpgradeMsg } from "../../models/types.js";
import type { UpgradeMessage } from "../app/types.js";
import type { StepResult } from "../chain/actions.js";
import {
  advanceTrace,
  isGenesisStart,
  TRACE_START,
  type TraceEvent,
  type TracePosition,
} from "../chain/trace-events.js";
import { addressOfName, govAuthority } from "../core/address.js";
import { BoundedCache } from "../core/bounded-cache.js";
import type { LogLine } from "../core/context.js";
import { formatRfc3339 } from "../core/go/time.js";
import type { ScenarioDocument, StepDocument } from "../scenario/schema.js";
import { buildSimulation, forkSimulation, type Simulation, scheduleStep } from "../scenario/simulate.js";
import { stepDocumentOf, type WritableAction } from "../scenario/step-document.js";
import { type Intent, IntentLedger, type ModelNode } from "./intent.js";
import { type WorldOptions, worldDocument } from "./world.js";
import { parsedDocument, parsedWorld, readyChain, worldOracle } from "./world-cache.js";

/** An upgrade message as the harness builds it: both the scenario form and the oracle form come from it. */
export type HarnessMsg =
  | { readonly kind: "softwareUpgrade"; readonly name: string; readonly height: number; readonly info: string }
  | { readonly kind: "cancelUpgrade" };

const toOracleMsg = (m: HarnessMsg): UpgradeMsg =>
  m.kind === "softwareUpgrade"
    ? { type: "softwareUpgrade", plan: { name: m.name, height: m.height, info: m.info } }
    : { type: "cancelUpgrade" };
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

/** What the session recorded about an upgrade message's execution on the chain (from the trace). */
export interface ExecRecord {
  readonly height: number;
  readonly source: "proposal" | "authority";
  readonly msgs: readonly HarnessMsg[];
  readonly ok: boolean;
  readonly error: string | null;
  /**
   * What the model predicted for the same messages on its committed state (models/exec.ts): whether they succeed
   * and the reference's exact error; null when the model could not take the event (it is then out of step, which
   * conformance reports on its own).
   */
  readonly model: { readonly ok: boolean; readonly error: string | null } | null;
}

/**
 * An upgrade transaction signed by an account other than the gov authority (from the trace), with the model's
 * verdict: the Msg server refuses every message whose authority is not the keeper's, whatever the state.
 */
export interface AccountTxRecord {
  readonly height: number;
  readonly signer: string;
  readonly msgs: readonly HarnessMsg[];
  readonly ok: boolean;
  readonly error: string | null;
  readonly model: { readonly ok: boolean; readonly error: string | null };
}

/** What a committed block did, as the properties need it. */
export interface BlockRecord {
  readonly height: number;
  readonly committers: readonly string[];
  readonly applied: string | null;
  readonly skipped: string | null;
  /** The committed plan before this block (the one a PreBlocker at this height saw). */
  readonly planBefore: { readonly name: string; readonly height: number; readonly info: string } | null;
  /** The binary each committer ran when it committed this block live (empty for idle ranges). */
  readonly committerBinaries: readonly (readonly [string, string])[];
}

/**
 * A property-test session: the real chain (the engine over the real keeper) and the oracle, driven by steps the
 * harness schedules exactly as a scenario file would. Every step is recorded as a scenario step, so a session is
 * always a scenario: `document()` returns it, and replaying it with `chainsim run` reproduces the same trace.
 *
 * Replay contract: a step is scheduled `at: <next height>` while the chain is live, or `at: {time: now + 1 ms}`
 * while it is stalled, and every advance ends with all events at or before `now` processed. Then scheduling steps
 * one by one as the run goes gives the same trajectory as scheduling them all up front.
 */
export class Session {
  readonly doc: ScenarioDocument;
  readonly sim: Simulation;
  oracle: Oracle;
  readonly steps: StepDocument[] = [];
  /** Proposal label → its messages. */
  readonly proposals = new Map<string, readonly HarnessMsg[]>();
  /** Labels of the proposals submitted as expedited. */
  readonly expedited = new Set<string>();
  readonly fired = new Set<string>();
  /** Transition id → how many times it fired in this session (the report's per-transition counts). */
  readonly firedCounts = new Map<string, number>();
  readonly execs: ExecRecord[] = [];
  /**
   * The x/upgrade log line the model says each committed block that applied or skipped a plan writes (`applying
   * upgrade "<name>" at height: <h>`, `UPGRADE "<name>" SKIPPED at <h>: <info>`), from the model's plan before the block.
   */
  readonly upgradeLines: { readonly height: number; readonly line: LogLine }[] = [];
  /** Upgrade transactions signed by another account than the gov authority, in the order they landed. */
  readonly accountTxs: AccountTxRecord[] = [];
  readonly blocks: BlockRecord[] = [];
  /** Node → binary it runs, from the trace. */
  readonly binaries = new Map<string, string>();
  /** Oracle events sent so far (for reports). */
  eventsSent = 0;
  /** What the harness asked for, which steps the oracle; its gaps are where the chain's account deviated. */
  readonly intents = new IntentLedger();
  /** Trace events fully applied so far. */
  #cursor = 0;
  #position: TracePosition = TRACE_START;
  #lastBlockSent = 0;
  #committedPlan: BlockRecord["planBefore"] = null;
  /** (height, plan after that block) at every block where the committed plan changed. */
  readonly #planChanges: (readonly [number, BlockRecord["planBefore"]])[] = [];
  #stepIndex = 0;

  /**
   * A session over the property world (`WorldOptions`), or over any scenario document with the oracle's view of it
   * (`{doc, oracleInput}`, e.g. the coverage world).
   * `readyChain: false` builds the property world's chain fresh instead of forking its ready chain (the equivalence
   * test's reference); the coverage world (`{doc, oracleInput}`) is always built fresh.
   */
  constructor(
    o: WorldOptions | { readonly doc: ScenarioDocument; readonly oracleInput: OracleInput },
    options: { readonly readyChain?: boolean } = {},
  ) {
    this.doc = "doc" in o ? o.doc : worldDocument(o);
    const scenario = "doc" in o ? parsedDocument(o.doc) : parsedWorld(o);
    const fork = !("doc" in o) && options.readyChain !== false;
    const built = fork
      ? forkSimulation(scenario, readyChain(o as WorldOptions, scenario), { engine: { keepTrace: true } })
      : buildSimulation(scenario, { engine: { keepTrace: true } });
    if (!built.ok) throw new Error(`world is invalid: ${built.error}`);
    this.sim = built.value;
    this.oracle = "doc" in o ? initialOracle(o.oracleInput) : worldOracle(o);
    for (const n of this.sim.nodeNames()) this.binaries.set(n, this.sim.nodeStatus(n)!.binary);
    // The world is a chain that started on its genesis binary: block 1 commits before any command (a ready chain
    // has committed it; the oracle follows its trace).
    if (fork) this.sync();
    else this.advanceBlocks(1);
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

  /** The committed plan after block `height`. */
  planAfter(height: number): BlockRecord["planBefore"] {
    let p: BlockRecord["planBefore"] = null;
    for (const [h, plan] of this.#planChanges) {
      if (h > height) break;
      p = plan;
    }
    return p;
  }

  /** True when a block below `height` applied the plan `name`. */
  appliedBefore(name: string, height: number): boolean {
    return this.blocks.some((b) => b.height < height && b.applied === name);
  }

  /** True when `e` is the last successful upgrade-message execution of its block (it decides the plan slot). */
  lastExecOfBlock(e: ExecRecord): boolean {
    if (!e.ok) return false;
    const same = this.execs.filter((x) => x.height === e.height && x.ok);
    return same[same.length - 1] === e;
  }

  /** Feeds the oracle with what the chain did since the last sync, read from the trace events. */
  sync(): void {
    const events = this.sim.traceEventsFrom(this.#cursor);
    for (let i = 0; i < events.length; i++) {
      const ev = events[i]!;
      const before = this.#position;
      this.#position = advanceTrace(before, ev);
      const complete = this.#apply(ev, before, i === events.length - 1);
      if (complete) this.#cursor++;
    }
  }

  #send(event: OracleEvent): void {
    this.oracle = oracleStep(this.oracle, event);
    this.eventsSent++;
    this.#count(this.oracle.fired);
  }

  /** The x/upgrade line of the block just sent, if the model says it committed `plan` applied or skipped. */
  #upgradeLine(height: number, plan: ReturnType<typeof selectPlan>): LogLine | undefined {
    const r = this.oracle.snapshot.context.lastBlock;
    if (!r?.committed || r.height !== height || plan === null || r.planName !== plan.name) return undefined;
    if (r.action === "applied")
      return {
        level: "info",
        module: "x/upgrade",
        message: `applying upgrade "${plan.name}" at height: ${plan.height}`,
      };
    if (r.action === "skipped")
      return {
        level: "info",
        module: "x/upgrade",
        message: `UPGRADE "${plan.name}" SKIPPED at ${plan.height}: ${plan.info}`,
      };
    return undefined;
  }

  /** The model's verdict on the exec event just sent: its new last exec; null when it did not take the event. */
  #modelExec(before: ExecReport | null): ExecRecord["model"] {
    const e = this.oracle.snapshot.context.lastExec;
    return e !== null && e !== before ? { ok: e.ok, error: e.error } : null;
  }

  /** An idle stretch: one range step (the same as a BLOCK event per height, models/oracle.ts stepBlocks). */
  #sendBlocks(from: number, to: number): void {
    this.oracle = oracleStepBlocks(this.oracle, from, to);
    this.eventsSent += to - from + 1;
    this.#count(this.oracle.fired);
  }

  #count(fired: readonly string[]): void {
    for (const id of fired) {
      this.fired.add(id);
      this.firedCounts.set(id, (this.firedCounts.get(id) ?? 0) + 1);
    }
  }

  /** Every attempt of a block is one BLOCK event: each failed retry of a stalled block, then its commit. */
  #block(height: number): void {
    this.#send({ type: "BLOCK", height });
  }

  /** Applies one trace event; false when it may still grow (an open range of idle blocks at the end). */
  #apply(ev: TraceEvent, before: TracePosition, last: boolean): boolean {
    switch (ev.kind) {
      case "start": {
        this.binaries.set(ev.node, ev.binary);
        if (isGenesisStart(before, ev)) return true; // the oracle starts the genesis nodes running
        if (this.intents.onNodeEvent(ev)) return true; // an operator's action: the oracle stepped from its intent
        this.#send({ type: "NODE_STARTED", node: ev.node, binary: ev.binary, skipHeights: [...ev.skip] });
        this.#send({ type: "NODE_CAUGHT_UP", node: ev.node });
        return true;
      }
      case "stop":
        if (this.intents.onNodeEvent(ev)) return true;
        if (before.live) this.#send({ type: "NODE_STOPPED", node: ev.node });
        return true;
      case "step":
        for (const e of this.intents.onStep(ev, (n) => this.#modelNode(n))) this.#send(e);
        return true;
      case "blocks": {
        this.intents.onCommit(ev.from);
        const from = Math.max(ev.from, this.#lastBlockSent + 1);
        if (from <= ev.to) this.#sendBlocks(from, ev.to);
        for (let h = from; h <= ev.to; h++) {
          this.blocks.push({
            height: h,
            committers: [],
            applied: null,
            skipped: null,
            planBefore: this.#committedPlan,
            committerBinaries: [],
          });
        }
        this.#lastBlockSent = Math.max(this.#lastBlockSent, ev.to);
        return !last;
      }
      case "stall":
        this.intents.onOtherEvent();
        this.#block(ev.height);
        return true;
      case "block": {
        const height = ev.height;
        const planBefore = selectPlan(this.oracle.snapshot);
        this.#block(height);
        const line = this.#upgradeLine(height, planBefore);
        if (line !== undefined) this.upgradeLines.push({ height, line });
        this.#lastBlockSent = height;
        this.blocks.push({
          height,
          committers: ev.committers,
          applied: ev.applied ?? null,
          skipped: ev.skipped ?? null,
          planBefore: this.#committedPlan,
          committerBinaries: ev.committers.map((n) => [n, this.binaries.get(n) ?? ""] as const),
        });
        for (const { tx, result } of ev.txs) {
          if (tx.kind !== "upgrade") continue;
          const msgs = tx.messages.map(
            (m): HarnessMsg =>
              m.kind === "softwareUpgrade"
                ? { kind: "softwareUpgrade", name: m.plan.name, height: Number(m.plan.height), info: m.plan.info }
                : { kind: "cancelUpgrade" },
          );
          const gov = govAuthority(this.sim.cfg.bech32Prefix);
          if (tx.signer !== gov) {
            const refusal = signerRefusal(gov, tx.signer);
            this.accountTxs.push({
              height,
              signer: tx.signer,
              msgs,
              ok: result.ok,
              error: result.error ?? null,
              model: { ok: refusal === null, error: refusal },
            });
            continue;
          }
          const signed = this.intents.onAuthorityTx(height, msgs.map(toOracleMsg));
          if (signed === undefined) continue;
          const before = this.oracle.snapshot.context.lastExec;
          this.#send({ type: "AUTHORITY_EXEC", height, msgs: signed });
          this.execs.push({
            height,
            source: "authority",
            msgs,
            ok: result.ok,
            error: result.error ?? null,
            model: this.#modelExec(before),
          });
        }
        this.intents.onCommit(height);
        for (const g of ev.gov) {
          if (g.kind !== "passed" && g.kind !== "failed") continue;
          const label = this.sim.proposals.find((p) => p.id === g.id)?.label ?? undefined;
          const msgs = label === undefined ? undefined : this.proposals.get(label);
          if (msgs === undefined) continue;
          const before = this.oracle.snapshot.context.lastExec;
          this.#send({ type: "PROPOSAL_EXECUTED", height, msgs: msgs.map(toOracleMsg) });
          this.execs.push({
            height,
            source: "proposal",
            msgs,
            ok: g.kind === "passed",
            error: g.kind === "failed" ? g.reason : null,
            model: this.#modelExec(before),
          });
        }
        return true;
      }
      case "plan":
        this.intents.onOtherEvent();
        this.#committedPlan = ev.plan;
        this.#planChanges.push([ev.height, ev.plan]);
        return true;
      default:
        this.intents.onOtherEvent();
        return true;
    }
  }

  /** The oracle's view of a node, for an operator's action on it. */
  #modelNode(name: string): ModelNode | undefined {
    const n = this.oracle.snapshot.context.nodes.find((x) => x.name === name);
    return n === undefined
      ? undefined
      : { stopped: n.status.state === "stopped", binary: n.binary, skipHeights: n.skipHeights };
  }

  /** Where the trace stands: its height, time and genesis time as of the last sync. */
  get tracePosition(): TracePosition {
    return this.#position;
  }
}
