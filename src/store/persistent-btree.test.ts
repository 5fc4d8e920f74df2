import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanTree } from "./btree-scan.js";
import { PersistentBTree } from "./persistent-btree.js";

type Op =
  | { readonly kind: "set"; readonly key: string; readonly val: number }
  | { readonly kind: "del"; readonly key: string };

const key = fc.integer({ min: 0, max: 400 }).map((n) => n.toString(36).padStart(2, "0"));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("set" as const), key, val: fc.integer() }),
  fc.record({ kind: fc.constant("del" as const), key }),
);
/** Batches of edits: small and large, so nodes split, empty out and collapse. */
const batches = fc.array(fc.array(op, { maxLength: 300 }), { maxLength: 8 });

const apply = (t: PersistentBTree<number>, ops: readonly Op[]) =>
  t.edit((s) => {
    for (const o of ops) o.kind === "set" ? s.set(o.key, o.val) : s.delete(o.key);
  });
const applyModel = (m: Map<string, number>, ops: readonly Op[]) => {
  for (const o of ops) o.kind === "set" ? m.set(o.key, o.val) : m.delete(o.key);
};
const sortedModel = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));
const inRange = (k: string, lo?: string, hi?: string) => (lo === undefined || k >= lo) && (hi === undefined || k < hi);

describe("PersistentBTree", () => {
  it("behaves as a sorted map for get, forward and reverse ranges (forEachEntry as entries, first and last)", () => {
    fc.assert(
      fc.property(batches, fc.option(key, { nil: undefined }), fc.option(key, { nil: undefined }), (bs, lo, hi) => {
        let t = PersistentBTree.empty<number>();
        const m = new Map<string, number>();
        for (const b of bs) {
          t = apply(t, b);
          applyModel(m, b);
        }
        const expected = sortedModel(m).filter(([k]) => inRange(k, lo, hi));
        expect([...t.entries(lo, hi)]).toEqual(expected);
        const visited: [string, number][] = [];
        t.forEachEntry(lo, hi, (k, v) => visited.push([k, v]));
        expect(visited).toEqual(expected);
        // The point seeks: the first and last entry of the range.
        expect(t.first(lo, hi)).toEqual(expected[0]);
        expect(t.last(lo, hi)).toEqual(expected.at(-1));
        expect([...t.entriesReverse(lo, hi)]).toEqual(expected.reverse());
        expect(t.size()).toBe(m.size);
        for (const [k, v] of m) expect(t.get(k)).toBe(v);
        expect(t.get("zzzz")).toBeUndefined();
      }),
    );
  });

  it("never changes a published tree (old roots and iterators are snapshots)", () => {
    fc.assert(
      fc.property(batches, batches, (first, second) => {
        let t = PersistentBTree.empty<number>();
        for (const b of first) t = apply(t, b);
        const before = [...t.entries(undefined, undefined)];
        const it = t.entries(undefined, undefined);
        let u = t;
        for (const b of second) u = apply(u, b);
        // a fork edited independently
        let w = t;
        for (const b of second) w = apply(w, [...b].reverse());
        expect([...t.entries(undefined, undefined)]).toEqual(before);
        expect([...it]).toEqual(before);
      }),
    );
  });

  it("handles a large sequential load and drain", () => {
    let t = PersistentBTree.empty<number>();
    const keys = Array.from({ length: 20_000 }, (_, i) => i.toString().padStart(6, "0"));
    t = t.edit((s) => {
      for (const [i, k] of keys.entries()) s.set(k, i);
    });
    expect(t.size()).toBe(20_000);
    expect([...t.entries("009990", "010002")].map(([k]) => k)).toEqual(keys.slice(9990, 10002));
    t = t.edit((s) => {
      for (const k of keys.slice(0, 19_990)) s.delete(k);
    });
    expect([...t.entriesReverse(undefined, undefined)].map(([, v]) => v)).toEqual(
      Array.from({ length: 10 }, (_, i) => 19_999 - i),
    );
  });
});

describe("scanTree", () => {
  it("visits what a sorted map's walk with the same skips and stop visits", () => {
    // After each visited key: go on (0), skip ahead by a few keys' worth (1..3 as a suffix bump), or stop (4).
    const choice = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(fc.nat(400), batches, key, fc.option(key, { nil: undefined }), choice, (n, bs, lo, hi, choices) => {
        // A filled tree first (up to 401 keys: several leaves and a branch level), then the edits.
        const fill: Op[] = Array.from({ length: n + 1 }, (_, i) => ({
          kind: "set",
          key: i.toString(36).padStart(2, "0"),
          val: i,
        }));
        let t = PersistentBTree.empty<number>();
        const m = new Map<string, number>();
        for (const b of [fill, ...bs]) {
          t = apply(t, b);
          applyModel(m, b);
        }
        const stepOf = (k: string, n: number): string | undefined | null => {
          const c = choices[n % choices.length]!;
          if (c === 0) return undefined;
          if (c === 4 && n > 20) return null;
          return c === 4 ? undefined : `${k.slice(0, 1)}${String.fromCharCode(k.charCodeAt(1) + c)}`;
        };
        const visited: string[] = [];
        scanTree(t.image(), lo, hi, (k) => stepOf(k, visited.push(k) - 1));
        const expected: string[] = [];
        let from = lo;
        for (const [k] of sortedModel(m)) {
          if (k < from || !inRange(k, lo, hi)) continue;
          const step = stepOf(k, expected.push(k) - 1);
          if (step === null) break;
          if (step !== undefined) from = step;
        }
        expect(visited).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
