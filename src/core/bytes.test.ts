import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { be64, readBe64, toHex } from "./bytes.js";

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
