import { copyBytes } from "./bytes.js";
/**
 * The wire writing of the compiled protobuf encoder (proto-encode.ts): one scratch buffer per process, reused by
 * every encode, and one writer per scalar type, each writing the bytes protobuf-es's BinaryWriter writes for the same
 * value. They accept only a field's own value type (numbers in range for 32-bit fields, bigints in range for 64-bit
 * ones, booleans, strings, Uint8Arrays); on anything else they stop (`stopEncode`) and the caller encodes the message
 * with `toBinary` instead, which then writes or throws as it does.
 *
 * 1. Length-delimited records are written as protobuf-es writes them: one byte reserved for the length, the body
 *    written after it, then the body moved on when its length needs more bytes (`fork`, `join`).
 * 2. Strings: ASCII copied byte by byte; any other string through TextEncoder.encodeInto (lone surrogates become
 *    U+FFFD, as in protobuf-es).
 * 3. The buffer grows by doubling and is dropped back to its first size after an encode larger than
 *    `SCRATCH_KEEP_BYTES`, so one large message does not pin memory.
 */

/** Stops the compiled path (caught by encodeMessage, which falls back to toBinary). */
export class NotEncoded extends Error {}
export const stopEncode = (): never => {
  throw new NotEncoded();
};

const SCRATCH_FIRST_BYTES = 1024;
const SCRATCH_KEEP_BYTES = 1 << 20;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;
const UINT64_MOD = 1n << 64n;
const encoder = new TextEncoder();

let buf = new Uint8Array(SCRATCH_FIRST_BYTES);
let view = new DataView(buf.buffer);
let pos = 0;

function ensure(bytes: number): void {
  const need = pos + bytes;
  if (need <= buf.length) return;
  let size = buf.length * 2;
  while (size < need) size *= 2;
  const next = new Uint8Array(size);
  next.set(buf.subarray(0, pos));
  buf = next;
  view = new DataView(buf.buffer);
}

/** Starts an encode at the buffer's start. */
export function beginEncode(): void {
  pos = 0;
}

/** The bytes written since `beginEncode`, copied out; the scratch buffer is shrunk back if it grew large. */
export function finishEncode(): Uint8Array {
  const out = copyBytes(buf, 0, pos);
  pos = 0;
  if (buf.length > SCRATCH_KEEP_BYTES) {
    buf = new Uint8Array(SCRATCH_FIRST_BYTES);
    view = new DataView(buf.buffer);
  }
  return out;
}

