import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonEqual, sameJson } from "./same-json.js";

/** sameJson answers true only where the JSON texts (bigints as strings) are equal, and does so for equal data. */
const j = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x));

const anything = fc.anything({
  maxDepth: 3,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withSparseArray: true,
  withTypedArray: true,
});

describe("sameJson", () => {
  it("is true only when the JSON texts are equal (arbitrary pairs, and a value against its structured clone)", () => {
    fc.assert(
      fc.property(anything, anything, (a, b) => {
        if (sameJson(a, b)) expect(j(a)).toBe(j(b));
        let copy: unknown;
        try {
          copy = structuredClone(a);
        } catch {
          return;
        }
        if (sameJson(a, copy)) expect(j(a)).toBe(j(copy));
      }),
      { numRuns: 3000 },
    );
  });

  it("finds equal plain data equal, and tells different or differently ordered data apart", () => {
    const node = { status: "running", binary: "v2", height: 12 };
    expect(sameJson(node, { ...node })).toBe(true);
    expect(sameJson([["a", 3, "halt", "msg"]], [["a", 3, "halt", "msg"]])).toBe(true);
    expect(sameJson({ v: 1n }, { v: 1n })).toBe(true);
    expect(sameJson(node, { ...node, height: 13 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson(new Number(1), new Number(2))).toBe(false);
    expect(sameJson({ a: undefined }, { a: undefined })).toBe(false);
  });

  it("jsonEqual is the texts' equality, sameJson's shortcut or not (arbitrary pairs and clones)", () => {
    fc.assert(
      fc.property(anything, anything, (a, b) => {
        expect(jsonEqual(a, b, j)).toBe(j(a) === j(b));
        expect(jsonEqual(a, a, j)).toBe(true);
      }),
      { numRuns: 1000 },
    );
    expect(jsonEqual({ a: undefined }, {}, j)).toBe(true);
  });
});
