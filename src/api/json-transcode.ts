import { Buffer } from "node:buffer";
import { type DescField, type DescMessage, protoInt64, ScalarType } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { civilFromDays } from "../core/go/time.js";
import { Cursor, LENGTH_DELIMITED, scalarReader, stop } from "../core/proto-wire.js";
import {
  type CompiledJson,
  enumWriter,
  keyText,
  scalarWriter,
  singularBytes,
  stringText,
  timestampInRange,
  type ValueWriter,
} from "./json-compiled.js";

/**
 * Gateway JSON straight from protobuf bytes: `text(desc, bytes)` is the text `gatewayJson(desc, decodeMessage(desc,
 * bytes))` writes (json-compiled.ts, the reference for every byte), written into one byte buffer as the records are
 * read: no message objects, no BigInts for 64-bit integers in the safe range, no string per field, no second decode of
 * an Any's payload, and one flat string at the end.
 *
 * 1. Covered: proto3 messages whose fields are scalars, open enums, lists of them (packed or not) and messages of
 *    covered types, Any and Timestamp. A type with a map, a wrapper, Struct or Duration field, a proto2 or editions
 *    file, a group or a 64-bit `jstype` string is not covered, nor is a type holding one: `text` answers undefined.
 * 2. Records in declaration order, as protobuf-es writes them: each member's `"key":value` is written when its record
 *    comes, the members skipped before it with their defaults (zero values, `null`, `[]`, a non-nullable message's
 *    zero; an unset oneof left out), a list's records read while they follow one another, unknown fields skipped.
 * 3. Values as the compiled writer writes them: 64-bit integers in quotes, enums by name, bytes in base64, strings
 *    quoted and HTML-escaped (printable ASCII without `"` `\` `<` `>` `&` copied as it is), Timestamps in RFC 3339, an
 *    Any as `{"@type":...,fields}` from its payload's bytes in place (a payload type not covered, a well-known one
 *    among them, is decoded and written by the compiled writer, as the reference does with every payload).
 * 4. Anything else stops (NotCompiled, or any error) and `text` answers undefined, so that the decoder and the
 *    compiled writer decide, returning or throwing as they do: a record out of declaration order or a singular field
 *    written twice (the last scalar wins, messages merge: left to the decoder), a list's records apart, a wire type
 *    not its field's, a record past its message's end, invalid UTF-8 in a strict string, an Any whose type does not
 *    resolve, a Timestamp out of range, nesting deeper than 100.
 *
 * Per-process state only: the plans depend on descriptors; the output buffer is scratch, overwritten by every call.
 */

const RECURSION_LIMIT = 100;
const EDITION_PROTO3 = 999;
const ANY = "google.protobuf.Any";
const TIMESTAMP = "google.protobuf.Timestamp";
const MAX_SAFE_HI = 0x20_0000; // 2^53 / 2^32
const TWO_32 = 0x1_0000_0000;
/** The scratch buffer's first size, and the size past which it is not kept between calls. */
const OUT_INITIAL = 4096;
const OUT_KEPT_MAX = 1 << 20;

/** The output: bytes written so far into a growing buffer; `wide` once a byte above 0x7f is written. */
class Out {
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
    let n = this.n;
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

const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const QUOTE = 0x22;
const ascii = (s: string): Uint8Array => Buffer.from(s, "latin1");

/** A value writer: one value read at the cursor (its tag read) written to the output. */
type WriteValue = (c: Cursor, o: Out, depth: number) => void;
/** A message written from its records at the cursor up to `end`, braces included. */
type WriteMessage = (c: Cursor, end: number, depth: number, o: Out) => void;

/** How a member is written when it has no record. */
interface MemberPlan {
  /** Its `"key":` and default value (undefined: left out, an unset oneof), built on first use. */
  readonly unset: (() => Uint8Array) | undefined;
  readonly list: boolean;
}

interface FieldPlan {
  readonly member: number;
  /** `"key":` as bytes. */
  readonly key: Uint8Array;
  /** The wire type of one record (one item for a list); a packable list also takes LENGTH_DELIMITED. */
  readonly wire: number;
  readonly packable: boolean;
  readonly value: WriteValue;
  /** A message field's writer given the message's end (for `text` with a field). */
  readonly message: WriteMessage | undefined;
}

interface Plan {
  readonly members: readonly MemberPlan[];
  /** Field number → its plan (a sparse array: field numbers of the served protos are small). */
  readonly fields: readonly (FieldPlan | undefined)[];
}

/** The transcoder of one set of JSON options (its compiled writers give the defaults, Any types and fallbacks). */
export class JsonTranscoder {
  readonly #json: CompiledJson;
  readonly #plans = new Map<DescMessage, Plan | undefined>();
  readonly #building = new Set<DescMessage>();
  #out = new Out();

