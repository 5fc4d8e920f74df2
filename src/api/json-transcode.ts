import { type DescField, type DescMessage, protoInt64, ScalarType } from "@bufbuild/protobuf";
import type { Any, Timestamp } from "@bufbuild/protobuf/wkt";
import { Cursor, LENGTH_DELIMITED, scalarReader, stop } from "../core/proto-wire.js";
import {
  type CompiledJson,
  enumWriter,
  keyText,
  scalarWriter,
  singularBytes,
  stringText,
  timestampText,
  type ValueWriter,
} from "./json-compiled.js";

/**
 * Gateway JSON straight from protobuf bytes: `text(desc, bytes)` is the text `gatewayJson(desc, decodeMessage(desc,
 * bytes))` writes (json-compiled.ts, the reference for every byte), without message objects, BigInts for 64-bit
 * integers in the safe range, or a second decode of an Any's payload. Compiled once per descriptor, in the style of
 * proto-decode.ts:
 *
 * 1. Covered: proto3 messages whose fields are scalars, open enums, lists of them (packed or not) and messages of
 *    covered types, Any and Timestamp; a type with a map, a wrapper, Struct or Duration field, a proto2 or editions
 *    file, a group or a 64-bit `jstype` string is not covered, and neither is a type holding one: `text` answers
 *    undefined and the caller decodes.
 * 2. Per covered type, generated code reads the records into one text per field (a `switch` on the whole tag, one
 *    case per field written with its own wire type, and packed lists): the last scalar wins, list items are joined
 *    in the order read, unknown fields are skipped. Then it writes the fields' `"key":value` pairs in declaration
 *    order, each unset field as the compiled writer writes its default (zero values, `null`, `[]`, a non-nullable
 *    message's zero), an unset oneof left out.
 * 3. Values as the compiled writer writes them: 64-bit integers in quotes, enums by name, bytes in base64, strings
 *    quoted and HTML-escaped (a printable ASCII string without `"` `\` `<` `>` `&` is its bytes between quotes),
 *    Timestamps in RFC 3339, an Any as `{"@type":...,fields}` from its payload's bytes (a payload type not covered,
 *    a well-known one among them, is decoded and written by the compiled writer, as the reference decodes it).
 * 4. Anything else stops (NotCompiled, or any error) and `text` answers undefined, so that the decoder and the
 *    compiled writer decide, returning or throwing as they do: a record with a wire type not its field's, a
 *    singular message written twice (protobuf-es merges them), a record past its message's end, invalid UTF-8 in a
 *    strict string, an Any whose type does not resolve, a Timestamp out of range, nesting deeper than 100.
 *
 * Per-process state only: the generated code depends on descriptors, never on the bytes read.
 */

const RECURSION_LIMIT = 100;
const EDITION_PROTO3 = 999;
const ANY = "google.protobuf.Any";
const TIMESTAMP = "google.protobuf.Timestamp";
const MAX_SAFE_HI = 0x20_0000; // 2^53 / 2^32
const TWO_32 = 0x1_0000_0000;

/** A message's body (its `"key":value` pairs without braces) from its records at the cursor up to `end`. */
type BodyText = (c: Cursor, end: number, depth: number) => string;
/** One record's value text (its tag read), given the field's text so far (a list's items joined by commas). */
type RecordText = (c: Cursor, prev: string | undefined, depth: number) => string | undefined;

interface Compiled {
  /** undefined: not covered (or not yet built). */
  body: BodyText | undefined;
}

/** The transcoder of one set of JSON options (its compiled writers give the defaults, Any types and fallbacks). */
export class JsonTranscoder {
  readonly #json: CompiledJson;
  readonly #compiled = new Map<DescMessage, Compiled>();
  readonly #compiling = new Set<DescMessage>();

  constructor(json: CompiledJson) {
    this.#json = json;
  }

