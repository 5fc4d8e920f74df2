import { Buffer } from "node:buffer";
import { type DescField, type DescMessage, ScalarType } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { Cursor, EDITION_PROTO3, LENGTH_DELIMITED, scalarReader, stop } from "../core/proto-wire.js";
import { type CompiledJson, enumWriter, keyText, scalarWriter, stringText } from "./json-compiled.js";
import {
  int64At,
  Out,
  readLooseString,
  readStrictString,
  scalarValue,
  skipOther,
  stringAt,
  timestampAt,
  type WriteValue,
  zeroOf,
} from "./json-transcode-values.js";

/**
 * Gateway JSON straight from protobuf bytes: `text(desc, bytes)` is the text `gatewayJson(desc, decodeMessage(desc,
 * bytes))` writes (json-compiled.ts, the reference for every byte), written into one byte buffer as the records are
 * read: no message objects, no BigInts for 64-bit integers in the safe range, no string per field, no second decode of
 * an Any's payload, and one flat string at the end.
 *
 * 1. Covered: proto3 messages whose fields are scalars, open enums, lists of them (packed or not) and messages of
 *    covered types, Any and Timestamp, with their members in the order of their field numbers. A type with a map, a
 *    wrapper, Struct or Duration field, a proto2 or editions file, a group or a 64-bit `jstype` string is not covered:
 *    `text` answers undefined, and so does a covered type when such a field has a record.
 * 2. Records in field-number order, as protobuf-es writes them: each member's `"key":value` is written when its record
 *    comes, the members skipped before it with their defaults (zero values, `null`, `[]`, a non-nullable message's
 *    zero; an unset oneof left out), a list's records read while they follow one another, unknown fields skipped.
 *    Per covered type, generated code (built once from the descriptor: `new Function` over a text naming only field
 *    numbers and indices) reads the records with a `switch` on the whole tag and calls each field's writer from its
 *    own call site.
 * 3. Values as the compiled writer writes them (json-transcode-values.ts): 64-bit integers in quotes, enums by name,
 *    bytes in base64, strings quoted and HTML-escaped (ASCII escaped as it is copied), Timestamps in RFC 3339, an Any
 *    as `{"@type":...,fields}` from its payload's bytes in place (a payload type not covered, a well-known one among
 *    them, is decoded and written by the compiled writer, as the reference does with every payload).
 * 4. Anything else stops (NotCompiled, or any error) and `text` answers undefined, so that the decoder and the
 *    compiled writer decide, returning or throwing as they do: a record out of field-number order or a singular field
 *    written twice (the last scalar wins, messages merge: left to the decoder), a list's records apart, a wire type
 *    not its field's, a record past its message's end, invalid UTF-8 in a strict string, an Any whose type does not
 *    resolve, a Timestamp out of range, nesting deeper than 100.
 *
 * Per-process state only: the plans depend on descriptors; the output buffer is scratch, overwritten by every call.
 */

const RECURSION_LIMIT = 100;
const ANY = "google.protobuf.Any";
const TIMESTAMP = "google.protobuf.Timestamp";
/** The output buffer's size past which it is not kept between calls. */
const OUT_KEPT_MAX = 1 << 20;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const ANY_FIELDS: ReadonlySet<number> = new Set([1, 2]);
const ascii = (s: string): Uint8Array => Buffer.from(s, "latin1");

/** A message's members from its records at the cursor up to `end` (the braces are the caller's). */
type Body = (c: Cursor, end: number, depth: number, o: Out) => void;

interface Plan {
  readonly body: Body;
  /** Each member's `"key":` and default (undefined: an unset oneof, left out), built on first use. */
  readonly unset: readonly ((() => Uint8Array) | undefined)[];
  /** Field number → [member index, `"key":` bytes] of the message fields (for `text` with a field). */
  readonly messageFields: ReadonlyMap<number, readonly [number, Uint8Array, DescMessage]>;
}

