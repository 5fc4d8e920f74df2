import { Buffer } from "node:buffer";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Cursor, lengthDelimitedRecord, NotCompiled } from "./proto-wire.js";

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

describe("lengthDelimitedRecord", () => {
  it("writes one record as protobuf-es does, for any field number and payload length", () => {
    fc.assert(
      fc.property(fieldNumber, payload, (no, p) => {
        const want = new BinaryWriter().tag(no, WireType.LengthDelimited).bytes(p).finish();
        expect(same(lengthDelimitedRecord(no, p), want)).toBe(true);
      }),
    );
  });
});

/** `Cursor.u32` as first written (each group weighted by `2 ** shift`): the value, or "stop". */
function u32Reference(buf: Uint8Array, at: number): number | "stop" {
  let pos = at;
  let result = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    const b = buf[pos++];
    if (b === undefined) return "stop";
    result += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return result > 0xffff_ffff ? "stop" : result;
  }
  return "stop";
}

/** `Cursor.u32` at `at`: the value and the position after it, or "stop". */
function readU32(buf: Uint8Array, at: number): readonly [number, number] | "stop" {
  const c = new Cursor(buf);
  c.pos = at;
  try {
    return [c.u32(), c.pos];
  } catch (e) {
    if (e instanceof NotCompiled) return "stop";
    throw e;
  }
}

describe("Cursor.u32", () => {
  it("reads every 32-bit value as protobuf-es's writer writes it, and moves past it", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 300 }), fc.nat({ max: 0xffff_ffff })), (v) => {
        const bytes = new BinaryWriter().uint32(v).finish();
        expect(readU32(bytes, 0)).toEqual([v, bytes.length]);
      }),
    );
  });

  it("reads any bytes as it first did: the same value, or a stop (too long, past 32 bits, cut short)", () => {
    const group = fc.oneof(fc.integer({ min: 0x80, max: 0xff }), fc.integer({ min: 0, max: 0xff }));
    fc.assert(
      fc.property(fc.array(group, { maxLength: 7 }), fc.nat(3), (bytes, offset) => {
        const buf = Uint8Array.from([...Array(offset).fill(0x80), ...bytes]);
        const got = readU32(buf, offset);
        const want = u32Reference(buf, offset);
        expect(got === "stop" ? got : got[0]).toBe(want);
      }),
    );
  });
});
