/**
 * The upgrade plan lifecycle as an xstate v5 statechart. Two parallel regions:
 *
 * - `plan`: `noneScheduled` ⇄ `scheduled`, mirroring the single plan slot of the committed state. Proposals and
 *   authority transactions schedule, reschedule (overwrite) or cancel; a committed block applies or skips a due plan.
 *   Completed names live in the context (`states[height].done`).
 * - `chain`: `progressing` while blocks commit, `stalled` after a block attempt found no group with > 2/3 power.
 *
 * Node lifecycle events (start, stop, catch-up) are handled at the root. Every transition carries a `trace` action
 * whose `id` names it (`<state>.<EVENT>.<label>`); `transition()` returns those actions unexecuted, which is how the
 * oracle and the coverage report know which transitions fired. Guards and assigns are pure functions of
 * (context, event); the heavy lifting is in consensus.ts, exec.ts and node-lifecycle.ts.
 */
import { assign, setup } from "xstate";
import { catchUp, resolveBlock } from "./consensus.js";
import { initialContext } from "./context.js";
import { applyExec, type ExecEvent, resolveExec } from "./exec.js";
import { canStart, startNode, stopNode } from "./node-lifecycle.js";
import type { OracleContext, OracleEvent, OracleInput } from "./types.js";

const isExec = (e: OracleEvent): e is ExecEvent => e.type === "PROPOSAL_EXECUTED" || e.type === "AUTHORITY_EXEC";

type Args = { readonly context: OracleContext; readonly event: OracleEvent };

function execClass({ context, event }: Args): "sets" | "clears" | "leaves" | "rejected" | null {
  if (!isExec(event)) return null;
  const r = resolveExec(context, event);
  if (!r.valid || r.result === null) return null;
  if (!r.result.ok) return "rejected";
  if (r.planAfter !== null && event.msgs.length > 0) return "sets";
  if (r.planAfter === null && r.planBefore !== null) return "clears";
  return "leaves";
}

const block = ({ context, event }: Args) => (event.type === "BLOCK" ? resolveBlock(context, event.height) : null);

const hasNode = (context: OracleContext, name: string) => context.nodes.some((n) => n.name === name);

const trace = (id: string) => ({ type: "trace", params: { id } }) as const;

/** The world of the inert actors xstate builds inside `transition()`: no binaries, no nodes. */
const EMPTY_INPUT: OracleInput = { binaries: {}, nodes: [] };

