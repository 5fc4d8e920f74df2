import { type GovBlockEvent, govEventWire, type HaltKind, type SimTx, simTxWire, type TxResult } from "../app/types.js";
import { AssertionError } from "../core/assert.js";
import { formatRfc3339 } from "../core/go/time.js";
import type { BlockTimeModel } from "./block-time.js";
import { canonicalJson } from "./canonical-json.js";
import type { OperatorPhase } from "./operator-plan.js";

/**
 * The trace: every event the chain engine records, as typed data. One discriminant, `kind`. Times are Unix ms.
 *
 * Contract: `renderTraceEvent` turns an event into one canonical JSON line, the bytes the trace hash covers and
 * `chainsim run --trace` writes. The wire names differ from the typed ones, and the renderer alone maps them: the
 * discriminant is written `t`; times are written as RFC 3339 strings (`time`); a halt's kind is `haltKind` here and
 * `kind` on the wire; governance events and upgrade messages are discriminated by `type` on the wire. Consumers read events, never lines; `foldTrace` is the one reading of the
 * trace's shape that consumers share (the chain's height and time at each event, and which starts are genesis starts).
 */
export type TraceEvent =
  | {
      readonly kind: "genesis";
      readonly chainId: string;
      readonly seed: number;
      readonly timeMs: number;
      readonly appHash: string;
      readonly blockTime: BlockTimeModel;
      readonly nodes: readonly GenesisNode[];
      /** CometBFT's `initial_height` when the chain starts later than 1 (a scenario `from:` a profile). */
      readonly initialHeight?: number | undefined;
    }
  /** A node's process started (at genesis, by a step or by its sidecar). */
  | {
      readonly kind: "start";
      readonly node: string;
      readonly binary: string;
      readonly skip: readonly number[];
      readonly timeMs: number;
    }
  | { readonly kind: "stop"; readonly node: string; readonly timeMs: number }
  | {
      readonly kind: "step";
      readonly index: number;
      readonly label: string | null;
      /** The step's action kind as the trace names it. */
      readonly action: string;
      readonly timeMs: number;
      /** The chain height when the step ran. */
      readonly height: number;
    }
  /** A committed block that did something (see `blocks` for the rest). */
  | {
      readonly kind: "block";
      readonly height: number;
      readonly timeMs: number;
      readonly appHash: string;
      readonly txs: readonly TraceTx[];
      readonly gov: readonly GovBlockEvent[];
      /** Plan whose upgrade handler ran in this block. */
      readonly applied: string | undefined;
      /** Plan skipped at a skip height in this block. */
      readonly skipped: string | undefined;
      readonly committers: readonly string[];
    }
  /** Consecutive plain blocks (no transactions, no events, same app hash), heights `from..to` inclusive. */
  | {
      readonly kind: "blocks";
      readonly from: number;
      readonly to: number;
      readonly timeFromMs: number;
      readonly timeToMs: number;
      readonly appHash: string;
    }
  /** An attempt of block `height` that no app hash carried past 2/3 of the power. */
  | { readonly kind: "stall"; readonly height: number; readonly timeMs: number }
  | {
      readonly kind: "halt";
      readonly node: string;
      readonly height: number;
      readonly haltKind: HaltKind;
      readonly message: string;
      readonly timeMs: number;
    }
  /** The committed plan changed in block `height` (null: cleared). */
  | { readonly kind: "plan"; readonly height: number; readonly plan: TracePlan | null }
  | { readonly kind: "sidecar"; readonly node: string; readonly action: "none"; readonly reason: string }
  | {
      readonly kind: "sidecar";
      readonly node: string;
      readonly action: "swap";
      readonly plan: string;
      readonly binary: string;
      readonly timeMs: number;
    }
  /** A step of a node's operator model (cosmovisor or a person): the node is in `phase` from `timeMs` on. */
  | {
      readonly kind: "operator";
      readonly node: string;
      readonly phase: OperatorPhase | "none";
      readonly detail: string;
      readonly timeMs: number;
    };

export type TraceEventKind = TraceEvent["kind"];
/** The event of one kind. */
export type TraceEventOf<K extends TraceEventKind> = Extract<TraceEvent, { readonly kind: K }>;

export interface GenesisNode {
  readonly name: string;
  readonly power: number;
  readonly binary: string;
  readonly skip: readonly number[];
}

export interface TraceTx {
  readonly tx: SimTx;
  readonly result: TxResult;
}

export interface TracePlan {
  readonly name: string;
  readonly height: number;
  readonly info: string;
}

/** The canonical JSON line of one event (no trailing newline). Equal events always give equal bytes. */
export function renderTraceEvent(e: TraceEvent): string {
  return canonicalJson(traceWire(e));
}

