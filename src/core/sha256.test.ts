import { sha256 } from "@noble/hashes/sha2.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Hasher, sha256Of } from "./sha256.js";

describe("sha256 (native)", () => {
  it("equals the reference implementation, in one update or several, and copies are independent", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.nat({ max: 3000 }), (bytes, cut) => {
        const at = Math.min(cut, bytes.length);
        const h = sha256Hasher().update(bytes.subarray(0, at));
        const copy = h.copy();
        h.update(bytes.subarray(at));
        expect(h.digest()).toEqual(sha256(bytes));
        expect(copy.digest()).toEqual(sha256(bytes.subarray(0, at)));
        expect(sha256Of(bytes)).toEqual(sha256(bytes));
      }),
    );
  });
});
