import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../chain/trace-events.js";
import { IntentLedger, type ModelNode } from "./intent.js";

const step = (index: number, action: string): Extract<TraceEvent, { kind: "step" }> => ({
  kind: "step",
  index,
  label: null,
  action,
  timeMs: 0,
  height: 5,
});
const start = (node: string, binary: string, skip: number[] = []): Extract<TraceEvent, { kind: "start" }> => ({
  kind: "start",
  node,
  binary,
  skip,
  timeMs: 0,
});
const stop = (node: string): Extract<TraceEvent, { kind: "stop" }> => ({ kind: "stop", node, timeMs: 0 });
const running =
  (binary: string, skipHeights: number[] = []) =>
  (): ModelNode => ({
    stopped: false,
    binary,
    skipHeights,
  });
const schedule = { type: "softwareUpgrade" as const, plan: { name: "v2", height: 20, info: "" } };

describe("the intent ledger: the model stepped from what the operator asked for", () => {
  it("steps a swap from the operator's binary, and takes the trace's stop and start as its echo", () => {
    const l = new IntentLedger();
    l.expect(0, { kind: "node", action: "swapBinary", node: "val1", binary: "v2", skip: undefined });
    expect(l.onStep(step(0, "swapBinary"), running("v1", [7]))).toEqual([
      { type: "NODE_STOPPED", node: "val1" },
      { type: "NODE_STARTED", node: "val1", binary: "v2", skipHeights: [7] },
      { type: "NODE_CAUGHT_UP", node: "val1" },
    ]);
    expect(l.onNodeEvent(stop("val1"))).toBe(true);
    expect(l.onNodeEvent(start("val1", "v2", [7]))).toBe(true);
    l.settle(0);
    expect(l.gaps).toEqual([]);
  });

  it("finds a swap the launcher performed with the old binary", () => {
    const l = new IntentLedger();
    l.expect(0, { kind: "node", action: "swapBinary", node: "val1", binary: "v2", skip: [] });
    l.onStep(step(0, "swapBinary"), running("v1"));
    l.onNodeEvent(stop("val1"));
    l.onNodeEvent(start("val1", "v1"));
    expect(l.gaps).toEqual(["step 0 (swapBinary): val1 was to start v2 skipping [], the trace shows v1 skipping []"]);
  });

  it("finds a swap the chain dropped: no restart follows the step", () => {
    const l = new IntentLedger();
    l.expect(3, { kind: "node", action: "swapBinary", node: "val2", binary: "v2", skip: [] });
    l.onStep(step(3, "swapBinary"), running("v1"));
    l.onOtherEvent(); // the next block
    expect(l.gaps).toEqual(["step 3 (swapBinary): the trace shows no stop then start of val2"]);
  });

  it("restarts on the binary the model says the node runs; a stop of a stopped node is silent", () => {
    const l = new IntentLedger();
    l.expect(0, { kind: "node", action: "restart", node: "val1", binary: undefined, skip: [12] });
    const stopped = (): ModelNode => ({ stopped: true, binary: "v2", skipHeights: [] });
    expect(l.onStep(step(0, "restart"), stopped)).toEqual([
      { type: "NODE_STARTED", node: "val1", binary: "v2", skipHeights: [12] },
      { type: "NODE_CAUGHT_UP", node: "val1" },
    ]);
    expect(l.onNodeEvent(start("val1", "v2", [12]))).toBe(true);
    l.expect(1, { kind: "node", action: "stop", node: "val1", binary: undefined, skip: undefined });
    expect(l.onStep(step(1, "stop"), stopped)).toEqual([]);
    expect(l.gaps).toEqual([]);
  });

  it("leaves a sidecar's start to the trace: it is no operator's action", () => {
    const l = new IntentLedger();
    expect(l.onNodeEvent(start("val3", "v2"))).toBe(false);
    expect(l.gaps).toEqual([]);
  });

  it("steps an authority transaction with the messages the harness signed, in the block it landed in", () => {
    const l = new IntentLedger();
    l.expect(0, { kind: "authority", msgs: [schedule] });
    l.onStep(step(0, "authorityExec"), running("v1"));
    expect(l.onAuthorityTx(6, [schedule])).toEqual([schedule]);
    l.onCommit(6);
    expect(l.gaps).toEqual([]);
  });

  it("finds an authority transaction that a committed block left out, or whose messages it changed", () => {
    const lost = new IntentLedger();
    lost.expect(0, { kind: "authority", msgs: [schedule] });
    lost.onStep(step(0, "authorityExec"), running("v1"));
    lost.onCommit(6);
    expect(lost.gaps).toEqual(["step 0 (authorityExec): block 6 committed without its transaction"]);

    const bent = new IntentLedger();
    bent.expect(0, { kind: "authority", msgs: [schedule] });
    bent.onStep(step(0, "authorityExec"), running("v1"));
    const shown = [{ type: "softwareUpgrade" as const, plan: { name: "v2", height: 21, info: "" } }];
    expect(bent.onAuthorityTx(6, shown)).toEqual([schedule]);
    expect(bent.gaps).toHaveLength(1);
    expect(bent.gaps[0]).toContain("block 6 shows messages");
  });

  it("finds a step that never ran, and a transaction no step sent", () => {
    const l = new IntentLedger();
    l.expect(4, { kind: "node", action: "stop", node: "val4", binary: undefined, skip: undefined });
    l.settle(4);
    expect(l.onAuthorityTx(9, [schedule])).toBeUndefined();
    expect(l.gaps).toEqual(["step 4 (stop) never ran", "block 9: an authority transaction no step sent"]);
  });
});