/** An unsigned varint of a value already known to be a uint32. */
function varint32(v: number): void {
  ensure(5);
  while (v > 0x7f) {
    buf[pos++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  buf[pos++] = v;
}

const varint32Bytes = (v: number): number =>
  v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;

/** A field's tag (field number and wire type, already combined and checked when the writer was compiled). */
export const tag = varint32;

/** Reserves the length byte of a length-delimited record; returns where it is, for `join`. */
export function fork(): number {
  ensure(1);
  buf[pos++] = 0;
  return pos - 1;
}

/** Writes the length of the record forked at `at`, moving its body on when the length needs more than a byte. */
export function join(at: number): void {
  const len = pos - at - 1;
  const size = varint32Bytes(len);
  if (size > 1) {
    ensure(size - 1);
    buf.copyWithin(at + size, at + 1, pos);
  }
  pos = at;
  varint32(len);
  pos += len;
}

export function uint32(v: unknown): void {
  if (typeof v !== "number" || v >>> 0 !== v) stopEncode();
  varint32(v as number);
}

export function int32(v: unknown): void {
  if (typeof v !== "number" || (v | 0) !== v) stopEncode();
  const n = v as number;
  if (n >= 0) {
    varint32(n);
    return;
  }
  ensure(10);
  let x = n;
  for (let i = 0; i < 9; i++) {
    buf[pos++] = (x & 0x7f) | 0x80;
    x >>= 7;
  }
  buf[pos++] = 1;
}

export function sint32(v: unknown): void {
  if (typeof v !== "number" || (v | 0) !== v) stopEncode();
  const n = v as number;
  varint32(((n << 1) ^ (n >> 31)) >>> 0);
}

export function fixed32(v: unknown): void {
  if (typeof v !== "number" || v >>> 0 !== v) stopEncode();
  ensure(4);
  view.setUint32(pos, v as number, true);
  pos += 4;
}

export function sfixed32(v: unknown): void {
  if (typeof v !== "number" || (v | 0) !== v) stopEncode();
  ensure(4);
  view.setInt32(pos, v as number, true);
  pos += 4;
}

export function float(v: unknown): void {
  if (typeof v !== "number" || (!Number.isFinite(Math.fround(v)) && Number.isFinite(v))) stopEncode();
  ensure(4);
  view.setFloat32(pos, v as number, true);
  pos += 4;
}

export function double(v: unknown): void {
  if (typeof v !== "number") stopEncode();
  ensure(8);
  view.setFloat64(pos, v as number, true);
  pos += 8;
}

export function bool(v: unknown): void {
  if (typeof v !== "boolean") stopEncode();
  ensure(1);
  buf[pos++] = v ? 1 : 0;
}

/** A varint of a bigint in [0, 2^64). */
function varint64(v: bigint): void {
  if (v <= 0xffff_ffffn) {
    varint32(Number(v));
    return;
  }
  ensure(10);
  let x = v;
  for (let i = 0; i < 10 && x > 0x7fn; i++) {
    buf[pos++] = Number(x & 0x7fn) | 0x80;
    x >>= 7n;
  }
  buf[pos++] = Number(x);
}

const int64Of = (v: unknown): bigint => (typeof v === "bigint" && v >= INT64_MIN && v <= INT64_MAX ? v : stopEncode());
const uint64Of = (v: unknown): bigint => (typeof v === "bigint" && v >= 0n && v <= UINT64_MAX ? v : stopEncode());

export function int64(v: unknown): void {
  const n = int64Of(v);
  varint64(n < 0n ? n + UINT64_MOD : n);
}

export function uint64(v: unknown): void {
  varint64(uint64Of(v));
}

export function sint64(v: unknown): void {
  const n = int64Of(v);
  varint64(n < 0n ? -n * 2n - 1n : n * 2n);
}

export function fixed64(v: unknown): void {
  const n = uint64Of(v);
  ensure(8);
  view.setBigUint64(pos, n, true);
  pos += 8;
}

export function sfixed64(v: unknown): void {
  const n = int64Of(v);
  ensure(8);
  view.setBigInt64(pos, n, true);
  pos += 8;
}

export function bytes(v: unknown): void {
  if (!(v instanceof Uint8Array)) stopEncode();
  const b = v as Uint8Array;
  varint32(b.byteLength);
  ensure(b.byteLength);
  buf.set(b, pos);
  pos += b.byteLength;
}

export function string(v: unknown): void {
  if (typeof v !== "string") stopEncode();
  const s = v as string;
  const len = s.length;
  const guess = varint32Bytes(len);
  ensure(5 + len * 3);
  const start = pos + guess;
  let i = 0;
  for (; i < len; i++) {
    const code = s.charCodeAt(i);
    if (code > 0x7f) break;
    buf[start + i] = code;
  }
  const written = i === len ? len : encoder.encodeInto(s, buf.subarray(start)).written;
  const size = varint32Bytes(written);
  if (size !== guess) buf.copyWithin(pos + size, start, start + written);
  varint32(written);
  pos += written;
}

/** Raw bytes (an unknown field's data, after its tag). */
export function raw(v: unknown): void {
  if (!(v instanceof Uint8Array)) stopEncode();
  const b = v as Uint8Array;
  ensure(b.byteLength);
  buf.set(b, pos);
  pos += b.byteLength;
}
