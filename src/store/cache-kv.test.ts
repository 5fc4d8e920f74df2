import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toHex } from "../core/bytes.js";
import { CacheKVStore } from "./cache-kv.js";
import { MemKVStore } from "./mem-kv.js";

const b = (...xs: number[]) => Uint8Array.from(xs);
const hexes = (it: Iterable<readonly [Uint8Array, Uint8Array]>) => [...it].map(([k, v]) => `${toHex(k)}=${toHex(v)}`);

describe("CacheKVStore", () => {
  it("merges buffered writes with the parent in byte order, both directions", () => {
    const parent = new MemKVStore();
    for (const k of [0x01, 0x03, 0x05, 0xff]) parent.set(b(k), b(k));
    const c = new CacheKVStore(parent);
    c.set(b(0x00), b(0xaa));
    c.set(b(0x03), b(0xbb));
    c.delete(b(0x05));
    c.set(b(0xff, 0x00), b(0xcc));
    expect(hexes(c.iterator(undefined, undefined))).toEqual(["00=aa", "01=01", "03=bb", "ff=ff", "ff00=cc"]);
    expect(hexes(c.reverseIterator(b(0x01), b(0xff)))).toEqual(["03=bb", "01=01"]);
    expect(hexes(c.iterator(b(0xff), undefined))).toEqual(["ff=ff", "ff00=cc"]);
  });

  it("equals a plain map after any writes (model check)", () => {
    const op = fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(fc.array(op), fc.array(op), (base, writes) => {
        const parent = new MemKVStore();
        const model = new MemKVStore();
        for (const [del, k, v] of base) for (const s of [parent, model]) del ? s.delete(b(k)) : s.set(b(k), b(v));
        const c = new CacheKVStore(parent);
        for (const [del, k, v] of writes) for (const s of [c, model]) del ? s.delete(b(k)) : s.set(b(k), b(v));
        expect(hexes(c.iterator(undefined, undefined))).toEqual(hexes(model.iterator(undefined, undefined)));
        expect(hexes(c.reverseIterator(b(5), b(15)))).toEqual(hexes(model.reverseIterator(b(5), b(15))));
      }),
    );
  });

  it("lists dirty entries sorted, discards them, and write() flushes then empties", () => {
    const parent = new MemKVStore();
    parent.set(b(2), b(2));
    const c = new CacheKVStore(parent);
    c.set(b(9), b(1));
    c.delete(b(2));
    expect(c.dirtyEntries().map(([k, v]) => [toHex(k), v === undefined ? null : toHex(v)])).toEqual([
      ["02", null],
      ["09", "01"],
    ]);
    c.discard();
    expect(c.isClean()).toBe(true);
    expect(c.get(b(2))).toEqual(b(2));
    c.set(b(9), b(1));
    c.write();
    expect(c.isClean()).toBe(true);
    expect(parent.get(b(9))).toEqual(b(1));
  });

  it("a forward iterator is the snapshot of its creation, also when consumed later or only in part", () => {
    const parent = new MemKVStore();
    for (const k of [1, 3, 5]) parent.set(b(k), b(k));
    const c = new CacheKVStore(parent);
    c.set(b(2), b(0x22));
    c.delete(b(3));
    const it = c.iterator(undefined, undefined);
    const head = c.iterator(b(2), undefined);
    c.set(b(0), b(0xaa));
    c.set(b(3), b(0x33));
    c.delete(b(5));
    c.delete(b(2));
    expect(hexes(it)).toEqual(["01=01", "02=22", "05=05"]);
    expect(head.next().value?.map(toHex)).toEqual(["02", "22"]);
    expect(hexes(c.iterator(undefined, undefined))).toEqual(["00=aa", "01=01", "03=33"]);
  });

  it("iterators are unaffected by writes made while iterating", () => {
    const c = new CacheKVStore(new MemKVStore());
    for (let i = 0; i < 5; i++) c.set(b(i), b(i));
    const seen: string[] = [];
    for (const [k] of c.iterator(undefined, undefined)) {
      seen.push(toHex(k));
      c.delete(k);
    }
    expect(seen).toEqual(["00", "01", "02", "03", "04"]);
    expect([...c.iterator(undefined, undefined)]).toEqual([]);
  });
});