  constructor(json: CompiledJson) {
    this.#json = json;
  }

  /**
   * The gateway JSON text of the message `bytes` encode; with `field`, of the message whose one record is the
   * message field number `field` holding `bytes`. Undefined when the caller must decode (see the header).
   */
  text(desc: DescMessage, bytes: Uint8Array, field?: number): string | undefined {
    const plan = this.#plan(desc);
    if (plan === undefined) return undefined;
    const o = this.#out;
    o.n = 0;
    o.wide = false;
    try {
      o.byte(OPEN);
      if (field === undefined) this.#body(plan, new Cursor(bytes), bytes.length, 1, o);
      else this.#oneField(plan, field, bytes, o);
      o.byte(CLOSE);
    } catch {
      return undefined;
    } finally {
      if (o.buf.length > OUT_KEPT_MAX) this.#out = new Out();
    }
    return o.wide ? o.buf.toString("utf8", 0, o.n) : o.buf.toString("latin1", 0, o.n);
  }

  /** A message whose one record is message field `no` holding `bytes` (read as its own input, as decoding does). */
  #oneField(plan: Plan, no: number, bytes: Uint8Array, o: Out): void {
    const f = plan.fields[no] ?? stop();
    const members = plan.members;
    if (f.message === undefined || members[f.member]!.list || members[f.member]!.unset === undefined) stop();
    const start = o.n;
    for (let k = 0; k < f.member; k++) writeUnset(members[k]!, o, start);
    if (o.n !== start) o.byte(COMMA);
    o.bytes(f.key);
    f.message!(new Cursor(bytes), bytes.length, 2, o);
    for (let k = f.member + 1; k < members.length; k++) writeUnset(members[k]!, o, start);
  }

