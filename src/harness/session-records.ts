import { signerRefusal } from "../../models/keeper-rules.js";
import { type Oracle, step as oracleStep, stepBlocks as oracleStepBlocks, selectPlan } from "../../models/oracle.js";
import type { ExecReport, OracleEvent, UpgradeMsg } from "../../models/types.js";
import type { UpgradeMessage } from "../app/types.js";
import {
  advanceTrace,
  isGenesisStart,
  TRACE_START,
  type TraceEvent,
  type TracePosition,
} from "../chain/trace-events.js";
import { govAuthority } from "../core/address.js";
import type { LogLine } from "../core/context.js";
import { refill } from "../core/refill.js";
import type { Simulation } from "../scenario/simulate.js";
import { IntentLedger, type ModelNode } from "./intent.js";

/**
 * The half of a property-test session that follows the chain (session.ts is the half that drives it): it reads
 * the engine's trace events since the last sync, feeds the oracle what the chain did (blocks, node starts and
 * stops, upgrade-message executions, through the intent ledger for the harness's own actions), and records what
 * the properties read (blocks, executions, account transactions, the model's x/upgrade lines, node binaries).
 *
 * 1. `sync()` walks the new trace events; an open range of idle blocks at the end is read again next time.
 * 2. Each event kind has its step: `start`/`stop` (node lifecycle), `step` (the harness's action), `blocks` (an idle
 *    range: one range step of the oracle), `stall`, `block` (a commit: its upgrade transactions, then its gov
 *    results), `plan` (the committed plan changed).
 */

/** An upgrade message as the harness builds it: both the scenario form and the oracle form come from it. */
export type HarnessMsg =
  | { readonly kind: "softwareUpgrade"; readonly name: string; readonly height: number; readonly info: string }
  | { readonly kind: "cancelUpgrade" };

export const toOracleMsg = (m: HarnessMsg): UpgradeMsg =>
  m.kind === "softwareUpgrade"
    ? { type: "softwareUpgrade", plan: { name: m.name, height: m.height, info: m.info } }
    : { type: "cancelUpgrade" };

/** An engine message in the harness's form (heights as the harness writes them: safe integers). */
const harnessMsgOf = (m: UpgradeMessage): HarnessMsg =>
  m.kind === "softwareUpgrade"
    ? { kind: "softwareUpgrade", name: m.plan.name, height: Number(m.plan.height), info: m.plan.info }
    : { kind: "cancelUpgrade" };

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

type BlockEvent = Extract<TraceEvent, { kind: "block" }>;

const upgradeLog = (message: string): LogLine => ({ level: "info", module: "x/upgrade", message });

/**
 * A session's records as an image (`SessionRecords.recordsImage`): copies of every list and table, the records in
 * them shared (they are never changed once recorded), the oracle shared (its snapshots are immutable). One image
 * restores any number of forks (`restoreRecords`), none of which sees another's later records.
 */
export interface RecordsImage {
  readonly oracle: Oracle;
  readonly proposals: readonly (readonly [string, readonly HarnessMsg[]])[];
  readonly fired: readonly string[];
  readonly firedCounts: readonly (readonly [string, number])[];
  readonly execs: readonly ExecRecord[];
  readonly upgradeLines: SessionRecords["upgradeLines"];
  readonly accountTxs: readonly AccountTxRecord[];
  readonly blocks: readonly BlockRecord[];
  readonly binaries: readonly (readonly [string, string])[];
  readonly eventsSent: number;
  readonly intents: IntentLedger;
  readonly cursor: number;
  readonly position: TracePosition;
  readonly lastBlockSent: number;
  readonly committedPlan: BlockRecord["planBefore"];
  readonly planChanges: readonly (readonly [number, BlockRecord["planBefore"]])[];
}

/** The records of a session and the oracle that follows the chain; `Session` adds the steps that drive it. */
export class SessionRecords {
  oracle: Oracle;
  /** Proposal label → its messages. */
  readonly proposals = new Map<string, readonly HarnessMsg[]>();
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
  intents = new IntentLedger();
  /** Trace events fully applied so far. */
  #cursor = 0;
  #position: TracePosition = TRACE_START;
  #lastBlockSent = 0;
  #committedPlan: BlockRecord["planBefore"] = null;
  /** (height, plan after that block) at every block where the committed plan changed. */
  readonly #planChanges: (readonly [number, BlockRecord["planBefore"]])[] = [];