  /** The gateway JSON text of the message `bytes` encode, or undefined when the caller must decode (see header). */
  text(desc: DescMessage, bytes: Uint8Array): string | undefined {
    const body = this.#of(desc).body;
    if (body === undefined) return undefined;
    try {
      return `{${body(new Cursor(bytes), bytes.length, 1)}}`;
    } catch {
      return undefined;
    }
  }

  #of(desc: DescMessage): Compiled {
    let c = this.#compiled.get(desc);
    if (c !== undefined) return c;
    c = { body: undefined };
    this.#compiled.set(desc, c);
    this.#compiling.add(desc);
    try {
      if (this.#covers(desc)) c.body = this.#generate(desc);
    } catch {
      // No code generation in this process (node --disallow-code-generation-from-strings): the caller decodes.
      c.body = undefined;
    } finally {
      this.#compiling.delete(desc);
    }
    return c;
  }

  /** Whether a type is covered (a type being compiled above counts as covered: recursion). */
  #covers(desc: DescMessage): boolean {
    if (desc.file.edition !== EDITION_PROTO3 || desc.typeName.startsWith("google.protobuf.")) return false;
    return desc.fields.every((f) => {
      switch (f.fieldKind) {
        case "scalar":
          return !f.longAsString;
        case "enum":
          return f.enum.open;
        case "message":
          return !f.delimitedEncoding && this.#coversChild(f.message);
        case "list":
          if (f.listKind === "message") return !f.delimitedEncoding && this.#coversChild(f.message);
          return f.listKind === "enum" ? f.enum.open : !f.longAsString;
        default:
          return false;
      }
    });
  }

  #coversChild(d: DescMessage): boolean {
    if (d.typeName === ANY || d.typeName === TIMESTAMP || this.#compiling.has(d)) return true;
    // A child built before (or now): covered if its code exists.
    return this.#of(d).body !== undefined;
  }

  /** A child message's value text from its record (braces included), by the child's kind. */
  #childText(d: DescMessage): (c: Cursor, depth: number) => string {
    if (d.typeName === TIMESTAMP) return (c, depth) => timestampAt(c, c.lengthEnd(), depth + 1);
    if (d.typeName === ANY) return (c, depth) => this.#anyAt(c, c.lengthEnd(), depth + 1);
    let body: BodyText | undefined;
    return (c, depth) => {
      body ??= this.#of(d).body ?? stop();
      const end = c.lengthEnd();
      return `{${body(c, end, depth + 1)}}`;
    };
  }

  /**
   * An Any from its records: `{"@type":<url>,...payload}`. The payload is read from its bytes in place when its type
   * is covered; otherwise (a well-known type, a map...) it is decoded and written by the compiled writer, which is
   * what the reference does with every payload.
   */
  #anyAt(c: Cursor, end: number, depth: number): string {
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
    const body = this.#of(desc).body;
    if (body === undefined) {
      const any = { typeUrl, value: c.buf.subarray(valueStart, valueEnd) } as Any;
      return this.#json.anyText(any);
    }
    c.pos = valueStart;
    const text = body(c, valueEnd, depth + 1);
    c.pos = end;
    const head = `"@type":${stringText(typeUrl)}`;
    return text === "" ? `{${head}}` : `{${head},${text}}`;
  }

  /** The generated body of a covered type (see the header, step 2). */
  #generate(desc: DescMessage): BodyText {
    const handlers: RecordText[] = [];
    const defaults: (() => string)[] = [];
    const cases: string[] = [];
    const decls: string[] = [];
    const parts: string[] = [];
    /** A case: the record's text into the variable `v` (given its text so far). */
    const handle = (tag: number, v: string, h: RecordText): void => {
      cases.push(`case ${tag}: ${v} = h[${handlers.length}](c, ${v}, depth); break;`);
      handlers.push(h);
    };
    for (const [i, member] of desc.members.entries()) {
      if (member.kind === "oneof") {
        // o<i>: the set field's `"key":value`; k<i>: its number (a message field set twice in a row would merge).
        decls.push(`o${i}`, `k${i} = 0`);
        for (const f of member.fields) {
          const value = this.#recordValue(f);
          const key = keyText(f);
          const merge = f.fieldKind === "message" ? `if (k${i} === ${f.number}) stop(); ` : "";
          const at = handlers.length;
          handlers.push((c, _prev, depth) => key + value(c, depth));
          cases.push(`case ${tagOf(f)}: ${merge}o${i} = h[${at}](c, undefined, depth); k${i} = ${f.number}; break;`);
        }
        parts.push(`o${i}`);
        continue;
      }
      const f = member;
      const key = JSON.stringify(keyText(f));
      decls.push(`t${i}`);
      if (f.fieldKind === "list") {
        const item = this.#recordValue(f);
        handle(tagOf(f), `t${i}`, (c, prev, depth) => (prev === undefined ? "" : `${prev},`) + item(c, depth));
        if (isPackable(f)) handle(f.number * 8 + LENGTH_DELIMITED, `t${i}`, packedList(item));
        parts.push(`${key} + (t${i} === undefined ? "[]" : "[" + t${i} + "]")`);
        continue;
      }
      const value = this.#recordValue(f);
      const once = f.fieldKind === "message";
      handle(tagOf(f), `t${i}`, (c, prev, depth) => (once && prev !== undefined ? stop() : value(c, depth)));
      defaults.push(this.#defaultText(desc, f));
      parts.push(`${key} + (t${i} === undefined ? d[${defaults.length - 1}]() : t${i})`);
    }
    const numbers = new Set(desc.fields.map((f) => f.number));
    const join = desc.oneofs.length === 0 ? `return ${parts.join(' + "," + ') || '""'};` : joinWithOneofs(desc, parts);
    const src = `"use strict"; return function body(c, end, depth) {
      if (depth > ${RECURSION_LIMIT}) stop();
      ${decls.length === 0 ? "" : `let ${decls.join(", ")};`}
      while (c.pos < end) {
        const tag = c.u32();
        switch (tag) { ${cases.join(" ")} default: other(c, tag, numbers); }
      }
      if (c.pos !== end) stop();
      ${join}
    };`;
    return new Function("h", "d", "stop", "other", "numbers", src)(
      handlers,
      defaults,
      stop,
      skipOther,
      numbers,
    ) as BodyText;
  }

  /** A field's value text (one list item for a list) read at the cursor. */
  #recordValue(f: DescField): (c: Cursor, depth: number) => string {
    if (f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message")) {
      return this.#childText(f.message!);
    }
    const isList = f.fieldKind === "list";
    if (f.fieldKind === "enum" || (isList && f.listKind === "enum")) {
      const names = enumWriter(f.enum!);
      return (c) => {
        c.v64();
        return names(c.lo | 0);
      };
    }
    const scalar = f.scalar!;
    switch (scalar) {
      case ScalarType.STRING: {
        const strict = f.utf8Validation;
        return (c) => stringAt(c, strict);
      }
      case ScalarType.INT64:
        return int64At;
      case ScalarType.UINT64:
        return uint64At;
      case ScalarType.BOOL:
        return boolAt;
      default: {
        const [read] = scalarReader(scalar, f.utf8Validation);
        const write: ValueWriter = scalar === ScalarType.BYTES && !isList ? singularBytes : scalarWriter(scalar);
        return (c) => write(read(c));
      }
    }
  }

  /** The text of a singular field with no record: its zero value, `null`, or a non-nullable message's zero. */
  #defaultText(desc: DescMessage, f: DescField): () => string {
    if (f.fieldKind === "message") return this.#json.unsetText(desc, f as DescField & { message: DescMessage });
    if (f.presence !== 2 /* IMPLICIT */) return () => "null";
    let text: string;
    if (f.fieldKind === "enum") text = enumWriter(f.enum)(0);
    else if (f.fieldKind !== "scalar") text = "null";
    else if (f.scalar === ScalarType.BYTES) text = "null";
    else text = scalarWriter(f.scalar)(zeroOf(f.scalar));
    return () => text;
  }
}

