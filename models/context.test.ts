import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contextWith, initialContext, nodeWith } from "./context.js";
import type { NodeState, OracleContext } from "./types.js";

/**
 * contextWith and nodeWith against the spreads they replace: the same values and the same keys in the same order,
 * for every subset of fields changed to arbitrary values (null included, which must not fall back to the old one).
 */
const ctx0 = initialContext({
  binaries: { v1: { handlers: {} } },
  nodes: [
    { name: "a", binary: "v1", power: 1 },
    { name: "b", binary: "v1" },
  ],
});
const node0 = ctx0.nodes[0]!;
/** The same keys with distinct non-null values, so a change to null must not keep the old value. */
const sentinels = <T extends object>(o: T): T =>
  Object.fromEntries(Object.keys(o).map((k) => [k, `old-${k}`])) as unknown as T;
const ctxBase = sentinels(ctx0);
const nodeBase = sentinels(node0);

const value = fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 4 }), fc.boolean(), fc.array(fc.nat()));
const changeOf = (keys: readonly string[]) =>
  fc.subarray([...keys]).chain((picked) => fc.tuple(...picked.map((k) => value.map((v) => [k, v] as const))));

/** `withFn(base, change)` equals `{ ...base, ...change }`, values and key order, for any subset of fields changed. */
function holdsLikeSpread<T extends object>(base: T, withFn: (o: T, change: Partial<T>) => T): void {
  fc.assert(
    fc.property(changeOf(Object.keys(base)), (pairs) => {
      const change = Object.fromEntries(pairs) as Partial<T>;
      const lit = withFn(base, change);
      const spread = { ...base, ...change };
      expect(lit).toStrictEqual(spread);
      expect(Object.keys(lit)).toEqual(Object.keys(spread));
    }),
    { numRuns: 300 },
  );
}

describe("contextWith and nodeWith", () => {
  it("equal { ...ctx, ...change }, keys in order, for any fields changed", () => {
    holdsLikeSpread<OracleContext>(ctxBase, contextWith);
  });

  it("equal { ...node, ...change }, keys in order, for any fields changed", () => {
    holdsLikeSpread<NodeState>(nodeBase, nodeWith);
  });
});
