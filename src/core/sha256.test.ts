import { sha256 } from "@noble/hashes/sha2.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PlainSha256, sha256Hasher, sha256Of } from "./sha256.js";

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

describe("PlainSha256 (midstate as plain data)", () => {
  it("resumed from its state, even after structuredClone, it ends with the digest of the whole input", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat({ max: 300 }), (bytes, cut) => {
        const at = Math.min(cut, bytes.length);
        const h = new PlainSha256().update(bytes.subarray(0, at));
        const st = h.state();
        const resumed = PlainSha256.resume(structuredClone(st)).update(bytes.subarray(at));
        h.update(bytes.subarray(at));
        expect(resumed.digest()).toEqual(sha256(bytes));
        expect(h.digest()).toEqual(sha256(bytes));
        // Taking the state does not change the hasher, and the state is not tied to it.
        expect(PlainSha256.resume(st).digest()).toEqual(sha256(bytes.subarray(0, at)));
      }),
    );
  });
});
