import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareBytes, toHex } from "../core/bytes.js";
import { bytesToLatin1, bytesToLatin1Portable, latin1ToBytes, MemBackend } from "./mem-backend.js";

const b = (...xs: number[]) => Uint8Array.from(xs);
const keys = (it: Iterable<readonly [Uint8Array, Uint8Array]>) => [...it].map(([k]) => toHex(k));

describe("MemBackend", () => {
  it("orders raw byte keys lexicographically, a proper prefix first, 0x00 and 0xff included", () => {
    const m = new MemBackend();
    const all = [b(), b(0x00), b(0x00, 0x00), b(0x01), b(0x7f), b(0x80), b(0xff), b(0xff, 0x00), b(0xff, 0xff)];
    m.write([...all].reverse().map((k) => ({ key: k, value: b(1) })));
    expect(keys(m.iterator(undefined, undefined))).toEqual(all.map(toHex));
    expect(keys(m.reverseIterator(undefined, undefined))).toEqual(all.map(toHex).reverse());
    expect(keys(m.iterator(b(0xff), undefined))).toEqual(["ff", "ff00", "ffff"]);
    expect(keys(m.reverseIterator(b(0x00), b(0x01)))).toEqual(["0000", "00"]);
  });

  it("latin1 strings preserve byte order and round-trip", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 20 }), fc.uint8Array({ maxLength: 20 }), (x, y) => {
        const sx = bytesToLatin1(x);
        const sy = bytesToLatin1(y);
        expect(Math.sign(compareBytes(x, y))).toBe(sx < sy ? -1 : sx > sy ? 1 : 0);
        expect(latin1ToBytes(sx)).toEqual(x);
      }),
    );
  });

  it("latin1 strings by Node's native decoding equal the portable ones (views at offsets, long keys, any byte)", () => {
    const bytes = fc.oneof(fc.uint8Array({ maxLength: 48 }), fc.uint8Array({ minLength: 4000, maxLength: 9000 }));
    fc.assert(
      fc.property(bytes, fc.nat(), fc.nat(), (all, a, z) => {
        const start = all.length === 0 ? 0 : a % all.length;
        const view = all.subarray(start, start + (z % (all.length - start + 1)));
        for (const x of [all, view]) {
          const s = bytesToLatin1(x);
          expect(s).toBe(bytesToLatin1Portable(x));
          expect(s).toBe(Array.from(x, (c) => String.fromCharCode(c)).join(""));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("deletes with an undefined value and applies a batch in order", () => {
    const m = new MemBackend();
    m.write([
      { key: b(1), value: b(1) },
      { key: b(1), value: b(2) },
      { key: b(2), value: b(3) },
      { key: b(2), value: undefined },
    ]);
    expect(m.get(b(1))).toEqual(b(2));
    expect(m.get(b(2))).toBeUndefined();
    expect(m.size()).toBe(1);
  });

  it("iterators are snapshots taken at creation, and forks are independent", () => {
    const m = new MemBackend();
    m.write([{ key: b(1), value: b(1) }]);
    const it = m.iterator(undefined, undefined);
    const f = m.fork();
    m.write([{ key: b(2), value: b(2) }]);
    f.write([{ key: b(3), value: b(3) }]);
    expect(keys(it)).toEqual(["01"]);
    expect(keys(m.iterator(undefined, undefined))).toEqual(["01", "02"]);
    expect(keys(f.iterator(undefined, undefined))).toEqual(["01", "03"]);
  });
});
