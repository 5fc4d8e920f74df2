import { describe, expect, it } from "vitest";
import { machineTransitions } from "./coverage.js";
import { FAST_PATH, FAST_PATH_SITES, stateNodeId, traceIds, transitionDef, transitionId } from "./transition-ids.js";

describe("the fast path's transition ids come from the statechart", () => {
  it("each fast-path id is a transition of the machine, at the source and on the event it names", () => {
    const byId = new Map(machineTransitions().map((t) => [t.id, t]));
    for (const [key, [source, event]] of Object.entries(FAST_PATH_SITES)) {
      const id = FAST_PATH[key as keyof typeof FAST_PATH];
      expect(byId.get(id), key).toMatchObject({ source: stateNodeId(source), event });
    }
    // The ids the oracle reports today (oracle.test.ts pins them as fired by xstate's own transition()).
    expect(FAST_PATH).toEqual({
      nodeStart: "NODE_STARTED.start",
      nodeStop: "NODE_STOPPED.stop",
      nodeCatchUp: "NODE_CAUGHT_UP.catchUp",
      planKeep: "scheduled.BLOCK.keep",
      planNone: "noneScheduled.BLOCK.noPlan",
      chainCommit: "progressing.BLOCK.commit",
      chainStall: "stalled.BLOCK.stall",
    });
  });

  it("node events and plan-keeping blocks are targetless: the fast path keeps the state value", () => {
    for (const key of ["nodeStart", "nodeStop", "nodeCatchUp", "planKeep", "planNone"] as const) {
      const [source, event, guard] = FAST_PATH_SITES[key];
      const def = transitionDef(source, event, guard);
      expect(def.target ?? [], key).toEqual([]);
      // One trace marker and one assign: the fast path applies that assign's function and nothing else.
      expect(def.actions, key).toHaveLength(2);
      expect(traceIds(def.actions as readonly unknown[]), key).toEqual([FAST_PATH[key]]);
    }
  });

  it("a commit while progressing and a stall while stalled re-enter their own state and only trace", () => {
    for (const key of ["chainCommit", "chainStall"] as const) {
      const [source, event, guard] = FAST_PATH_SITES[key];
      const def = transitionDef(source, event, guard);
      expect(
        (def.target ?? []).map((t) => t.id),
        key,
      ).toEqual([stateNodeId(source)]);
      expect(def.actions, key).toEqual([{ type: "trace", params: { id: FAST_PATH[key] } }]);
    }
  });

  it("a site the machine does not have is an error, never a guessed id", () => {
    expect(() => transitionId("plan.scheduled", "BLOCK", "noSuchGuard")).toThrow(/0 transitions/);
    expect(() => transitionId("chain.stalled", "NODE_STARTED", "nodeStartable")).toThrow(/0 transitions/);
  });
});