export const upgradeMachine = setup({
  types: {
    context: {} as OracleContext,
    events: {} as OracleEvent,
    input: {} as OracleInput,
  },
  actions: {
    /** Marker naming the transition; never has an effect. */
    trace: (_args, _params: { readonly id: string }) => {},
    applyExec: assign(({ context, event }) => (isExec(event) ? applyExec(context, event) : context)),
    applyBlock: assign(({ context, event }) =>
      event.type === "BLOCK" ? resolveBlock(context, event.height).context : context,
    ),
    startNode: assign(({ context, event }) => (event.type === "NODE_STARTED" ? startNode(context, event) : context)),
    stopNode: assign(({ context, event }) => (event.type === "NODE_STOPPED" ? stopNode(context, event.node) : context)),
    catchUpNode: assign(({ context, event }) =>
      event.type === "NODE_CAUGHT_UP" ? catchUp(context, event.node).context : context,
    ),
  },
  guards: {
    /** The messages succeed and leave a plan in the slot (schedule, or overwrite). */
    execSetsPlan: (args) => execClass(args) === "sets",
    /** The messages succeed and empty a non-empty slot (cancel). */
    execClearsPlan: (args) => execClass(args) === "clears",
    /** The messages succeed without changing whether a plan exists (cancel with no plan, empty list). */
    execLeavesPlan: (args) => execClass(args) === "leaves",
    /** A message fails; none of them applies. */
    execRejected: (args) => execClass(args) === "rejected",
    /** The block commits with the due plan applied. */
    blockAppliesPlan: (args) => block(args)?.action === "applied",
    /** The block commits with the due plan skipped (current height is a skip height of the committing nodes). */
    blockSkipsPlan: (args) => block(args)?.action === "skipped",
    /** Any other block attempt at chain height + 1 (plan untouched: not due, halts, or a stall). */
    blockAttempted: (args) => block(args)?.valid === true,
    blockCommits: (args) => block(args)?.committed === true,
    blockStalls: (args) => block(args)?.valid === true && block(args)?.committed === false,
    nodeStartable: ({ context, event }) => event.type === "NODE_STARTED" && canStart(context, event),
    nodeKnown: ({ context, event }) =>
      (event.type === "NODE_STOPPED" || event.type === "NODE_CAUGHT_UP") && hasNode(context, event.node),
  },
}).createMachine({
  id: "upgradeLifecycle",
  // xstate's pure transition() builds an inert actor, and with it the machine's initial snapshot, on every call,
  // without input. Answer that with an empty world instead of failing on the missing input (a thrown error here
  // cost ~0.3 ms per transition); real oracles are always created with input (models/oracle.ts createOracle).
  context: ({ input }) => initialContext((input as OracleInput | undefined) ?? EMPTY_INPUT),
  type: "parallel",
  states: {
    plan: {
      initial: "noneScheduled",
      states: {
        noneScheduled: {
          on: {
            PROPOSAL_EXECUTED: [
              {
                guard: "execSetsPlan",
                target: "scheduled",
                actions: [trace("noneScheduled.PROPOSAL_EXECUTED.schedule"), "applyExec"],
              },
              { guard: "execLeavesPlan", actions: [trace("noneScheduled.PROPOSAL_EXECUTED.noop"), "applyExec"] },
              { guard: "execRejected", actions: [trace("noneScheduled.PROPOSAL_EXECUTED.rejected"), "applyExec"] },
            ],
            AUTHORITY_EXEC: [
              {
                guard: "execSetsPlan",
                target: "scheduled",
                actions: [trace("noneScheduled.AUTHORITY_EXEC.schedule"), "applyExec"],
              },
              { guard: "execLeavesPlan", actions: [trace("noneScheduled.AUTHORITY_EXEC.noop"), "applyExec"] },
              { guard: "execRejected", actions: [trace("noneScheduled.AUTHORITY_EXEC.rejected"), "applyExec"] },
            ],
            BLOCK: [{ guard: "blockAttempted", actions: [trace("noneScheduled.BLOCK.noPlan"), "applyBlock"] }],
          },
        },
        scheduled: {
          on: {
            PROPOSAL_EXECUTED: [
              {
                guard: "execSetsPlan",
                target: "scheduled",
                actions: [trace("scheduled.PROPOSAL_EXECUTED.reschedule"), "applyExec"],
              },
              {
                guard: "execClearsPlan",
                target: "noneScheduled",
                actions: [trace("scheduled.PROPOSAL_EXECUTED.cancel"), "applyExec"],
              },
              { guard: "execLeavesPlan", actions: [trace("scheduled.PROPOSAL_EXECUTED.noop"), "applyExec"] },
              { guard: "execRejected", actions: [trace("scheduled.PROPOSAL_EXECUTED.rejected"), "applyExec"] },
            ],
            AUTHORITY_EXEC: [
              {
                guard: "execSetsPlan",
                target: "scheduled",
                actions: [trace("scheduled.AUTHORITY_EXEC.reschedule"), "applyExec"],
              },
              {
                guard: "execClearsPlan",
                target: "noneScheduled",
                actions: [trace("scheduled.AUTHORITY_EXEC.cancel"), "applyExec"],
              },
              { guard: "execLeavesPlan", actions: [trace("scheduled.AUTHORITY_EXEC.noop"), "applyExec"] },
              { guard: "execRejected", actions: [trace("scheduled.AUTHORITY_EXEC.rejected"), "applyExec"] },
            ],
            BLOCK: [
              {
                guard: "blockAppliesPlan",
                target: "noneScheduled",
                actions: [trace("scheduled.BLOCK.apply"), "applyBlock"],
              },
              {
                guard: "blockSkipsPlan",
                target: "noneScheduled",
                actions: [trace("scheduled.BLOCK.skip"), "applyBlock"],
              },
              { guard: "blockAttempted", actions: [trace("scheduled.BLOCK.keep"), "applyBlock"] },
            ],
          },
        },
      },
    },
    chain: {
      initial: "progressing",
      states: {
        progressing: {
          on: {
            BLOCK: [
              { guard: "blockCommits", target: "progressing", actions: [trace("progressing.BLOCK.commit")] },
              { guard: "blockStalls", target: "stalled", actions: [trace("progressing.BLOCK.stall")] },
            ],
          },
        },
        stalled: {
          on: {
            BLOCK: [
              { guard: "blockCommits", target: "progressing", actions: [trace("stalled.BLOCK.commit")] },
              { guard: "blockStalls", target: "stalled", actions: [trace("stalled.BLOCK.stall")] },
            ],
          },
        },
      },
    },
  },
  on: {
    NODE_STARTED: { guard: "nodeStartable", actions: [trace("NODE_STARTED.start"), "startNode"] },
    NODE_STOPPED: { guard: "nodeKnown", actions: [trace("NODE_STOPPED.stop"), "stopNode"] },
    NODE_CAUGHT_UP: { guard: "nodeKnown", actions: [trace("NODE_CAUGHT_UP.catchUp"), "catchUpNode"] },
  },
});

export type UpgradeMachine = typeof upgradeMachine;
