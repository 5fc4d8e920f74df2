import { Buffer } from "node:buffer";
import { type DescField, protoInt64, ScalarType } from "@bufbuild/protobuf";
import { civilFromDays } from "../core/go/time.js";
import { type Cursor, scalarReader, stop } from "../core/proto-wire.js";
import {
  enumWriter,
  scalarWriter,
  singularBytes,
  stringText,
  timestampInRange,
  type ValueWriter,
} from "./json-compiled.js";

/**
 * The output and the value writers of the binary → JSON transcoder (json-transcode.ts): each value read at the cursor
 * and written as json-compiled.ts writes it (the reference for every byte), into one growing byte buffer.
 */

const MAX_SAFE_HI = 0x20_0000; // 2^53 / 2^32
const TWO_32 = 0x1_0000_0000;
const QUOTE = 0x22;
const RECURSION_LIMIT = 100;
const TIMESTAMP_FIELDS: ReadonlySet<number> = new Set([1, 2]);
/** The scratch buffer's first size. */
const OUT_INITIAL = 4096;

/** A value writer: one value read at the cursor (its tag read) written to the output. */
export type WriteValue = (c: Cursor, o: Out, depth: number) => void;

/** The output: bytes written so far into a growing buffer; `wide` once a byte above 0x7f is written. */
export class Out {
  buf: Buffer = Buffer.allocUnsafe(OUT_INITIAL);
  n = 0;
  wide = false;

  room(extra: number): void {
    if (this.n + extra <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.n + extra));
    this.buf.copy(next, 0, 0, this.n);
    this.buf = next;
  }

  bytes(b: Uint8Array): void {
    const len = b.length;
    this.room(len);
    const buf = this.buf;
    const n = this.n;
    if (len > 8) buf.set(b, n);
    else for (let i = 0; i < len; i++) buf[n + i] = b[i]!;
    this.n = n + len;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.n++] = b;
  }

  /** A JS string of ASCII text (numbers, names, base64), a character at a time (short: no call into Buffer). */
  ascii(s: string): void {
    const len = s.length;
    this.room(len);
    const buf = this.buf;
    let n = this.n;
    for (let i = 0; i < len; i++) buf[n++] = s.charCodeAt(i);
    this.n = n;
  }

  /** Any JS string, as UTF-8. */
  text(s: string): void {
    this.room(s.length * 3);
    const before = this.n;
    this.n += this.buf.write(s, this.n, "utf8");
    if (this.n - before !== s.length) this.wide = true;
  }
}

/** A scalar or enum field's value writer. */
export function scalarValue(f: DescField): WriteValue {
  const isList = f.fieldKind === "list";
  if (f.fieldKind === "enum" || (isList && f.listKind === "enum")) {
    const names = enumWriter(f.enum!);
    return (c, o) => {
      c.v64();
      o.ascii(names(c.lo | 0));
    };
  }
  const scalar = f.scalar!;
  switch (scalar) {
    case ScalarType.STRING: {
      const read = f.utf8Validation ? readStrictString : readLooseString;
      return (c, o) => stringAt(c, o, read);
    }
    case ScalarType.INT64:
      return (c, o) => int64At(c, o, false);
    case ScalarType.UINT64:
      return (c, o) => int64At(c, o, true);
    case ScalarType.BOOL:
      return (c, o) => {
        c.v64();
        o.ascii(c.lo !== 0 || c.hi !== 0 ? "true" : "false");
      };
    default: {
      const [read] = scalarReader(scalar, f.utf8Validation);
      const write: ValueWriter = scalar === ScalarType.BYTES && !isList ? singularBytes : scalarWriter(scalar);
      return (c, o) => o.ascii(write(read(c)));
    }
  }
}

/** A record of a field number this type does not know is skipped; a known one with another wire type stops. */
export function skipOther(c: Cursor, tag: number, known: ReadonlySet<number>): void {
  const no = tag >>> 3;
  if (no === 0 || known.has(no)) stop();
  c.skip(tag & 7);
}

export const readStrictString = scalarReader(ScalarType.STRING, true)[0];
export const readLooseString = scalarReader(ScalarType.STRING, false)[0];

/**
 * A string: ASCII is written as it is read, escaped as JSON.stringify then goHtmlEscape escape it (`\"` `\\`, `\b`
 * `\t` `\n` `\f` `\r`, other controls and `<` `>` `&` as `\u00xx`); at the first byte above 0x7f the string is
 * decoded and quoted by stringText instead.
 */
export function stringAt(c: Cursor, o: Out, read: (c: Cursor) => unknown): void {
  const at = c.pos;
  const end = c.lengthEnd();
  const src = c.buf;
  o.room((end - c.pos) * 6 + 2);
  const buf = o.buf;
  let n = o.n;
  buf[n++] = QUOTE;
  for (let i = c.pos; i < end; i++) {
    const b = src[i]!;
    if (COPIED[b] === 1) {
      buf[n++] = b;
      continue;
    }
    if (b >= 0x80) {
      c.pos = at;
      o.text(stringText(read(c)));
      return;
    }
    n = escapeAscii(buf, n, b);
  }
  buf[n++] = QUOTE;
  o.n = n;
  c.pos = end;
}