/** The transcoder of one set of JSON options (its compiled writers give the defaults, Any types and fallbacks). */
export class JsonTranscoder {
  readonly #json: CompiledJson;
  readonly #plans = new Map<DescMessage, Plan | undefined>();
  readonly #building = new Set<DescMessage>();
  readonly #any: Body = (c, end, depth, o) => this.#anyAt(c, end, depth, o);
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
      if (field === undefined) plan.body(new Cursor(bytes), bytes.length, 1, o);
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
    const [member, key, d] = plan.messageFields.get(no) ?? stop();
    const start = o.n;
    writeUnset(plan.unset, 0, member, o, start);
    if (o.n !== start) o.byte(COMMA);
    o.bytes(key);
    this.#messageBody(d)(new Cursor(bytes), bytes.length, 2, o);
    writeUnset(plan.unset, member + 1, plan.unset.length, o, start);
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
    } catch {
      // No code generation in this process (node --disallow-code-generation-from-strings): the caller decodes.
      return undefined;
    } finally {
      this.#building.delete(desc);
    }
  }

  /**
   * A message field's whole writer (braces included) given its end: Timestamp, Any, or a covered type's body (looked
   * up when first used: it may be a recursive type being built; one not covered stops).
   */
  #messageBody(d: DescMessage): Body {
    if (d.typeName === TIMESTAMP) return timestampAt;
    if (d.typeName === ANY) return this.#any;
    let body: Body | undefined;
    return (c, end, depth, o) => {
      body ??= (this.#plan(d) ?? stop()).body;
      o.byte(OPEN);
      body(c, end, depth, o);
      o.byte(CLOSE);
    };
  }

  #build(desc: DescMessage): Plan {
    const unset: ((() => Uint8Array) | undefined)[] = [];
    const messageFields = new Map<number, readonly [number, Uint8Array, DescMessage]>();
    const gen = new BodySource(unset);
    for (const [i, member] of desc.members.entries()) {
      for (const f of member.kind === "oneof" ? member.fields : [member]) {
        const key = ascii(keyText(f));
        const child = f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message");
        if (child && f.fieldKind === "message" && member.kind !== "oneof")
          messageFields.set(f.number, [i, key, f.message]);
        gen.field(f, i, key, child ? this.#messageBody(f.message!) : undefined);
      }
      unset.push(member.kind === "oneof" ? undefined : this.#unsetOf(desc, member));
    }
    return { body: gen.compile(desc.members.length), unset, messageFields };
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
   * An Any from its records: `{"@type":<url>,...payload}`. The payload is read from its bytes in place when its type
   * is covered; otherwise it is decoded and written by the compiled writer (the reference's way with every payload).
   */
  #anyAt(c: Cursor, end: number, depth: number, o: Out): void {
    if (depth > RECURSION_LIMIT) stop();
    let typeUrl = "";
    let urlAt = -1;
    let valueStart = 0;
    let valueEnd = 0;
    while (c.pos < end) {
      const tag = c.u32();
      if (tag === 10) {
        urlAt = c.pos;
        typeUrl = readStrictString(c) as string;
      } else if (tag === 18) {
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
    if (urlAt < 0) o.text(stringText(typeUrl));
    else {
      c.pos = urlAt;
      stringAt(c, o, readStrictString);
    }
    o.byte(COMMA);
    const at = o.n;
    c.pos = valueStart;
    plan.body(c, valueEnd, depth + 1, o);
    c.pos = end;
    if (o.n === at) o.n--; // an empty payload: no comma
    o.byte(CLOSE);
  }
}

/** The generated body of one type: its `switch` cases, and the values their code refers to by index. */
class BodySource {
  readonly #cases: string[] = [];
  readonly #keys: Uint8Array[] = [];
  readonly #values: unknown[] = [];
  readonly #known = new Set<number>();
  readonly #unset: readonly ((() => Uint8Array) | undefined)[];

  constructor(unset: readonly ((() => Uint8Array) | undefined)[]) {
    this.#unset = unset;
  }

  /** Adds a field of member `member`; `message`: a message field's whole writer (a list's item). */
  field(f: DescField, member: number, key: Uint8Array, message: Body | undefined): void {
    this.#known.add(f.number);
    const k = this.#keys.length;
    this.#keys.push(key);
    const v = this.#values.length;
    this.#values.push(message ?? scalarValue(f));
    const item = message !== undefined ? `V[${v}](c, c.lengthEnd(), depth + 1, o);` : this.#scalarCall(f, v);
    const head = `if (next > ${member}) stop(); if (next < ${member}) U(next, ${member}, o, start); if (o.n !== start) o.byte(44); o.bytes(K[${k}]); next = ${member + 1};`;
    const tag = f.number * 8 + wireOf(f);
    if (f.fieldKind !== "list") {
      this.#cases.push(`case ${tag}: ${head} ${item} break;`);
      return;
    }
    const packed = isPackable(f) ? `case ${f.number * 8 + LENGTH_DELIMITED}: ` : "";
    const packedItems = `const pe = c.lengthEnd(); while (c.pos < pe) { if (o.n !== s0) o.byte(44); ${item} } if (c.pos !== pe) stop();`;
    this.#cases.push(
      `case ${tag}: ${packed}{ ${head} o.byte(91); const s0 = o.n; let t = tag;
        for (let r = 0; r < end; r++) {
          if (t === ${tag}) { if (o.n !== s0) o.byte(44); ${item} }
          else ${packed === "" ? "stop();" : `{ ${packedItems} }`}
          if (c.pos >= end) break;
          const at = c.pos; t = c.u32();
          if (t >>> 3 !== ${f.number}) { c.pos = at; break; }
        }
        o.byte(93); break; }`,
    );
  }

  /** A scalar's writer call: strings and 64-bit integers by direct calls, the rest by the field's own writer. */
  #scalarCall(f: DescField, v: number): string {
    const scalar = f.fieldKind === "enum" || (f.fieldKind === "list" && f.listKind === "enum") ? undefined : f.scalar;
    if (scalar === ScalarType.STRING) return `STR(c, o, ${f.utf8Validation ? "RS" : "RL"});`;
    if (scalar === ScalarType.INT64) return "I64(c, o, false);";
    if (scalar === ScalarType.UINT64) return "I64(c, o, true);";
    return `V[${v}](c, o, depth);`;
  }

  compile(members: number): Body {
    const src = `"use strict"; return function body(c, end, depth, o) {
      if (depth > ${RECURSION_LIMIT}) stop();
      const start = o.n;
      let next = 0;
      while (c.pos < end) {
        const tag = c.u32();
        switch (tag) { ${this.#cases.join("\n")} default: skip(c, tag, known); }
      }
      if (c.pos !== end) stop();
      if (next < ${members}) U(next, ${members}, o, start);
    };`;
    const unset = this.#unset;
    const U = (from: number, to: number, o: Out, start: number): void => writeUnset(unset, from, to, o, start);
    const make = new Function("K", "V", "U", "STR", "RS", "RL", "I64", "stop", "skip", "known", src);
    return make(
      this.#keys,
      this.#values as WriteValue[],
      U,
      stringAt,
      readStrictString,
      readLooseString,
      int64At,
      stop,
      skipOther,
      this.#known,
    ) as Body;
  }
}

/** Members `from..to-1` with no record: each its key and default after a comma if one is due (an unset oneof: none). */
function writeUnset(
  unset: readonly ((() => Uint8Array) | undefined)[],
  from: number,
  to: number,
  o: Out,
  start: number,
): void {
  for (let k = from; k < to; k++) {
    const u = unset[k];
    if (u === undefined) continue;
    if (o.n !== start) o.byte(COMMA);
    o.bytes(u());
  }
}

/**
 * Step 1 for one type's own fields (its message fields' types are checked when first written), and step 2's order:
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

/** The wire type of one record of a field (one item of a list). */
function wireOf(f: DescField): number {
  if (f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message")) return LENGTH_DELIMITED;
  const enumLike = f.fieldKind === "enum" || (f.fieldKind === "list" && f.listKind === "enum");
  return scalarReader(enumLike ? ScalarType.INT32 : f.scalar!, false)[1];
}

const isPackable = (f: DescField): boolean =>
  f.fieldKind === "list" &&
  (f.listKind === "enum" ||
    (f.listKind === "scalar" && f.scalar !== ScalarType.STRING && f.scalar !== ScalarType.BYTES));
