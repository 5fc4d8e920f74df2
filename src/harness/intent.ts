import type { OracleEvent, UpgradeMsg } from "../../models/types.js";
import type { TraceEvent } from "../chain/trace-events.js";

/**
 * What the harness asked the chain to do, as the model's input (fast-check's Model/Real split: `run(model, real)`
 * applies a command to both and compares). The oracle is stepped from these intents, not from the chain's account
 * of them, so a chain that silently drops or bends an operator's action disagrees with the model instead of
 * teaching it a wrong history.
 *
 * - A node action (swap, restart, stop) steps the oracle when the step runs: the stop of a node that is not
 *   stopped, then the start of the binary the operator chose (a restart: the binary the model says the node runs)
 *   with the skip heights the operator gave, then the catch-up. The trace must echo it: right after the step, the
 *   node's `stop` (unless it was stopped) and its `start` with that binary and those skip heights.
 * - An authority transaction steps the oracle with the messages the harness signed, in the block the trace says the
 *   transaction landed in (which block is the chain's to decide: a stalled chain includes nothing). It must land in
 *   the first block committed after its step ran, with the messages the harness signed.
 *
 * Every deviation is a gap (one readable line); `gaps` only grows. What the model still takes from the trace, because
 * it cannot be predicted from the commands: block times and stalls, the block a transaction lands in, sidecar swaps
 * (their delays), and gov's verdicts (checked independently by gov-follows-tally against models/gov-tally.ts).
 */
export type Intent =
  | {
      readonly kind: "node";
      readonly action: "swapBinary" | "restart" | "stop";
      readonly node: string;
      /** The binary to start; undefined for a restart (the one the model says the node runs) and for a stop. */
      readonly binary: string | undefined;
      /** The skip heights to start with; undefined keeps the ones the model says the node has. */
      readonly skip: readonly number[] | undefined;
    }
  | { readonly kind: "authority"; readonly msgs: readonly UpgradeMsg[] };

/** The model's view of a node the ledger needs when a node action runs. */
export interface ModelNode {
  readonly stopped: boolean;
  readonly binary: string;
  readonly skipHeights: readonly number[];
}

type Echo = {
  readonly node: string;
  readonly expect: ("stop" | "start")[];
  readonly binary: string;
  readonly skip: string;
};

/** Intents awaiting their step, echoes awaited from the trace, authority transactions awaiting their block. */
export class IntentLedger {
  readonly gaps: string[] = [];
  readonly #pending = new Map<number, Intent>();
  #echo: (Echo & { readonly what: string }) | null = null;
  /** Authority intents whose step ran, oldest first: they land in mempool order. */
  readonly #unlanded: { readonly msgs: readonly UpgradeMsg[]; readonly what: string }[] = [];

  /** An independent copy: what either ledger records later does not show in the other (a forked session's). */
  clone(): IntentLedger {
    const c = new IntentLedger();
    c.gaps.push(...this.gaps);
    for (const [i, intent] of this.#pending) c.#pending.set(i, intent);
    c.#echo = this.#echo === null ? null : { ...this.#echo, expect: [...this.#echo.expect] };
    c.#unlanded.push(...this.#unlanded);
    return c;
  }

  /** Registers the intent of step `index` before the step is scheduled. */
  expect(index: number, intent: Intent): void {
    this.#pending.set(index, intent);
  }

  /**
   * The trace's `step` event: the oracle events the intent steps the model with (none for a step without an
   * intent, or a transaction step: its effect comes when it lands).
   */
  onStep(ev: Extract<TraceEvent, { kind: "step" }>, node: (name: string) => ModelNode | undefined): OracleEvent[] {
    this.#echoMissing();
    const intent = this.#pending.get(ev.index);
    if (intent === undefined) return [];
    this.#pending.delete(ev.index);
    const what = `step ${ev.index} (${ev.action})`;
    if (intent.kind === "authority") {
      this.#unlanded.push({ msgs: intent.msgs, what });
      return [];
    }
    const m = node(intent.node);
    if (m === undefined) {
      this.gaps.push(`${what}: the model has no node ${intent.node}`);
      return [];
    }
    const out: OracleEvent[] = m.stopped ? [] : [{ type: "NODE_STOPPED", node: intent.node }];
    const expect: ("stop" | "start")[] = m.stopped ? [] : ["stop"];
    if (intent.action !== "stop") {
      const binary = intent.binary ?? m.binary;
      const skip = intent.skip ?? m.skipHeights;
      out.push(
        { type: "NODE_STARTED", node: intent.node, binary, skipHeights: [...skip] },
        { type: "NODE_CAUGHT_UP", node: intent.node },
      );
      expect.push("start");
      this.#echo = { node: intent.node, expect, binary, skip: JSON.stringify(skip), what };
    } else {
      this.#echo = expect.length === 0 ? null : { node: intent.node, expect, binary: "", skip: "", what };
    }
    return out;
  }

  /**
   * A `stop` or `start` the trace shows for a node: true when it is the echo of the step just run (the model has
   * already been stepped), false when it is the chain's own doing (a sidecar), for the caller to step the model with.
   */
  onNodeEvent(ev: Extract<TraceEvent, { kind: "stop" | "start" }>): boolean {
    const echo = this.#echo;
    if (echo === null) return false;
    const want = echo.expect[0];
    if (ev.node !== echo.node || want !== ev.kind) {
      this.#echoMissing();
      return false;
    }
    echo.expect.shift();
    if (ev.kind === "start" && (ev.binary !== echo.binary || JSON.stringify(ev.skip) !== echo.skip))
      this.gaps.push(
        `${echo.what}: ${echo.node} was to start ${echo.binary} skipping ${echo.skip}, the trace shows ${ev.binary} skipping ${JSON.stringify(ev.skip)}`,
      );
    if (echo.expect.length === 0) this.#echo = null;
    return true;
  }

  /** Any other trace event: an echo still awaited is missing. */
  onOtherEvent(): void {
    this.#echoMissing();
  }

  /**
   * An authority transaction in a committed block, with the messages the trace shows: the messages the harness
   * signed for it (the model's input), or undefined when no step sent one (a gap).
   */
  onAuthorityTx(height: number, shown: readonly UpgradeMsg[]): readonly UpgradeMsg[] | undefined {
    const next = this.#unlanded.shift();
    if (next === undefined) {
      this.gaps.push(`block ${height}: an authority transaction no step sent`);
      return undefined;
    }
    if (JSON.stringify(shown) !== JSON.stringify(next.msgs))
      this.gaps.push(
        `${next.what}: block ${height} shows messages ${JSON.stringify(shown)}, the harness signed ${JSON.stringify(next.msgs)}`,
      );
    return next.msgs;
  }

  /** A block committed (its transactions already taken): every authority transaction whose step ran had to land. */
  onCommit(height: number): void {
    this.#echoMissing();
    while (this.#unlanded.length > 0) {
      const lost = this.#unlanded.shift();
      if (lost !== undefined) this.gaps.push(`${lost.what}: block ${height} committed without its transaction`);
    }
  }

  /** After a step's act: its intent must have run. */
  settle(index: number): void {
    const intent = this.#pending.get(index);
    if (intent === undefined) return;
    this.#pending.delete(index);
    this.gaps.push(`step ${index} (${intent.kind === "node" ? intent.action : "authorityExec"}) never ran`);
  }

  #echoMissing(): void {
    const echo = this.#echo;
    if (echo === null) return;
    this.#echo = null;
    this.gaps.push(`${echo.what}: the trace shows no ${echo.expect.join(" then ")} of ${echo.node}`);
  }
}