  constructor(
    readonly sim: Simulation,
    oracle: Oracle,
  ) {
    this.oracle = oracle;
    for (const n of sim.nodeNames()) this.binaries.set(n, sim.nodeStatus(n)!.binary);
  }

  /** The records as an image, for `restoreRecords` (copied: later records of this session do not show in it). */
  protected recordsImage(): RecordsImage {
    return {
      oracle: this.oracle,
      proposals: [...this.proposals],
      fired: [...this.fired],
      firedCounts: [...this.firedCounts],
      execs: [...this.execs],
      upgradeLines: [...this.upgradeLines],
      accountTxs: [...this.accountTxs],
      blocks: [...this.blocks],
      binaries: [...this.binaries],
      eventsSent: this.eventsSent,
      intents: this.intents.clone(),
      cursor: this.#cursor,
      position: this.#position,
      lastBlockSent: this.#lastBlockSent,
      committedPlan: this.#committedPlan,
      planChanges: [...this.#planChanges],
    };
  }

  /**
   * Takes the records of `img` (an image of a session of the same chain, whose engine this session's `sim` is a fork
   * of), replacing this session's own: the session then follows the chain from where the image's session stood.
   */
  protected restoreRecords(img: RecordsImage): void {
    this.oracle = img.oracle;
    refill(this.proposals, img.proposals);
    refill(this.fired, img.fired);
    refill(this.firedCounts, img.firedCounts);
    refill(this.execs, img.execs);
    refill(this.upgradeLines, img.upgradeLines);
    refill(this.accountTxs, img.accountTxs);
    refill(this.blocks, img.blocks);
    refill(this.binaries, img.binaries);
    refill(this.#planChanges, img.planChanges);
    this.eventsSent = img.eventsSent;
    this.intents = img.intents.clone();
    this.#cursor = img.cursor;
    this.#position = img.position;
    this.#lastBlockSent = img.lastBlockSent;
    this.#committedPlan = img.committedPlan;
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

  /** Where the trace stands: its height, time and genesis time as of the last sync. */
  get tracePosition(): TracePosition {
    return this.#position;
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

  /** Applies one trace event; false when it may still grow (an open range of idle blocks at the end). */
  #apply(ev: TraceEvent, before: TracePosition, last: boolean): boolean {
    switch (ev.kind) {
      case "start":
        this.#onStart(ev, before);
        return true;
      case "stop":
        if (this.intents.onNodeEvent(ev)) return true;
        if (before.live) this.#send({ type: "NODE_STOPPED", node: ev.node });
        return true;
      case "step":
        for (const e of this.intents.onStep(ev, (n) => this.#modelNode(n))) this.#send(e);
        return true;
      case "blocks":
        this.#onIdleBlocks(ev.from, ev.to);
        return !last;
      case "stall":
        this.intents.onOtherEvent();
        this.#send({ type: "BLOCK", height: ev.height });
        return true;
      case "block":
        this.#onBlock(ev);
        return true;
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

  #onStart(ev: Extract<TraceEvent, { kind: "start" }>, before: TracePosition): void {
    this.binaries.set(ev.node, ev.binary);
    if (isGenesisStart(before, ev)) return; // the oracle starts the genesis nodes running
    if (this.intents.onNodeEvent(ev)) return; // an operator's action: the oracle stepped from its intent
    this.#send({ type: "NODE_STARTED", node: ev.node, binary: ev.binary, skipHeights: [...ev.skip] });
    this.#send({ type: "NODE_CAUGHT_UP", node: ev.node });
  }

  /** A range of idle blocks (possibly one the last sync read in part): each new height is one BLOCK. */
  #onIdleBlocks(evFrom: number, to: number): void {
    this.intents.onCommit(evFrom);
    const from = Math.max(evFrom, this.#lastBlockSent + 1);
    if (from <= to) this.#sendBlocks(from, to);
    for (let h = from; h <= to; h++) {
      this.blocks.push({
        height: h,
        committers: [],
        applied: null,
        skipped: null,
        planBefore: this.#committedPlan,
        committerBinaries: [],
      });
    }
    this.#lastBlockSent = Math.max(this.#lastBlockSent, to);
  }

  /** A committed block: its BLOCK event, its record, its upgrade transactions, then its gov results. */
  #onBlock(ev: BlockEvent): void {
    const height = ev.height;
    const planBefore = selectPlan(this.oracle.snapshot);
    this.#send({ type: "BLOCK", height });
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
    this.#onUpgradeTxs(ev);
    this.intents.onCommit(height);
    this.#onGovResults(ev);
  }

  /** The block's upgrade transactions: another account's are refused by the model; the authority's step it. */
  #onUpgradeTxs(ev: BlockEvent): void {
    const height = ev.height;
    const gov = govAuthority(this.sim.cfg.bech32Prefix);
    for (const { tx, result } of ev.txs) {
      if (tx.kind !== "upgrade") continue;
      const msgs = tx.messages.map(harnessMsgOf);
      const error = result.error ?? null;
      if (tx.signer !== gov) {
        const refusal = signerRefusal(gov, tx.signer);
        const model = { ok: refusal === null, error: refusal };
        this.accountTxs.push({ height, signer: tx.signer, msgs, ok: result.ok, error, model });
        continue;
      }
      const signed = this.intents.onAuthorityTx(height, msgs.map(toOracleMsg));
      if (signed === undefined) continue;
      const before = this.oracle.snapshot.context.lastExec;
      this.#send({ type: "AUTHORITY_EXEC", height, msgs: signed });
      this.execs.push({ height, source: "authority", msgs, ok: result.ok, error, model: this.#modelExec(before) });
    }
  }

  /** The block's passed and failed proposals of the harness: their messages executed (or failed) in the model too. */
  #onGovResults(ev: BlockEvent): void {
    const height = ev.height;
    for (const g of ev.gov) {
      if (g.kind !== "passed" && g.kind !== "failed") continue;
      const label = this.sim.proposals.find((p) => p.id === g.id)?.label ?? undefined;
      const msgs = label === undefined ? undefined : this.proposals.get(label);
      if (msgs === undefined) continue;
      const before = this.oracle.snapshot.context.lastExec;
      this.#send({ type: "PROPOSAL_EXECUTED", height, msgs: msgs.map(toOracleMsg) });
      const ok = g.kind === "passed";
      const error = g.kind === "failed" ? g.reason : null;
      this.execs.push({ height, source: "proposal", msgs, ok, error, model: this.#modelExec(before) });
    }
  }

  /** The x/upgrade line of the block just sent, if the model says it committed `plan` applied or skipped. */
  #upgradeLine(height: number, plan: ReturnType<typeof selectPlan>): LogLine | undefined {
    const r = this.oracle.snapshot.context.lastBlock;
    if (!r?.committed || r.height !== height || plan === null || r.planName !== plan.name) return undefined;
    if (r.action === "applied") return upgradeLog(`applying upgrade "${plan.name}" at height: ${plan.height}`);
    if (r.action === "skipped") return upgradeLog(`UPGRADE "${plan.name}" SKIPPED at ${plan.height}: ${plan.info}`);
    return undefined;
  }

  /** The model's verdict on the exec event just sent: its new last exec; null when it did not take the event. */
  #modelExec(before: ExecReport | null): ExecRecord["model"] {
    const e = this.oracle.snapshot.context.lastExec;
    return e !== null && e !== before ? { ok: e.ok, error: e.error } : null;
  }

  /** The oracle's view of a node, for an operator's action on it. */
  #modelNode(name: string): ModelNode | undefined {
    const n = this.oracle.snapshot.context.nodes.find((x) => x.name === name);
    return n === undefined
      ? undefined
      : { stopped: n.status.state === "stopped", binary: n.binary, skipHeights: n.skipHeights };
  }
}
