import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromUtf8, toHex, utf8 } from "../core/bytes.js";
import { errorText } from "../core/errors.js";
import type { KVStore } from "../core/kv.js";
import { PRUNE_EVERYTHING, PRUNE_NOTHING } from "./pruning.js";
import type { MultiStore } from "./types.js";
import { VersionedMultiStore } from "./versioned.js";

type Op = readonly [store: "a" | "b", key: number, value: number | null, commitAfter: boolean];
const STORES = ["a", "b"];
const op: fc.Arbitrary<Op> = fc.tuple(
  fc.constantFrom("a" as const, "b" as const),
  fc.integer({ min: 0, max: 6 }),
  fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
  fc.boolean(),
);
const key = (k: number) => Uint8Array.of(k, 0xff);
const val = (v: number) => Uint8Array.of(v);

/** Applies the ops, committing where marked and once at the end; returns the final commit. */
function replay(ops: readonly Op[], split = true) {
  const ms = new VersionedMultiStore({ storeNames: STORES, pruning: PRUNE_EVERYTHING });
  const ids = [];
  for (const [s, k, v, commitAfter] of ops) {
    const kv = ms.getKVStore(s);
    if (v === null) kv.delete(key(k));
    else kv.set(key(k), val(v));
    if (split && commitAfter) ids.push(ms.commit());
  }
  ids.push(ms.commit());
  return { ms, ids };
}
const content = (ops: readonly Op[]) => {
  const m = new Map<string, number>();
  for (const [s, k, v] of ops) {
    if (v === null) m.delete(`${s}/${k}`);
    else m.set(`${s}/${k}`, v);
  }
  return JSON.stringify([...m].sort(([x], [y]) => (x < y ? -1 : 1)));
};
const dump = (kv: KVStore) => [...kv.iterator(undefined, undefined)].map(([k, v]) => `${fromUtf8(k)}=${fromUtf8(v)}`);
const at = (ms: VersionedMultiStore, v: number): MultiStore => {
  const r = ms.readAt(v);
  if (!r.ok) throw new Error(errorText(r.error));
  return r.value;
};

describe("app hash", () => {
  it("same operations give the same commit ids on independent instances", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        expect(replay(ops).ids).toEqual(replay(ops).ids);
      }),
    );
  });

  it("depends on the final content only, not on how it was split into blocks", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const split = replay(ops, true).ids.at(-1)!.appHash;
        const single = replay(ops, false).ids.at(-1)!.appHash;
        expect(toHex(split)).toBe(toHex(single));
      }),
    );
  });

  it("differing final content gives differing hashes", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), fc.array(op, { maxLength: 30 }), (x, y) => {
        const hx = toHex(replay(x).ids.at(-1)!.appHash);
        const hy = toHex(replay(y).ids.at(-1)!.appHash);
        expect(hx === hy).toBe(content(x) === content(y));
      }),
    );
  });

  it("covers store names: an empty store counts, and the same entry in another store differs", () => {
    const hashOf = (names: string[], fill: (ms: VersionedMultiStore) => void) => {
      const ms = new VersionedMultiStore({ storeNames: names, pruning: PRUNE_NOTHING });
      fill(ms);
      return toHex(ms.commit().appHash);
    };
    const none = () => {};
    expect(hashOf(["a"], none)).not.toBe(hashOf(["a", "b"], none));
    expect(hashOf(["a", "b"], (m) => m.getKVStore("a").set(utf8("k"), utf8("v")))).not.toBe(
      hashOf(["a", "b"], (m) => m.getKVStore("b").set(utf8("k"), utf8("v"))),
    );
    // key/value boundaries are unambiguous
    expect(hashOf(["a"], (m) => m.getKVStore("a").set(utf8("ab"), utf8("c")))).not.toBe(
      hashOf(["a"], (m) => m.getKVStore("a").set(utf8("a"), utf8("bc"))),
    );
  });
});

describe("clone", () => {
  it("is independent in both directions and shares the committed history", () => {
    const ms = new VersionedMultiStore({ storeNames: STORES, pruning: PRUNE_NOTHING });
    ms.getKVStore("a").set(utf8("k"), utf8("1"));
    ms.commit();
    ms.getKVStore("a").set(utf8("pending"), utf8("p"));
    const c = ms.clone();
    expect(c.lastCommitId()).toEqual(ms.lastCommitId());
    expect(dump(c.getKVStore("a"))).toEqual(["k=1", "pending=p"]);

    c.getKVStore("a").set(utf8("k"), utf8("clone"));
    c.getKVStore("b").set(utf8("only"), utf8("clone"));
    const cid = c.commit();
    ms.getKVStore("a").delete(utf8("k"));
    const mid = ms.commit();

    expect(cid.version).toBe(2);
    expect(mid.version).toBe(2);
    expect(toHex(cid.appHash)).not.toBe(toHex(mid.appHash));
    expect(dump(at(ms, 2).getKVStore("a"))).toEqual(["pending=p"]);
    expect(dump(at(ms, 2).getKVStore("b"))).toEqual([]);
    expect(dump(at(c, 2).getKVStore("a"))).toEqual(["k=clone", "pending=p"]);
    expect(dump(at(c, 1).getKVStore("a"))).toEqual(["k=1"]);
    expect(dump(at(ms, 1).getKVStore("a"))).toEqual(["k=1"]);
  });

  it("replaying the same blocks on a clone reproduces the original's hashes", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 20 }), fc.array(op, { maxLength: 20 }), (before, after) => {
        const { ms } = replay(before);
        const c = ms.clone();
        const run = (m: VersionedMultiStore) =>
          after.map(([s, k, v]) => {
            if (v === null) m.getKVStore(s).delete(key(k));
            else m.getKVStore(s).set(key(k), val(v));
            return toHex(m.commit().appHash);
          });
        expect(run(c)).toEqual(run(ms));
      }),
    );
  });
});
