import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type OrderedJson, stringifyGo } from "./json.js";
import { goHtmlEscape } from "./json-compiled.js";

/**
 * The JSON writer's plain-object path (JSON.stringify over plain objects) against the ordered writer it
 * replaced: the same text for any ordered value, including keys a plain object would reorder or merge (array
 * indices, digit-led keys, repeated keys, `__proto__`), strings with escapes, lone surrogates and HTML characters.
 */

/** The writer as it was: keys in their order, arrays and objects joined. */
function reference(v: OrderedJson): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(reference).join(",")}]`;
  const obj = v as { readonly entries: readonly (readonly [string, OrderedJson])[] };
  return `{${obj.entries.map(([k, x]) => `${JSON.stringify(k)}:${reference(x)}`).join(",")}}`;
}

const key = fc.oneof(
  fc.constantFrom("a", "b", "id", "0", "1", "10", "01", "4294967295", "-1", "__proto__", "toJSON", "@type", "x<y"),
  fc.string({ maxLength: 6 }),
);
const leaf: fc.Arbitrary<OrderedJson> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer(),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom("<&>", "\u2028\u2029", "\ud800", '"\\'),
);
const { json } = fc.letrec<{ json: OrderedJson }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("json"), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie("json")), { maxLength: 5 }).map((entries) => ({ entries }) as OrderedJson),
  ),
}));

describe("gateway JSON text", () => {
  it("is the ordered writer's text for any ordered value", () => {
    fc.assert(
      fc.property(json, (v) => {
        expect(stringifyGo(v)).toBe(goHtmlEscape(reference(v)));
      }),
      { numRuns: 3000 },
    );
  });
  it("keeps digit-led, repeated and __proto__ keys where they are", () => {
    const v: OrderedJson = {
      entries: [
        ["b", 1],
        ["1", 2],
        ["b", 3],
        ["__proto__", { entries: [["0", null]] }],
      ],
    };
    expect(stringifyGo(v)).toBe('{"b":1,"1":2,"b":3,"__proto__":{"0":null}}');
  });
});