  /** The members of a covered message from its records at the cursor up to `end` (the braces are the caller's). */
  #body(plan: Plan, c: Cursor, end: number, depth: number, o: Out): void {
    if (depth > RECURSION_LIMIT) stop();
    const start = o.n;
    const members = plan.members;
    let next = 0;
    while (c.pos < end) {
      const tag = c.u32();
      const no = tag >>> 3;
      const f = plan.fields[no];
      if (f === undefined) {
        if (no === 0) stop();
        c.skip(tag & 7);
        continue;
      }
      if (f.member < next) stop();
      for (; next < f.member; next++) writeUnset(members[next]!, o, start);
      if (o.n !== start) o.byte(COMMA);
      o.bytes(f.key);
      next = f.member + 1;
      if (members[f.member]!.list) listAt(f, c, end, tag, o, depth);
      else if ((tag & 7) === f.wire) f.value(c, o, depth);
      else stop();
    }
    if (c.pos !== end) stop();
    for (; next < members.length; next++) writeUnset(members[next]!, o, start);
  }

  /** A covered type's plan, or undefined (built once; a type being built above counts as covered: recursion). */
  #plan(desc: DescMessage): Plan | undefined {
    if (this.#plans.has(desc)) return this.#plans.get(desc);
    this.#plans.set(desc, undefined);
    if (!covered(desc)) return undefined;
    this.#building.add(desc);
    try {
      const plan = this.#build(desc);
      this.#plans.set(desc, plan);
      return plan;
    } finally {
      this.#building.delete(desc);
    }
  }

  #build(desc: DescMessage): Plan | undefined {
    const members: MemberPlan[] = [];
    const fields: (FieldPlan | undefined)[] = [];
    for (const [i, member] of desc.members.entries()) {
      for (const f of member.kind === "oneof" ? member.fields : [member]) {
        const message = this.#messageOf(f);
        const value = message === undefined ? scalarValue(f) : messageValue(message);
        if (value === undefined) return undefined;
        const key = ascii(keyText(f));
        fields[f.number] = { member: i, key, wire: wireOf(f), packable: isPackable(f), value, message };
      }
      const list = member.kind === "field" && member.fieldKind === "list";
      members.push({ unset: member.kind === "oneof" ? undefined : this.#unsetOf(desc, member), list });
    }
    return { members, fields };
  }

  /** A member's `"key":` and default, built on first use (a non-nullable message's zero may throw). */
  #unsetOf(desc: DescMessage, f: DescField): () => Uint8Array {
    let bytes: Uint8Array | undefined;
    const text = this.#defaultText(desc, f);
    return () => {
      bytes ??= Buffer.from(keyText(f) + text(), "utf8");
      return bytes;
    };
  }

  #defaultText(desc: DescMessage, f: DescField): () => string {
    if (f.fieldKind === "list") return () => "[]";
    if (f.fieldKind === "message") return this.#json.unsetText(desc, f as DescField & { message: DescMessage });
    if (f.presence !== 2 /* IMPLICIT */) return () => "null";
    if (f.fieldKind === "enum") return () => enumWriter(f.enum)(0);
    if (f.fieldKind !== "scalar" || f.scalar === ScalarType.BYTES) return () => "null";
    const scalar = f.scalar;
    return () => scalarWriter(scalar)(zeroOf(scalar));
  }

  /**
   * A message field's writer (a list's item), undefined for a scalar field; a child type not covered gives a writer
   * that stops (its plan is looked up when first used: it may be a recursive type being built).
   */
  #messageOf(f: DescField): WriteMessage | undefined {
    if (f.fieldKind !== "message" && !(f.fieldKind === "list" && f.listKind === "message")) return undefined;
    const d = f.message!;
    if (d.typeName === TIMESTAMP) return timestampAt;
    if (d.typeName === ANY) return (c, end, depth, o) => this.#anyAt(c, end, depth, o);
    if (!this.#building.has(d) && this.#plan(d) === undefined) return () => stop();
    let plan: Plan | undefined;
    return (c, end, depth, o) => {
      plan ??= this.#plan(d) ?? stop();
      o.byte(OPEN);
      this.#body(plan, c, end, depth, o);
      o.byte(CLOSE);
    };
  }

  /**
   * An Any from its records: `{"@type":<url>,...payload}`. The payload is read from its bytes in place when its type
   * is covered; otherwise it is decoded and written by the compiled writer (the reference's way with every payload).
   */
  #anyAt(c: Cursor, end: number, depth: number, o: Out): void {
    if (depth > RECURSION_LIMIT) stop();
    let typeUrl = "";
    let valueStart = 0;
    let valueEnd = 0;
    while (c.pos < end) {
      const tag = c.u32();
      if (tag === 10) typeUrl = readStrictString(c) as string;
      else if (tag === 18) {
        valueEnd = c.lengthEnd();
        valueStart = c.pos;
        c.pos = valueEnd;
      } else skipOther(c, tag, ANY_FIELDS);
    }
    if (c.pos !== end) stop();
    const desc = this.#json.anyType(typeUrl) ?? stop();
    const plan = this.#plan(desc);
    if (plan === undefined) {
      o.text(this.#json.anyText({ typeUrl, value: c.buf.subarray(valueStart, valueEnd) } as Any));
      return;
    }
    o.ascii('{"@type":');
    o.text(stringText(typeUrl));
    o.byte(COMMA);
    const at = o.n;
    c.pos = valueStart;
    this.#body(plan, c, valueEnd, depth + 1, o);
    c.pos = end;
    if (o.n === at) o.n--; // an empty payload: no comma
    o.byte(CLOSE);
  }
}

