import { Buffer } from "node:buffer";
import { type DescMessage, protoInt64, ScalarType } from "@bufbuild/protobuf";
import * as wire from "./proto-write.js";

/**
 * The wire reading of the compiled protobuf decoder (proto-decode.ts): a cursor over the input and one reader per
 * scalar type, each returning the value protobuf-es's BinaryReader returns for the same bytes (64-bit integers as
 * bigints, bytes as views of the input, strings decoded as UTF-8 with its strict or lenient decoder). Where protobuf-es
 * would read on past what these accept (a varint over 10 bytes, a length past the input, invalid UTF-8 in a strict
 * string), they stop (`stop`, a NotCompiled) and the caller decodes the input with `fromBinary` instead.
 */

/** Wire types. */
export const VARINT = 0;
export const BIT64 = 1;
export const LENGTH_DELIMITED = 2;
export const BIT32 = 5;

/** protobuf-es's edition number of a proto3 file. */
export const EDITION_PROTO3 = 999;

/** Well-known types that are plain messages; the others have a local form of their own (wrappers, Struct...). */
const PLAIN_WKT: ReadonlySet<string> = new Set([
  "google.protobuf.Any",
  "google.protobuf.Timestamp",
  "google.protobuf.Duration",
]);

/**
 * Where the compiled decoder's and encoder's cover starts: a proto3 type that is not a well-known type with a local
 * form of its own. Each narrows it further where it must.
 */
export const isPlainProto3 = (desc: DescMessage): boolean =>
  desc.file.edition === EDITION_PROTO3 &&
  (!desc.typeName.startsWith("google.protobuf.") || PLAIN_WKT.has(desc.typeName));

/** Stops the compiled path (caught by decodeMessage, which falls back to fromBinary). */
export class NotCompiled extends Error {}
export const stop = (): never => {
  throw new NotCompiled();
};

/** The most bytes `Cursor.u32` reads (5 × 7 bits cover 32). */
const VARINT_32_MAX_BYTES = 5;

/** A position in the input; bounds as protobuf-es checks them (against the whole input). */
export class Cursor {
  pos = 0;
  lo = 0;
  hi = 0;
  #view: DataView | undefined;
  #bytes: Buffer | undefined;
  constructor(readonly buf: Uint8Array) {}

  /** The input's bytes start..end as a latin1 string (one flat string, made natively; for ASCII bytes). */
  latin1(start: number, end: number): string {
    const buf = this.buf;
    this.#bytes ??= Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    return this.#bytes.toString("latin1", start, end);
  }

  view(): DataView {
    this.#view ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    return this.#view;
  }

  /** An unsigned varint of at most 5 bytes (tags, lengths, 32-bit values); longer ones stop. */
  u32(): number {
    const buf = this.buf;
    let result = 0;
    // Each 7-bit group's weight by multiplication: `2 ** shift` with a variable shift calls the runtime's pow (about
    // 36 against 5 ns a varint, docs/performance.md "Session 16: varints without pow").
    let weight = 1;
    for (let i = 0; i < VARINT_32_MAX_BYTES; i++, weight *= 128) {
      const b = buf[this.pos++];
      if (b === undefined) return stop();
      result += (b & 0x7f) * weight;
      if (b < 0x80) return result > 0xffff_ffff ? stop() : result;
    }
    return stop();
  }

  /** A varint of at most 10 bytes into lo/hi (the two 32-bit halves). */
  v64(): void {
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      const b = buf[this.pos++];
      if (b === undefined) stop();
      const bits = b! & 0x7f;
      if (i < 4) lo |= bits << (7 * i);
      else if (i === 4) {
        lo |= (bits & 0x0f) << 28;
        hi = bits >> 4;
      } else hi |= bits << (7 * i - 32);
      if (b! < 0x80) {
        this.lo = lo;
        this.hi = hi;
        return;
      }
    }
    stop();
  }

  /** The end of a length-delimited record that starts here (its length read). */
  lengthEnd(): number {
    const len = this.u32();
    const end = this.pos + len;
    return end > this.buf.length ? stop() : end;
  }

  skip(wireType: number): void {
    if (wireType === VARINT) this.v64();
    else if (wireType === BIT64) this.pos += 8;
    else if (wireType === BIT32) this.pos += 4;
    else if (wireType === LENGTH_DELIMITED) this.pos = this.lengthEnd();
    else stop();
    if (this.pos > this.buf.length) stop();
  }
}

type ValueReader = (c: Cursor) => unknown;