const ANY_FIELDS: ReadonlySet<number> = new Set([1, 2]);
const TIMESTAMP_FIELDS: ReadonlySet<number> = new Set([1, 2]);

/** A field's tag with the wire type it is written with (lists of packable scalars: one item per record). */
function tagOf(f: DescField): number {
  if (f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message")) {
    return f.number * 8 + LENGTH_DELIMITED;
  }
  const scalar = f.fieldKind === "enum" || (f.fieldKind === "list" && f.listKind === "enum") ? ScalarType.INT32 : f.scalar!;
  return f.number * 8 + scalarReader(scalar, false)[1];
}

const isPackable = (f: DescField): boolean =>
  f.fieldKind === "list" &&
  (f.listKind === "enum" || (f.listKind === "scalar" && f.scalar !== ScalarType.STRING && f.scalar !== ScalarType.BYTES));

/** A packed list record: its items appended to the field's text (none: the text as it was). */
function packedList(item: (c: Cursor, depth: number) => string): RecordText {
  return (c, prev, depth) => {
    const end = c.lengthEnd();
    let t = prev;
    while (c.pos < end) {
      const x = item(c, depth);
      t = t === undefined ? x : `${t},${x}`;
    }
    if (c.pos !== end) stop();
    return t;
  };
}

/** The members' texts joined by commas, an unset oneof (undefined) left out. */
function joinWithOneofs(desc: DescMessage, parts: readonly string[]): string {
  const lines = desc.members.map((member, i) => {
    const text = parts[i]!;
    const add = `s = s === "" ? x : s + "," + x;`;
    return member.kind === "oneof" ? `x = ${text}; if (x !== undefined) ${add}` : `x = ${text}; ${add}`;
  });
  return `let s = ""; let x; ${lines.join(" ")} return s;`;
}

