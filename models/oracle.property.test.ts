import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { transition } from "xstate";
import { resolveBlock } from "./consensus.js";
import { resolveBlockUnshared } from "./consensus-plain.js";
import { coverageFromIds } from "./coverage.js";
import { createOracle, type Oracle, observe, predict, step, stepBlocks, transitionOf } from "./oracle.js";
import type { OracleEvent, OracleInput, UpgradeMsg } from "./types.js";
import { upgradeMachine } from "./upgrade-machine.js";

/** Three equal validators and a full node; binaries with and without handlers for two plan names. */
const WORLD: OracleInput = {
  binaries: {
    v1: { handlers: {} },
    v2: { handlers: { up: "ok" }, storeUpgrades: { up: { added: ["extra"] } } },
    v2fail: { handlers: { up: { error: "boom" } } },
    v3: { handlers: { up: "ok", up2: "ok" } },
  },
  nodes: [
    { name: "a", binary: "v1", power: 1 },
    { name: "b", binary: "v1", power: 1 },
    { name: "c", binary: "v1", power: 1 },
    { name: "full", binary: "v1" },
  ],
};
const NODES = ["a", "b", "c", "full"] as const;
const BINARIES = ["v1", "v2", "v2fail", "v3"] as const;
/** Node events sometimes name a node or a binary the world does not have (their guards fail: nothing happens). */
const eventNode = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...NODES) },
  { weight: 1, arbitrary: fc.constant("ghost") },
);
const eventBinary = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...BINARIES) },
  { weight: 1, arbitrary: fc.constant("v9") },
);

/** Events relative to the chain height at the time they are sent. */
type Draft =
  | { readonly kind: "block"; readonly offset: number }
  | {
      readonly kind: "exec";
      readonly source: "PROPOSAL_EXECUTED" | "AUTHORITY_EXEC";
      readonly msgs: readonly MsgDraft[];
    }
  | { readonly kind: "start"; readonly node: string; readonly binary: string; readonly skip: readonly number[] | null }
  | { readonly kind: "stop"; readonly node: string }
  | { readonly kind: "catchUp"; readonly node: string };
type MsgDraft = { readonly cancel: true } | { readonly name: string; readonly offset: number };

const msgDraft: fc.Arbitrary<MsgDraft> = fc.oneof(
  fc.constant({ cancel: true as const }),
  fc.record({ name: fc.constantFrom("up", "up2", ""), offset: fc.integer({ min: -2, max: 4 }) }),
);
const draft: fc.Arbitrary<Draft> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("block" as const), offset: fc.constantFrom(1, 1, 1, 0, 2) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("exec" as const),
      source: fc.constantFrom("PROPOSAL_EXECUTED" as const, "AUTHORITY_EXEC" as const),
      msgs: fc.array(msgDraft, { maxLength: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("start" as const),
      node: eventNode,
      binary: eventBinary,
      skip: fc.option(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 2 }), { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("stop" as const), node: eventNode }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("catchUp" as const), node: eventNode }) },
);

function materialize(o: Oracle, d: Draft): OracleEvent {
  const h = o.snapshot.context.height;
  switch (d.kind) {
    case "block":
      return { type: "BLOCK", height: h + d.offset };
    case "exec":
      return {
        type: d.source,
        height: h,
        msgs: d.msgs.map(
          (m): UpgradeMsg =>
            "cancel" in m
              ? { type: "cancelUpgrade" }
              : { type: "softwareUpgrade", plan: { name: m.name, height: h + m.offset } },
        ),
      };
    case "start":
      return d.skip === null
        ? { type: "NODE_STARTED", node: d.node, binary: d.binary }
        : { type: "NODE_STARTED", node: d.node, binary: d.binary, skipHeights: d.skip.map((s) => h + s) };
    case "stop":
      return { type: "NODE_STOPPED", node: d.node };
    case "catchUp":
      return { type: "NODE_CAUGHT_UP", node: d.node };
  }
}

function checkInvariants(prev: Oracle, next: Oracle): void {
  const p = predict(next.snapshot);
  const ctx = next.snapshot.context;
  // The plan region mirrors the committed plan slot; the chain region mirrors the last block attempt.
  expect(p.regions.plan).toBe(p.plan === null ? "noneScheduled" : "scheduled");
  expect(p.stalled).toBe(p.lastBlock !== null && !p.lastBlock.committed);
  // A due plan never survives a committed block: only a plan scheduled at the current height may be <= it.
  if (p.plan !== null) expect(BigInt(p.plan.height) >= BigInt(p.height)).toBe(true);
  // Every applied upgrade ran its handler exactly once on the chain and bumped the protocol version.
  expect(p.protocolVersion).toBe(Object.keys(p.applied).length);
  expect(p.handlerRuns).toEqual(Object.fromEntries(Object.keys(p.applied).map((n) => [n, 1])));
  // Nodes never get ahead of the chain; a halted node's status matches its last halt record.
  for (const n of ctx.nodes) {
    expect(n.lastHeight).toBeLessThanOrEqual(ctx.height);
    if (n.status.state === "halted") {
      const last = ctx.halts.filter((r) => r.node === n.name).at(-1);
      expect(last).toEqual({ node: n.name, height: n.status.height, kind: n.status.kind, message: n.status.message });
    }
  }
  // Nothing fired ⇔ nothing changed.
  if (next.fired.length === 0) expect(next.snapshot.context).toBe(prev.snapshot.context);
  // Committing nodes are exactly the ones now at the chain height after a committed block.
  if (p.lastBlock?.committed === true && next.fired.some((id) => id.endsWith("BLOCK.commit"))) {
    for (const name of p.lastBlock.committedBy) expect(p.nodes[name]?.height).toBe(p.height);
  }
}