const MAX_SAFE_HI = 0x20_0000; // 2^53 / 2^32
/** A uint64 varint (as protobuf-es: a bigint). */
const u64 = (c: Cursor): bigint => {
  c.v64();
  const hi = c.hi >>> 0;
  return hi < MAX_SAFE_HI ? BigInt(hi * 0x1_0000_0000 + (c.lo >>> 0)) : protoInt64.uDec(c.lo, c.hi);
};
/** An int64 varint. */
const i64 = (c: Cursor): bigint => {
  c.v64();
  const hi = c.hi >>> 0;
  return hi < MAX_SAFE_HI ? BigInt(hi * 0x1_0000_0000 + (c.lo >>> 0)) : protoInt64.dec(c.lo, c.hi);
};
/** A varint read as protobuf-es's uint32 reads it (a longer one keeps its low 32 bits). */
const varint32 = (c: Cursor): number => {
  c.v64();
  return c.lo >>> 0;
};
const fixed = (c: Cursor, n: number): number => {
  const at = c.pos;
  c.pos += n;
  return c.pos > c.buf.length ? stop() : at;
};

/** ASCII strings up to this length are made from their bytes as latin1 (TextDecoder's UTF-8 call costs more). */
const ASCII_DIRECT_MAX = 1024;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const looseUtf8 = new TextDecoder("utf-8", { ignoreBOM: true });
function readString(c: Cursor, strict: boolean): string {
  const end = c.lengthEnd();
  const start = c.pos;
  c.pos = end;
  const buf = c.buf;
  if (end - start <= ASCII_DIRECT_MAX) {
    // ASCII is its own latin1: one flat string, made natively (no array of codes, no rope for readers to flatten).
    let i = start;
    while (i < end && buf[i]! <= 0x7f) i++;
    if (i === end) return c.latin1(start, end);
  }
  const bytes = buf.subarray(start, end);
  if (!strict) return looseUtf8.decode(bytes);
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return stop();
  }
}

/** The reader of one scalar type and the wire type it is written with (enums are int32). */
export function scalarReader(type: ScalarType, strictUtf: boolean): readonly [ValueReader, number] {
  switch (type) {
    case ScalarType.STRING:
      return [(c) => readString(c, strictUtf), LENGTH_DELIMITED];
    case ScalarType.BYTES:
      return [
        (c) => {
          const end = c.lengthEnd();
          const v = c.buf.subarray(c.pos, end);
          c.pos = end;
          return v;
        },
        LENGTH_DELIMITED,
      ];
    case ScalarType.BOOL:
      return [
        (c) => {
          c.v64();
          return c.lo !== 0 || c.hi !== 0;
        },
        VARINT,
      ];
    case ScalarType.INT32:
      return [(c) => varint32(c) | 0, VARINT];
    case ScalarType.UINT32:
      return [varint32, VARINT];
    case ScalarType.SINT32:
      return [
        (c) => {
          const z = varint32(c);
          return (z >>> 1) ^ -(z & 1);
        },
        VARINT,
      ];
    case ScalarType.INT64:
      return [i64, VARINT];
    case ScalarType.UINT64:
      return [u64, VARINT];
    case ScalarType.SINT64:
      return [
        (c) => {
          c.v64();
          const s = -(c.lo & 1);
          const lo = ((c.lo >>> 1) | ((c.hi & 1) << 31)) ^ s;
          const hi = (c.hi >>> 1) ^ s;
          return protoInt64.dec(lo, hi);
        },
        VARINT,
      ];
    case ScalarType.FIXED32:
      return [(c) => c.view().getUint32(fixed(c, 4), true), BIT32];
    case ScalarType.SFIXED32:
      return [(c) => c.view().getInt32(fixed(c, 4), true), BIT32];
    case ScalarType.FLOAT:
      return [(c) => c.view().getFloat32(fixed(c, 4), true), BIT32];
    case ScalarType.FIXED64:
      return [(c) => c.view().getBigUint64(fixed(c, 8), true), BIT64];
    case ScalarType.SFIXED64:
      return [(c) => c.view().getBigInt64(fixed(c, 8), true), BIT64];
    case ScalarType.DOUBLE:
      return [(c) => c.view().getFloat64(fixed(c, 8), true), BIT64];
  }
}

/** One length-delimited record, `tag(no, LEN) length payload`: a message whose field `no` holds `payload`'s bytes. */
export function lengthDelimitedRecord(no: number, payload: Uint8Array): Uint8Array {
  wire.beginEncode();
  wire.tag(no * 8 + LENGTH_DELIMITED);
  wire.bytes(payload);
  return wire.finishEncode();
}