/** 1 for the bytes a string's text holds as they are: printable ASCII but `"` `\\` `<` `>` `&` (one load a byte). */
const COPIED = Uint8Array.from({ length: 256 }, (_, b) =>
  b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c && b !== 0x3c && b !== 0x3e && b !== 0x26 ? 1 : 0,
);

/** JSON.stringify's short escapes of control characters (the others are `\u00xx`). */
const SHORT_ESCAPES: Readonly<Record<number, number>> = { 8: 0x62, 9: 0x74, 10: 0x6e, 12: 0x66, 13: 0x72 };
const HEX = "0123456789abcdef";

/** One ASCII byte that needs escaping, written at `n`; the position after it. */
function escapeAscii(buf: Uint8Array, at: number, b: number): number {
  let n = at;
  buf[n++] = 0x5c;
  if (b === 0x22 || b === 0x5c) buf[n++] = b;
  else if (b === 0x7f)
    buf[n - 1] = b; // DEL is written as it is
  else if (SHORT_ESCAPES[b] !== undefined) buf[n++] = SHORT_ESCAPES[b]!;
  else {
    buf[n++] = 0x75; // u00xx
    buf[n++] = 0x30;
    buf[n++] = 0x30;
    buf[n++] = HEX.charCodeAt(b >> 4);
    buf[n++] = HEX.charCodeAt(b & 15);
  }
  return n;
}

export function int64At(c: Cursor, o: Out, unsigned: boolean): void {
  c.v64();
  const hi = c.hi >>> 0;
  const v =
    hi < MAX_SAFE_HI ? hi * TWO_32 + (c.lo >>> 0) : unsigned ? protoInt64.uDec(c.lo, c.hi) : protoInt64.dec(c.lo, c.hi);
  o.byte(QUOTE);
  o.ascii(String(v));
  o.byte(QUOTE);
}

/** A Timestamp from its records (seconds: the last wins, as a number); out of range stops. */
export function timestampAt(c: Cursor, end: number, depth: number, o: Out): void {
  if (depth > RECURSION_LIMIT) stop();
  let seconds = 0;
  let nanos = 0;
  while (c.pos < end) {
    const tag = c.u32();
    if (tag === 8) {
      c.v64();
      const hi = c.hi >>> 0;
      seconds = hi < MAX_SAFE_HI ? hi * TWO_32 + (c.lo >>> 0) : Number(protoInt64.dec(c.lo, c.hi));
    } else if (tag === 16) {
      c.v64();
      nanos = c.lo | 0;
    } else skipOther(c, tag, TIMESTAMP_FIELDS);
  }
  if (c.pos !== end) stop();
  writeTimestamp(seconds, nanos, o);
}

/** A Timestamp as json-compiled's timestampText writes it (RFC 3339, nanos trimmed to 0, 3, 6 or 9 digits), quoted. */
function writeTimestamp(seconds: number, nanos: number, o: Out): void {
  if (!timestampInRange(seconds, nanos)) stop();
  const days = Math.floor(seconds / 86_400);
  // Small integers from here on (int32 arithmetic: no floating-point remainder).
  const secOfDay = (seconds - days * 86_400) | 0;
  const { y, m, d } = civilFromDays(days);
  const hh = (secOfDay / 3600) | 0;
  const mm = ((secOfDay % 3600) / 60) | 0;
  const ss = secOfDay % 60;
  o.room(32);
  const buf = o.buf;
  let n = o.n;
  buf[n++] = QUOTE;
  buf[n++] = 0x30 + ((y / 1000) | 0);
  buf[n++] = 0x30 + (((y / 100) | 0) % 10);
  buf[n++] = 0x30 + (((y / 10) | 0) % 10);
  buf[n++] = 0x30 + (y % 10);
  buf[n++] = 0x2d;
  buf[n++] = 0x30 + ((m / 10) | 0);
  buf[n++] = 0x30 + (m % 10);
  buf[n++] = 0x2d;
  buf[n++] = 0x30 + ((d / 10) | 0);
  buf[n++] = 0x30 + (d % 10);
  buf[n++] = 0x54; // T
  buf[n++] = 0x30 + ((hh / 10) | 0);
  buf[n++] = 0x30 + (hh % 10);
  buf[n++] = 0x3a;
  buf[n++] = 0x30 + ((mm / 10) | 0);
  buf[n++] = 0x30 + (mm % 10);
  buf[n++] = 0x3a;
  buf[n++] = 0x30 + ((ss / 10) | 0);
  buf[n++] = 0x30 + (ss % 10);
  if (nanos !== 0) {
    const digits = nanos % 1_000_000 === 0 ? 3 : nanos % 1_000 === 0 ? 6 : 9;
    buf[n++] = 0x2e;
    for (let i = 0, scale = 100_000_000; i < digits; i++, scale = (scale / 10) | 0)
      buf[n++] = 0x30 + (((nanos / scale) | 0) % 10);
  }
  buf[n++] = 0x5a; // Z
  buf[n++] = QUOTE;
  o.n = n;
}

/** The zero value protobuf-es gives an implicit-presence scalar. */
export function zeroOf(s: ScalarType): unknown {
  switch (s) {
    case ScalarType.STRING:
      return "";
    case ScalarType.BOOL:
      return false;
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return 0n;
    default:
      return 0;
  }
}