/** The transition ids of xstate's collected actions (the `trace` markers). */
const firedIds = (actions: readonly { readonly type: string; readonly params?: unknown }[]): string[] =>
  actions.flatMap((a) => {
    const id = (a.params as { id?: unknown } | undefined)?.id;
    return a.type === "trace" && typeof id === "string" ? [id] : [];
  });

describe("oracle invariants under random event sequences", () => {
  it("hold after every step, and replays are deterministic", () => {
    const fired = new Set<string>();
    fc.assert(
      fc.property(fc.array(draft, { minLength: 1, maxLength: 40 }), (drafts) => {
        let o = createOracle(WORLD);
        const events: OracleEvent[] = [];
        for (const d of drafts) {
          const event = materialize(o, d);
          events.push(event);
          const next = step(o, event);
          checkInvariants(o, next);
          for (const id of next.fired) fired.add(id);
          o = next;
        }
        const replay = events.reduce(step, createOracle(WORLD));
        expect(JSON.stringify(observe(replay.snapshot))).toBe(JSON.stringify(observe(o.snapshot)));
      }),
      { numRuns: 150 },
    );
    // Random runs reach most of the machine; the graph-generated paths (coverage.test.ts) reach all of it.
    expect(coverageFromIds(fired).ratio).toBeGreaterThan(0.5);
  });
});

describe("the oracle's shortcuts change no output", () => {
  it("one shared actor scope, and step()'s direct paths for node events and value-keeping BLOCKs = xstate's transition(); shared PreBlocks and keys = one PreBlock per node", () => {
    fc.assert(
      fc.property(fc.array(draft, { minLength: 1, maxLength: 40 }), (drafts) => {
        let o = createOracle(WORLD);
        for (const d of drafts) {
          const event = materialize(o, d);
          const [reference, referenceActions] = transition(upgradeMachine, o.snapshot, event);
          const [shared, sharedActions] = transitionOf(o.snapshot, event);
          expect(shared.value).toEqual(reference.value);
          expect(shared.context).toEqual(reference.context);
          // Actions compared as data: their `info` names the (throwaway or shared) actor that collected them.
          const data = (a: { type: string; params?: unknown }) => ({ type: a.type, params: a.params });
          expect(sharedActions.map(data)).toEqual(referenceActions.map(data));
          if (event.type === "BLOCK")
            expect(resolveBlock(o.snapshot.context, event.height)).toEqual(
              resolveBlockUnshared(o.snapshot.context, event.height),
            );
          // step() takes node events, and BLOCKs that keep the state value, past xstate's macrostep: the same
          // value, context, status, tags, history and fired ids.
          const stepped = step(o, event);
          expect(stepped.snapshot.value).toEqual(reference.value);
          expect(stepped.snapshot.context).toEqual(reference.context);
          expect(stepped.snapshot.status).toBe(reference.status);
          expect([...stepped.snapshot.tags]).toEqual([...reference.tags]);
          expect(stepped.snapshot.historyValue).toEqual(reference.historyValue);
          expect(stepped.snapshot._nodes.map((n) => n.id)).toEqual(reference._nodes.map((n) => n.id));
          expect(stepped.fired).toEqual(firedIds(referenceActions));
          o = stepped;
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("step()'s direct BLOCK path", () => {
  it("takes a stalled chain's retries (a stall while stalled) to the same snapshot and ids as xstate", () => {
    let o = step(step(createOracle(WORLD), { type: "NODE_STOPPED", node: "a" }), { type: "NODE_STOPPED", node: "b" });
    for (let i = 0; i < 3; i++) {
      const [reference, actions] = transition(upgradeMachine, o.snapshot, { type: "BLOCK", height: 1 });
      const stepped = step(o, { type: "BLOCK", height: 1 });
      expect(stepped.snapshot.value).toEqual(reference.value);
      expect(stepped.snapshot.context).toEqual(reference.context);
      expect(stepped.fired).toEqual(firedIds(actions));
      o = stepped;
    }
    expect(o.fired).toEqual(["noneScheduled.BLOCK.noPlan", "stalled.BLOCK.stall"]);
  });
});

describe("an idle stretch stepped as one range", () => {
  it("= a BLOCK per height: the same snapshot (value, context) and the same fired ids in order", () => {
    fc.assert(
      fc.property(
        fc.array(draft, { maxLength: 30 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 6 }),
        (drafts, skew, length) => {
          let o = createOracle(WORLD);
          for (const d of drafts) o = step(o, materialize(o, d));
          // Usually the next heights; sometimes a range that starts out of turn (nothing fires for those heights).
          const from = o.snapshot.context.height + 1 - (skew === 2 ? 1 : 0);
          const to = from + length;
          // The reference: xstate's own transition() for each BLOCK.
          let reference = o;
          const referenceFired: string[] = [];
          for (let h = from; h <= to; h++) {
            const [snapshot, actions] = transition(upgradeMachine, reference.snapshot, { type: "BLOCK", height: h });
            reference = { snapshot, fired: [] };
            referenceFired.push(...firedIds(actions));
          }
          const ranged = stepBlocks(o, from, to);
          expect(ranged.snapshot.value).toEqual(reference.snapshot.value);
          expect(ranged.snapshot.context).toEqual(reference.snapshot.context);
          expect(ranged.fired).toEqual(referenceFired);
          // It steps on exactly as the reference does.
          for (const d of drafts.slice(0, 5)) {
            const e = materialize(reference, d);
            expect(step(ranged, e).snapshot.context).toEqual(step(reference, e).snapshot.context);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
