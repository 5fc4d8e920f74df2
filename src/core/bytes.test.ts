import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allocBytes, be64, compareBytes, compareUtf8, copyBytes, fromUtf8, readBe64, toHex, utf8 } from "./bytes.js";

/** sdk.Uint64ToBigEndian as first written: through a BigInt and a DataView. */
function be64Reference(n: bigint | number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt.asUintN(64, BigInt(n)));
  return out;
}

describe("be64", () => {
  it("equals the BigInt encoding for safe integers of either sign and for any 64-bit bigint, and reads back", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 0, max: 2 ** 32 + 5 }),
          fc.maxSafeInteger(),
          fc.maxSafeNat(),
          fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
        ),
        (n) => {
          expect(be64(n)).toEqual(be64Reference(n));
          expect(readBe64(be64(n))).toBe(BigInt.asUintN(64, BigInt(n)));
        },
      ),
    );
  });
});

describe("toHex", () => {
  it("is two lower-case digits per byte", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (b) => {
        expect(toHex(b)).toBe([...b].map((x) => x.toString(16).padStart(2, "0")).join(""));
      }),
    );
  });
});

describe("readBe64 and fromUtf8 fast paths", () => {
  it("readBe64 equals DataView.getBigUint64 at every offset, out-of-range offsets throwing the same", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 20 }), fc.integer({ min: -2, max: 22 }), (b, offset) => {
        const sub = new Uint8Array([0xaa, ...b]).subarray(1);
        const reference = () => new DataView(sub.buffer, sub.byteOffset, sub.byteLength).getBigUint64(offset);
        if (offset < 0 || offset + 8 > sub.length) expect(() => readBe64(sub, offset)).toThrow(RangeError);
        else expect(readBe64(sub, offset)).toBe(reference());
      }),
    );
    expect(readBe64(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))).toBe(2n ** 64n - 1n);
    expect(readBe64(Uint8Array.of(0, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))).toBe(2n ** 53n - 1n);
    expect(readBe64(Uint8Array.of(0, 0x20, 0, 0, 0, 0, 0, 1))).toBe(2n ** 53n + 1n);
  });

  it("fromUtf8 equals TextDecoder (invalid bytes, BOM, ASCII) on either side of the fast path's length", () => {
    const decoder = new TextDecoder();
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 80 }),
      fc.uint8Array({ maxLength: 80, max: 0x7f }),
      fc.string({ unit: "binary", maxLength: 40 }).map((s) => new TextEncoder().encode(s)),
    );
    fc.assert(
      fc.property(bytes, fc.nat(4), (b, from) => {
        expect(fromUtf8(b)).toBe(decoder.decode(b));
        expect(fromUtf8(b, from)).toBe(decoder.decode(b.subarray(from)));
      }),
    );
    expect(fromUtf8(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61))).toBe("a");
  });
});

describe("compareUtf8", () => {
  // Code units from a small alphabet around the surrogates and U+E000, so that strings share prefixes and differ
  // exactly where the shortcut must hand over to the encodings (lone and paired surrogates included).
  const unit = fc.constantFrom(0x41, 0x7a, 0xe9, 0x7ff, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xffff);
  const str = fc.array(unit, { maxLength: 6 }).map((u) => String.fromCharCode(...u));
  const sign = (n: number) => Math.sign(n);

  it("orders strings as the byte order of their UTF-8 encodings, surrogates included", () => {
    fc.assert(
      fc.property(fc.oneof(str, fc.string({ unit: "binary" })), fc.oneof(str, fc.string()), (a, b) => {
        expect(sign(compareUtf8(a, b))).toBe(sign(compareBytes(utf8(a), utf8(b))));
        expect(sign(compareUtf8(b, a))).toBe(sign(compareBytes(utf8(b), utf8(a))));
      }),
      { numRuns: 3000 },
    );
  });

  it("sorts module names as Go's sort.Strings does", () => {
    const names = ["upgrade", "bank", "Gov", "gov", "é", "z", "\u{1f600}", "\ue000", ""];
    const byBytes = [...names].sort((a, b) => compareBytes(utf8(a), utf8(b)));
    expect([...names].sort(compareUtf8)).toEqual(byBytes);
  });
});

describe("utf8", () => {
  const encoder = new TextEncoder();
  it("equals TextEncoder's encoding for any string, short ASCII (its own path) or not", () => {
    const ascii = fc.string({
      unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
      maxLength: 80,
    });
    const units = fc
      .array(fc.constantFrom(0x00, 0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xd800, 0xdc00, 0xffff), { maxLength: 70 })
      .map((u) => String.fromCharCode(...u));
    fc.assert(
      fc.property(fc.oneof(ascii, units, fc.string({ unit: "binary", maxLength: 70 })), (s) => {
        expect(utf8(s)).toEqual(encoder.encode(s));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("allocBytes and copyBytes", () => {
  it("give each caller zero-filled bytes of its own, whatever the sizes, across slabs", () => {
    // Sizes on both sides of the on-heap bound (64) and the slab item bound, and enough of them to fill several slabs.
    const size = fc.oneof(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 60, max: 2100 }), fc.constant(4000));
    fc.assert(
      fc.property(fc.array(size, { minLength: 1, maxLength: 60 }), (sizes) => {
        const arrays = sizes.map((n) => allocBytes(n));
        arrays.forEach((a, i) => {
          expect(a).toBeInstanceOf(Uint8Array);
          expect(a.length).toBe(sizes[i]);
          expect(a.every((x) => x === 0)).toBe(true);
          a.fill((i % 255) + 1);
        });
        // Writing each array changed no other one.
        arrays.forEach((a, i) => {
          expect(a.every((x) => x === (i % 255) + 1)).toBe(true);
        });
      }),
    );
  });

  it("a copy of a range equals slice's, on both sides of 64 bytes and of the slab bound", () => {
    fc.assert(
      // Lengths drawn uniformly (fast-check's arrays are mostly short), every byte distinct from its neighbours.
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.nat(255), fc.nat(), fc.nat(), (length, seed, x, y) => {
        const b = Uint8Array.from({ length }, (_, i) => (seed + 7 * i) & 0xff);
        const [from, end] = [x % (b.length + 1), y % (b.length + 1)].sort((p, q) => p - q) as [number, number];
        expect(toHex(copyBytes(b, from, end))).toBe(toHex(b.slice(from, end)));
      }),
    );
  });

  it("copy equals the source and is not it", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (b) => {
        const c = copyBytes(b);
        expect(toHex(c)).toBe(toHex(b));
        if (c.length > 0) {
          c[0] = c[0]! ^ 0xff;
          expect(c[0]).not.toBe(b[0]);
        }
      }),
    );
  });
});