/** The wire object of an event: what its line holds, before canonicalisation. */
function traceWire(e: TraceEvent): Record<string, unknown> {
  switch (e.kind) {
    case "genesis":
      return {
        t: e.kind,
        chainId: e.chainId,
        seed: e.seed,
        time: formatRfc3339(e.timeMs),
        appHash: e.appHash,
        blockTime: e.blockTime,
        nodes: e.nodes,
        ...(e.initialHeight === undefined ? {} : { initialHeight: e.initialHeight }),
      };
    case "start":
      return { t: e.kind, node: e.node, binary: e.binary, skip: e.skip, time: formatRfc3339(e.timeMs) };
    case "stop":
      return { t: e.kind, node: e.node, time: formatRfc3339(e.timeMs) };
    case "step":
      return {
        t: e.kind,
        index: e.index,
        label: e.label,
        action: e.action,
        time: formatRfc3339(e.timeMs),
        height: e.height,
      };
    case "block":
      return {
        t: e.kind,
        height: e.height,
        time: formatRfc3339(e.timeMs),
        appHash: e.appHash,
        txs: e.txs.map(({ tx, result }) => ({ tx: simTxWire(tx), result })),
        gov: e.gov.map(govEventWire),
        applied: e.applied,
        skipped: e.skipped,
        committers: e.committers,
      };
    case "blocks":
      return {
        t: e.kind,
        from: e.from,
        to: e.to,
        timeFromMs: e.timeFromMs,
        timeToMs: e.timeToMs,
        appHash: e.appHash,
      };
    case "stall":
      return { t: e.kind, height: e.height, time: formatRfc3339(e.timeMs) };
    case "halt":
      return {
        t: e.kind,
        node: e.node,
        height: e.height,
        kind: e.haltKind,
        message: e.message,
        time: formatRfc3339(e.timeMs),
      };
    case "plan":
      return { t: e.kind, height: e.height, plan: e.plan };
    case "sidecar":
      return e.action === "none"
        ? { t: e.kind, node: e.node, action: e.action, reason: e.reason }
        : { t: e.kind, node: e.node, action: e.action, plan: e.plan, binary: e.binary, time: formatRfc3339(e.timeMs) };
    case "operator":
      return { t: e.kind, node: e.node, phase: e.phase, detail: e.detail, time: formatRfc3339(e.timeMs) };
  }
}

/** The time an event happened at, when it carries one (a sidecar that did nothing carries none). */
export function traceEventTimeMs(e: TraceEvent): number | undefined {
  switch (e.kind) {
    case "blocks":
      return e.timeToMs;
    case "plan":
      return undefined;
    case "sidecar":
      return e.action === "swap" ? e.timeMs : undefined;
    default:
      return e.timeMs;
  }
}

/**
 * Where the trace stands after an event. `live` turns true at the first step, block or stall: until then the chain
 * is starting, and every `start` is a genesis start (its node starts running with the chain, it is no restart).
 */
export interface TracePosition {
  /** The committed height. */
  readonly height: number;
  /** The latest time any event so far carried. */
  readonly timeMs: number;
  /** The genesis time (from the `genesis` event; 0 before it). */
  readonly genesisTimeMs: number;
  readonly live: boolean;
  /** Stalled block attempts so far. */
  readonly stalls: number;
}

export const TRACE_START: TracePosition = { height: 0, timeMs: 0, genesisTimeMs: 0, live: false, stalls: 0 };

/**
 * A position as an object literal of TracePosition's fields in TRACE_START's order (what `{ ...p, ... }` gave, at a
 * fraction of the cost: a spread of a spread-made object costs this V8 10-25 times as much).
 */
const position = (height: number, timeMs: number, p: TracePosition, live: boolean, stalls: number): TracePosition => ({
  height,
  timeMs,
  genesisTimeMs: p.genesisTimeMs,
  live,
  stalls,
});

/** The position after `e`. Pure. */
export function advanceTrace(p: TracePosition, e: TraceEvent): TracePosition {
  const t = traceEventTimeMs(e);
  const timeMs = t === undefined ? p.timeMs : Math.max(p.timeMs, t);
  switch (e.kind) {
    case "genesis":
      return {
        ...p,
        timeMs,
        genesisTimeMs: e.timeMs,
        ...(e.initialHeight === undefined ? {} : { height: e.initialHeight - 1 }),
      };
    case "start":
    case "stop":
    case "halt":
    case "plan":
      return timeMs === p.timeMs ? p : position(p.height, timeMs, p, p.live, p.stalls);
    case "sidecar":
    case "operator":
    case "step":
      return position(p.height, timeMs, p, true, p.stalls);
    case "block":
      return position(e.height, timeMs, p, true, p.stalls);
    case "blocks":
      return position(Math.max(p.height, e.to), timeMs, p, true, p.stalls);
    case "stall":
      return position(p.height, timeMs, p, true, p.stalls + 1);
    default:
      // The trace is the engine's own output: an event of no known kind is a bug in the engine that wrote it, and
      // is reported where it was written, not later by whichever reader of the trace trips over it.
      throw new AssertionError(`trace event of unknown kind ${JSON.stringify((e as { kind?: unknown }).kind)}`);
  }
}

/** True when `e`, seen at position `before`, is a node starting with the chain rather than a restart or swap. */
export const isGenesisStart = (before: TracePosition, e: TraceEvent): boolean => e.kind === "start" && !before.live;

/**
 * Folds events in order. `f` sees each event with the position before and after it. Returns the accumulator and
 * the final position. Every consumer of the trace (the harness session, the timelines, the regions) reads it
 * through this fold, so they agree on what a genesis start is and where the chain stands.
 */
export function foldTrace<A>(
  events: Iterable<TraceEvent>,
  init: A,
  f: (acc: A, e: TraceEvent, before: TracePosition, after: TracePosition) => A,
  from: TracePosition = TRACE_START,
): { readonly acc: A; readonly position: TracePosition } {
  let acc = init;
  let p = from;
  for (const e of events) {
    const next = advanceTrace(p, e);
    acc = f(acc, e, p, next);
    p = next;
  }
  return { acc, position: p };
}
