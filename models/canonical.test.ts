import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalJsonReference } from "./canonical.js";

/**
 * The direct writer against the reference (JSON.stringify with the sorting replacer): the same text, or the same
 * error, for arbitrary values (nested objects and arrays, bigints, undefined members, holes, NaN and -0, index-like
 * and `__proto__` keys, dates, maps, typed arrays, boxed values, null prototypes) and for oracle-shaped states.
 */

const outcome = (f: () => string): { text: string | undefined } | { error: string } => {
  try {
    return { text: f() };
  } catch (e) {
    return { error: String(e) };
  }
};

const keys = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom("0", "1", "10", "01", "-1", "4294967294", "4294967295", "4294967296", "__proto__", "é", "\ud800"),
);

const values = fc.anything({
  key: keys,
  maxDepth: 4,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
});

const state = fc.record({
  plan: fc.option(fc.record({ name: fc.string(), height: fc.bigInt(), info: fc.string() })),
  done: fc.dictionary(fc.string({ maxLength: 5 }), fc.record({ height: fc.integer(), ok: fc.boolean() })),
  protocolVersion: fc.integer(),
  moduleVersions: fc.array(fc.tuple(fc.string({ maxLength: 5 }), fc.bigInt({ min: 0n, max: 99n }))),
  stores: fc.array(fc.string({ maxLength: 6 })),
  skipped: fc.constant(undefined),
});

describe("canonicalJson", () => {
  it("writes what the sorting replacer writes, for arbitrary values", () => {
    fc.assert(
      fc.property(values, (v) => {
        expect(outcome(() => canonicalJson(v))).toStrictEqual(outcome(() => canonicalJsonReference(v)));
      }),
      { numRuns: 3000 },
    );
  });

  it("writes what the sorting replacer writes, for oracle states and block keys", () => {
    fc.assert(
      fc.property(state, fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }), (post, effects) => {
        expect(canonicalJson({ post, effects })).toBe(canonicalJsonReference({ post, effects }));
      }),
      { numRuns: 500 },
    );
  });

  it("sorts keys by code unit, writes bigints as strings, leaves undefined members out", () => {
    const v = { b: 1n, a: [undefined, NaN, -0], c: undefined, "10": true, "9": null };
    expect(canonicalJson(v)).toBe('{"9":null,"10":true,"a":[null,null,0],"b":"1"}');
    expect(canonicalJson({ z: { y: "\u2028", x: [{}] } })).toBe('{"z":{"x":[{}],"y":"\u2028"}}');
  });

  it("throws as the reference does on a cycle (its rebuilt objects overflow the stack)", () => {
    const a: Record<string, unknown> = { k: 1 };
    a.self = { a };
    expect(outcome(() => canonicalJson(a))).toStrictEqual(outcome(() => canonicalJsonReference(a)));
    expect(() => canonicalJson(a)).toThrow(RangeError);
  });
});
