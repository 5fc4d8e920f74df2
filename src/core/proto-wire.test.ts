import { Buffer } from "node:buffer";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lengthDelimitedRecord, type WireRecord, wireRecords } from "./proto-wire.js";

/** The largest protobuf field number (2^29 − 1). */
const FIELD_NUMBER_MAX = 536_870_911;

/**
 * A payload of `length` bytes, all `fill` but the first and the last (`ends`): lengths up to 20,000, so that the
 * length's varint takes one, two or three bytes, without drawing every byte.
 */
const payload = fc
  .tuple(fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 20_000 })), fc.nat(255), fc.nat(255))
  .map(([length, fill, ends]) => {
    const p = new Uint8Array(length).fill(fill);
    if (length > 0) p[0] = p[length - 1] = ends;
    return p;
  });

/** Byte equality, compared as Buffers (vitest's deep equality walks a typed array element by element). */
const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);

const fieldNumber = fc.oneof(fc.integer({ min: 1, max: 15 }), fc.integer({ min: 1, max: FIELD_NUMBER_MAX }));

/** A varint's value: small, or anywhere below 2^53 (one to eight bytes). */
const varint = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.maxSafeNat());

/** protobuf-es's writer: a payload as `tag(no, LEN)` then its length and bytes; a number as `tag(no, VARINT)` uint64. */
function reference(records: readonly WireRecord[]): Uint8Array {
  const w = new BinaryWriter();
  for (const [no, v] of records) {
    if (typeof v === "number") w.tag(no, WireType.Varint).uint64(v);
    else w.tag(no, WireType.LengthDelimited).bytes(v);
  }
  return w.finish();
}

describe("wireRecords", () => {
  it("writes the records as protobuf-es does, for any field numbers, payload lengths and varints", () => {
    const record = fc.tuple(fieldNumber, fc.oneof(payload, varint));
    fc.assert(
      fc.property(fc.array(record, { maxLength: 6 }), (records) => {
        expect(same(wireRecords(records), reference(records))).toBe(true);
      }),
    );
  });

  it("writes one record as the list of one", () => {
    fc.assert(
      fc.property(fieldNumber, payload, (no, p) => {
        expect(same(lengthDelimitedRecord(no, p), reference([[no, p]]))).toBe(true);
      }),
    );
  });
});