/** A record of a field number this type does not know is skipped; a known one with another wire type stops. */
function skipOther(c: Cursor, tag: number, known: ReadonlySet<number>): void {
  const no = tag >>> 3;
  if (no === 0 || known.has(no)) stop();
  c.skip(tag & 7);
}

const readStrictString = scalarReader(ScalarType.STRING, true)[0];
const readLooseString = scalarReader(ScalarType.STRING, false)[0];

/** A string's JSON text: printable ASCII with nothing to escape is its bytes between quotes; else stringText. */
function stringAt(c: Cursor, strict: boolean): string {
  const at = c.pos;
  const end = c.lengthEnd();
  const start = c.pos;
  const buf = c.buf;
  let i = start;
  for (; i < end; i++) {
    const b = buf[i]!;
    if (b >= 0x80 || b < 0x20 || b === 0x22 || b === 0x5c || b === 0x3c || b === 0x3e || b === 0x26) break;
  }
  if (i === end) {
    c.pos = end;
    return `"${c.latin1(start, end)}"`;
  }
  c.pos = at;
  return stringText(strict ? readStrictString(c) : readLooseString(c));
}

function int64At(c: Cursor): string {
  c.v64();
  const hi = c.hi >>> 0;
  return hi < MAX_SAFE_HI ? `"${hi * TWO_32 + (c.lo >>> 0)}"` : `"${protoInt64.dec(c.lo, c.hi)}"`;
}

function uint64At(c: Cursor): string {
  c.v64();
  const hi = c.hi >>> 0;
  return hi < MAX_SAFE_HI ? `"${hi * TWO_32 + (c.lo >>> 0)}"` : `"${protoInt64.uDec(c.lo, c.hi)}"`;
}

function boolAt(c: Cursor): string {
  c.v64();
  return c.lo !== 0 || c.hi !== 0 ? "true" : "false";
}

/** A Timestamp's text from its records (seconds: last wins, as a number; out of range stops). */
function timestampAt(c: Cursor, end: number, depth: number): string {
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
  return timestampText({ seconds, nanos } as unknown as Timestamp) ?? stop();
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