const ANY_FIELDS: ReadonlySet<number> = new Set([1, 2]);
const TIMESTAMP_FIELDS: ReadonlySet<number> = new Set([1, 2]);

/**
 * Step 1 for one type's own fields (its message fields' types are checked as they are planned), and step 2's order:
 * protobuf-es writes fields by number, so the members must come in the same order by their fields' numbers (a oneof
 * whose numbers straddle another field's does not).
 */
function covered(desc: DescMessage): boolean {
  if (desc.file.edition !== EDITION_PROTO3 || desc.typeName.startsWith("google.protobuf.")) return false;
  const byNumber = [...desc.fields].sort((a, b) => a.number - b.number);
  const memberOf = (f: DescField): number => desc.members.indexOf(f.oneof ?? f);
  if (byNumber.some((f, i) => i > 0 && memberOf(f) < memberOf(byNumber[i - 1]!))) return false;
  return desc.fields.every((f) => {
    switch (f.fieldKind) {
      case "scalar":
        return !f.longAsString;
      case "enum":
        return f.enum.open;
      case "message":
        return !f.delimitedEncoding;
      case "list":
        if (f.listKind === "message") return !f.delimitedEncoding;
        return f.listKind === "enum" ? f.enum.open : !f.longAsString;
      default:
        return false;
    }
  });
}

/** A member with no record: nothing (an unset oneof), or its key and default after a comma if one is due. */
function writeUnset(m: MemberPlan, o: Out, start: number): void {
  if (m.unset === undefined) return;
  if (o.n !== start) o.byte(COMMA);
  o.bytes(m.unset());
}

/** A message field's value: its length, then the message up to its end. */
const messageValue =
  (write: WriteMessage): WriteValue =>
  (c, o, depth) =>
    write(c, c.lengthEnd(), depth + 1, o);

/** A list from its first record (tag read) and the records of the same field that follow it directly. */
function listAt(f: FieldPlan, c: Cursor, end: number, tag: number, o: Out, depth: number): void {
  o.byte(0x5b);
  const itemsStart = o.n;
  let t = tag;
  // Each record takes at least two bytes of the input (tag, value).
  for (let records = 0; records < end; records++) {
    if ((t & 7) === f.wire) {
      if (o.n !== itemsStart) o.byte(COMMA);
      f.value(c, o, depth);
    } else if (f.packable && (t & 7) === LENGTH_DELIMITED) {
      const packedEnd = c.lengthEnd();
      while (c.pos < packedEnd) {
        if (o.n !== itemsStart) o.byte(COMMA);
        f.value(c, o, depth);
      }
      if (c.pos !== packedEnd) stop();
    } else stop();
    if (c.pos >= end) break;
    const at = c.pos;
    t = c.u32();
    if (t >>> 3 !== tag >>> 3) {
      c.pos = at;
      break;
    }
  }
  o.byte(0x5d);
}

