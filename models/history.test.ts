import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { History } from "./history.js";

type Op = { readonly kind: "append" | "withLast"; readonly from: number; readonly item: number };

describe("History: an immutable sequence with O(1) append", () => {
  it("every version keeps its own items whatever is appended to or replaced in any version (against arrays)", () => {
    const op: fc.Arbitrary<Op> = fc.record({
      kind: fc.constantFrom("append" as const, "withLast" as const),
      from: fc.nat(),
      item: fc.integer(),
    });
    fc.assert(
      fc.property(fc.integer(), fc.array(op, { maxLength: 60 }), (first, ops) => {
        const versions: History<number>[] = [History.of(first)];
        const model: number[][] = [[first]];
        for (const o of ops) {
          const i = o.from % versions.length;
          const v = versions[i]!;
          const m = model[i]!;
          versions.push(o.kind === "append" ? v.append(o.item) : v.withLast(o.item));
          model.push(o.kind === "append" ? [...m, o.item] : [...m.slice(0, -1), o.item]);
        }
        versions.forEach((v, i) => {
          expect([...v]).toEqual(model[i]);
          expect(v.length).toBe(model[i]!.length);
          for (let k = -1; k <= v.length; k++) expect(v.at(k)).toBe(model[i]![k] ?? undefined);
          expect(JSON.stringify(v)).toBe(JSON.stringify(model[i]));
        });
      }),
      { numRuns: 300 },
    );
  });

  it("compares equal to another history of the same items, and unequal otherwise", () => {
    expect(History.of(1).append(2).append(3)).toEqual(History.of(0).withLast(1).append(2).append(3));
    expect(History.of(1).append(2)).not.toEqual(History.of(1).append(3));
  });
});
