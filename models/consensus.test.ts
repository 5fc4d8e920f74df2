import { describe, expect, it } from "vitest";
import { type BlockResolution, resolveBlock } from "./consensus.js";
import { resolveBlockUnshared } from "./consensus-plain.js";
import { initialContext } from "./context.js";
import { History } from "./history.js";
import type { OracleContext, OracleInput } from "./types.js";

/**
 * The lean block rule against the plain one where PreBlock inputs differ in one field only: nodes that may share a
 * PreBlock outcome are exactly those with equal inputs (skip heights compared item by item, not by their joined text).
 */
const WORLD: OracleInput = {
  binaries: { v1: { handlers: {} }, v2: { handlers: { up: "ok" } } },
  nodes: [
    { name: "a", binary: "v2", power: 1 },
    { name: "b", binary: "v2", power: 1, skipHeights: [1] },
    { name: "c", binary: "v2", power: 1, skipHeights: [1, 2] },
    { name: "d", binary: "v2", power: 1, skipHeights: [12] },
  ],
};

/** The same keys in the same order (JSON of model values is compared as text elsewhere), on the context and nodes. */
function expectSameKeys(lean: BlockResolution, plain: BlockResolution): void {
  expect(Object.keys(lean.context)).toEqual(Object.keys(plain.context));
  expect(lean.context.nodes.map((n) => Object.keys(n))).toEqual(plain.context.nodes.map((n) => Object.keys(n)));
  expect(Object.keys(lean.context.lastBlock ?? {})).toEqual(Object.keys(plain.context.lastBlock ?? {}));
}

function withPlanAt1(ctx: OracleContext): OracleContext {
  const genesis = ctx.states.at(0)!;
  return { ...ctx, states: History.of({ ...genesis, plan: { name: "up", height: 1n, info: "" } }) };
}

describe("resolveBlock (lean) against the plain rule", () => {
  it("shares a PreBlock only between equal inputs: skipping and applying nodes split, as the plain rule splits them", () => {
    const ctx = withPlanAt1(initialContext(WORLD));
    const lean = resolveBlock(ctx, 1);
    expect(lean).toEqual(resolveBlockUnshared(ctx, 1));
    expectSameKeys(lean, resolveBlockUnshared(ctx, 1));
    // a and d apply the handler, b and c skip the plan: two halves, neither above 2/3, so the chain stalls.
    expect(lean.committed).toBe(false);
    expect(lean.context.lastBlock?.handlerRanOn).toEqual(["a", "d"]);
  });

  it("keeps the same answer for the same context, and a fresh one for another", () => {
    const ctx = initialContext(WORLD);
    const first = resolveBlock(ctx, 1);
    expect(resolveBlock(ctx, 1)).toBe(first);
    expect(first.committed).toBe(true);
    expectSameKeys(first, resolveBlockUnshared(ctx, 1));
    const second = resolveBlock(first.context, 2);
    expect(second).toEqual(resolveBlockUnshared(first.context, 2));
    expectSameKeys(second, resolveBlockUnshared(first.context, 2));
    const other = { ...ctx };
    expect(resolveBlock(other, 1)).toEqual(first);
    expect(resolveBlock(other, 2).valid).toBe(false);
  });
});