/** The wire type of one record of a field (one item of a list). */
function wireOf(f: DescField): number {
  if (f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message")) return LENGTH_DELIMITED;
  const enumLike = f.fieldKind === "enum" || (f.fieldKind === "list" && f.listKind === "enum");
  return scalarReader(enumLike ? ScalarType.INT32 : f.scalar!, false)[1];
}

const isPackable = (f: DescField): boolean =>
  f.fieldKind === "list" &&
  (f.listKind === "enum" || (f.listKind === "scalar" && f.scalar !== ScalarType.STRING && f.scalar !== ScalarType.BYTES));

/** A scalar or enum field's value writer. */
function scalarValue(f: DescField): WriteValue {
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
function skipOther(c: Cursor, tag: number, known: ReadonlySet<number>): void {
  const no = tag >>> 3;
  if (no === 0 || known.has(no)) stop();
  c.skip(tag & 7);
}

const readStrictString = scalarReader(ScalarType.STRING, true)[0];
const readLooseString = scalarReader(ScalarType.STRING, false)[0];

/**
 * A string: ASCII is written as it is read, escaped as JSON.stringify then goHtmlEscape escape it (`\"` `\\`, `\b`
 * `\t` `\n` `\f` `\r`, other controls and `<` `>` `&` as `\u00xx`); at the first byte above 0x7f the string is
 * decoded and quoted by stringText instead.
 */
function stringAt(c: Cursor, o: Out, read: (c: Cursor) => unknown): void {
  const at = c.pos;
  const end = c.lengthEnd();
  const src = c.buf;
  o.room((end - c.pos) * 6 + 2);
  const buf = o.buf;
  let n = o.n;
  buf[n++] = QUOTE;
  for (let i = c.pos; i < end; i++) {
    const b = src[i]!;
    if (b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c && b !== 0x3c && b !== 0x3e && b !== 0x26) {
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

/** JSON.stringify's short escapes of control characters (the others are `\u00xx`). */
const SHORT_ESCAPES: Readonly<Record<number, number>> = { 8: 0x62, 9: 0x74, 10: 0x6e, 12: 0x66, 13: 0x72 };
const HEX = "0123456789abcdef";

/** One ASCII byte that needs escaping, written at `n`; the position after it. */
function escapeAscii(buf: Uint8Array, at: number, b: number): number {
  let n = at;
  buf[n++] = 0x5c;
  if (b === 0x22 || b === 0x5c) buf[n++] = b;
  else if (b === 0x7f) buf[n - 1] = b; // DEL is written as it is
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

function int64At(c: Cursor, o: Out, unsigned: boolean): void {
  c.v64();
  const hi = c.hi >>> 0;
  const v =
    hi < MAX_SAFE_HI ? hi * TWO_32 + (c.lo >>> 0) : unsigned ? protoInt64.uDec(c.lo, c.hi) : protoInt64.dec(c.lo, c.hi);
  o.byte(QUOTE);
  o.ascii(String(v));
  o.byte(QUOTE);
}

/** A Timestamp from its records (seconds: the last wins, as a number); out of range stops. */
function timestampAt(c: Cursor, end: number, depth: number, o: Out): void {
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
  const secOfDay = seconds - days * 86_400;
  const { y, m, d } = civilFromDays(days);
  const hh = Math.floor(secOfDay / 3600);
  const mm = Math.floor((secOfDay % 3600) / 60);
  const ss = secOfDay % 60;
  o.room(32);
  const buf = o.buf;
  let n = o.n;
  buf[n++] = QUOTE;
  buf[n++] = 0x30 + Math.floor(y / 1000);
  buf[n++] = 0x30 + (Math.floor(y / 100) % 10);
  buf[n++] = 0x30 + (Math.floor(y / 10) % 10);
  buf[n++] = 0x30 + (y % 10);
  buf[n++] = 0x2d;
  buf[n++] = 0x30 + Math.floor(m / 10);
  buf[n++] = 0x30 + (m % 10);
  buf[n++] = 0x2d;
  buf[n++] = 0x30 + Math.floor(d / 10);
  buf[n++] = 0x30 + (d % 10);
  buf[n++] = 0x54; // T
  buf[n++] = 0x30 + Math.floor(hh / 10);
  buf[n++] = 0x30 + (hh % 10);
  buf[n++] = 0x3a;
  buf[n++] = 0x30 + Math.floor(mm / 10);
  buf[n++] = 0x30 + (mm % 10);
  buf[n++] = 0x3a;
  buf[n++] = 0x30 + Math.floor(ss / 10);
  buf[n++] = 0x30 + (ss % 10);
  if (nanos !== 0) {
    const digits = nanos % 1_000_000 === 0 ? 3 : nanos % 1_000 === 0 ? 6 : 9;
    buf[n++] = 0x2e;
    for (let i = 0, scale = 100_000_000; i < digits; i++, scale /= 10) buf[n++] = 0x30 + (Math.floor(nanos / scale) % 10);
  }
  buf[n++] = 0x5a; // Z
  buf[n++] = QUOTE;
  o.n = n;
}

/** The zero value protobuf-es gives an implicit-presence scalar. */
function zeroOf(s: ScalarType): unknown {
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
