import {
  create,
  type DescEnum,
  type DescField,
  type DescMessage,
  type Message,
  type Registry,
  ScalarType,
} from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import type { Any, Timestamp } from "@bufbuild/protobuf/wkt";
import { BoundedCache } from "../core/bounded-cache.js";
import { civilFromDays } from "../core/go/time.js";
import { decodeMessage } from "../core/proto-decode.js";

/**
 * Gateway JSON (json.ts, docs/node-api.md §2.4) by per-type writers compiled once per descriptor and options: the
 * text of a message is written straight from its fields, without `toJson`, reflection or an ordered tree. The
 * reference for every byte is json.ts's `renderMessage` (itself `toJson` patched per the descriptor); the writers
 * follow it field kind by field kind:
 *
 * 1. Keys: the proto field names in declaration order; an unset oneof is left out, a set one keyed by its field.
 * 2. Scalars as `toJson` writes them: 32-bit integers as numbers, 64-bit integers as strings, floats with `NaN`
 *    and `±Infinity` as strings, enums by value name (the number when unnamed), bytes as padded standard base64;
 *    empty singular bytes and an unset explicit-presence scalar are `null`.
 * 3. Messages: unset is `null`, or the zero value for gogoproto non-nullable fields (a zero Timestamp is
 *    `"0001-01-01T00:00:00Z"`); Timestamp in RFC 3339 with its nanos trimmed to 0, 3, 6 or 9 digits (out of
 *    range: toJson's error); Any as `{"@type": <url as stored>, ...payload fields}` (`"value"` for a well-known
 *    payload); the other well-known types as `toJson` writes them.
 * 4. A message with a map field or a proto2 required field is rendered by `renderMessage` whole (map keys are
 *    sorted there, and an unset required field fails as toJson fails).
 *
 * 5. The text is HTML-escaped as it is written, like Go encoding/json (`<` `>` `&` U+2028 U+2029 as `\uXXXX`): only
 *    string values can hold those characters (keys and enum names are proto identifiers, the rest digits, base64
 *    and timestamps), so each string is escaped when quoted, and the reference path's text by `deps.reference` /
 *    `deps.wellKnown` (escaping is per character, so escaping the parts escapes the whole).
 *
 * Per-process state only: the writers depend on descriptors and options, never on the messages they write.
 */

/** What the writers need of json.ts (passed in, so that json.ts stays the one entry point). */
export interface CompiledJsonDeps {
  readonly nonNullable: ReadonlySet<string> | undefined;
  readonly registry: Registry | undefined;
  /** The reference path's text of a message (json.ts renderMessage + write), HTML-escaped. */
  readonly reference: (desc: DescMessage, msg: Message) => string;
  /** `toJson` of a well-known type as JSON text, HTML-escaped; a failure is a MarshalError. */
  readonly wellKnown: (desc: DescMessage, msg: Message) => string;
  readonly marshalError: (message: string) => Error;
}

/** A compiled message writer: its fields' `"key":value` pairs joined by commas, without braces. */
export interface CompiledMessage {
  body(msg: Message): string;
}

export type ValueWriter = (v: unknown) => string;
/**
 * A field's `"key":value` text from its value `v` (the oneof's ADT for a oneof) and the message `m`, or undefined to
 * leave the key out (an unset oneof).
 */
type FieldWriter = (v: unknown, m: Record<string, unknown>) => string | undefined;

const TIMESTAMP = "google.protobuf.Timestamp";
/** Any type URLs whose registry type is remembered (the served registry names a few dozen types). */
const ANY_TYPES_MAX = 256;
const ANY = "google.protobuf.Any";
const ZERO_TIME_TEXT = '"0001-01-01T00:00:00Z"';
const isWkt = (d: DescMessage): boolean => d.typeName.startsWith("google.protobuf.");

/** Compiles writers for one options object; `of(desc)` is built once per descriptor (recursive types included). */
export class CompiledJson {
  readonly #deps: CompiledJsonDeps;
  readonly #compiled = new Map<DescMessage, CompiledMessage>();
  readonly #anyTypes = new BoundedCache<string, DescMessage>(ANY_TYPES_MAX);

  constructor(deps: CompiledJsonDeps) {
    this.#deps = deps;
  }

  /** The whole text of `msg`, HTML-escaped. */
  text(desc: DescMessage, msg: Message): string {
    if (isWkt(desc)) return this.#deps.reference(desc, msg);
    return `{${this.of(desc).body(msg)}}`;
  }

  of(desc: DescMessage): CompiledMessage {
    let c = this.#compiled.get(desc);
    if (c !== undefined) return c;
    // Map keys are sorted and proto2 required fields checked by the reference path.
    if (desc.fields.some((f) => f.fieldKind === "map" || f.presence === 3 /* LEGACY_REQUIRED */)) {
      const reference = this.#deps.reference;
      c = { body: (msg) => reference(desc, msg).slice(1, -1) };
      this.#compiled.set(desc, c);
      return c;
    }
    const writers: FieldWriter[] = [];
    let body: ((m: Record<string, unknown>) => string) | undefined;
    c = { body: (msg) => (body ??= bodyOf(desc, writers))(msg as unknown as Record<string, unknown>) };
    // Registered before its fields compile, so that a recursive type finds itself.
    this.#compiled.set(desc, c);
    for (const member of desc.members) {
      writers.push(member.kind === "oneof" ? this.#oneof(member.fields) : this.#field(desc, member));
    }
    return c;
  }

  #oneof(fields: readonly DescField[]): FieldWriter {
    const byCase = new Map<string, readonly [string, ValueWriter]>();
    for (const f of fields) byCase.set(f.localName, [keyText(f), this.#oneofValue(f)]);
    return (v) => {
      const adt = v as { case: string | undefined; value: unknown };
      if (adt.case === undefined) return undefined;
      const w = byCase.get(adt.case);
      return w === undefined ? undefined : w[0] + w[1](adt.value);
    };
  }

  #oneofValue(f: DescField): ValueWriter {
    if (f.fieldKind === "message") return this.#messageValue(f.message);
    if (f.fieldKind === "enum") return enumWriter(f.enum);
    if (f.fieldKind === "scalar" && f.scalar === ScalarType.BYTES) return singularBytes;
    return f.fieldKind === "scalar" ? scalarWriter(f.scalar) : () => "null";
  }

  #field(desc: DescMessage, f: DescField): FieldWriter {
    const key = keyText(f);
    const local = f.localName;
    switch (f.fieldKind) {
      case "message": {
        const value = this.#messageValue(f.message);
        const unset = this.unsetText(desc, f as DescField & { message: DescMessage });
        return (v) => key + (v === undefined ? unset() : value(v));
      }
      case "list": {
        const item: ValueWriter =
          f.listKind === "message"
            ? this.#messageValue(f.message)
            : f.listKind === "enum"
              ? enumWriter(f.enum)
              : scalarWriter(f.scalar);
        return (v) => key + listText(v as readonly unknown[], item);
      }
      case "map":
        throw new Error(`map field ${f.name} reaches a compiled writer`);
      default: {
        const bytes = f.fieldKind === "scalar" && f.scalar === ScalarType.BYTES;
        const value = bytes ? singularBytes : f.fieldKind === "enum" ? enumWriter(f.enum) : scalarWriter(f.scalar);
        if (f.presence === 2 /* IMPLICIT */) return (v) => key + value(v);
        // Explicit presence: toJson leaves an unset field out (a default on the prototype is unset), read as null.
        return (v, m) => key + (v !== undefined && Object.hasOwn(m, local) ? value(v) : "null");
      }
    }
  }

  /** The text of an unset message field: null, or the zero value of a non-nullable one (built on first use). */
  unsetText(desc: DescMessage, f: DescField & { message: DescMessage }): () => string {
    if (this.#deps.nonNullable?.has(`${desc.typeName}.${f.name}`) !== true) return () => "null";
    if (f.message.typeName === TIMESTAMP) return () => ZERO_TIME_TEXT;
    let zero: string | undefined;
    return () => {
      zero ??= this.#messageValue(f.message)(create(f.message));
      return zero;
    };
  }

  #messageValue(d: DescMessage): ValueWriter {
    if (d.typeName === ANY) return (v) => this.anyText(v as Any);
    if (d.typeName === TIMESTAMP) {
      const wellKnown = this.#deps.wellKnown;
      return (v) => timestampText(v as Timestamp) ?? wellKnown(d, v as Message);
    }
    if (isWkt(d)) {
      const wellKnown = this.#deps.wellKnown;
      return (v) => wellKnown(d, v as Message);
    }
    let c: CompiledMessage | undefined;
    return (v) => {
      c ??= this.of(d);
      return `{${c.body(v as Message)}}`;
    };
  }

  /** The registry's type for an Any's URL (remembered per URL, at most ANY_TYPES_MAX: a pure lookup), or undefined. */
  anyType(typeUrl: string): DescMessage | undefined {
    const known = this.#anyTypes.get(typeUrl);
    if (known !== undefined) return known;
    const registry = this.#deps.registry;
    const desc = registry === undefined || typeUrl === "" ? undefined : registry.getMessage(typeUrlName(typeUrl));
    if (desc !== undefined) this.#anyTypes.set(typeUrl, desc);
    return desc;
  }

  /**
   * Any: the payload unpacked with the registry as `anyUnpack` does it (the type named by the URL's last segment),
   * decoded by the compiled decoder; an unresolvable type is the reference's marshal error.
   */
  anyText(any: Any): string {
    const desc = this.anyType(any.typeUrl);
    if (desc === undefined) throw this.#deps.marshalError(`unable to resolve type URL ${any.typeUrl}`);
    const inner = decodeMessage(desc, any.value);
    const head = `"@type":${stringText(any.typeUrl)}`;
    if (isWkt(desc)) return `{${head},"value":${this.#deps.reference(desc, inner)}}`;
    const body = this.of(desc).body(inner);
    return body === "" ? `{${head}}` : `{${head},${body}}`;
  }
}

/** The type name of an Any's URL (its last path segment), with `anyUnpack`'s error for an empty one. */
function typeUrlName(url: string): string {
  const name = url.slice(url.lastIndexOf("/") + 1);
  if (name.length === 0) throw new Error(`invalid type url: ${url}`);
  return name;
}

/** A field's `"name":` (HTML-escaped like every text written, though proto field names never need it). */
export const keyText = (f: DescField): string => `${goHtmlEscape(JSON.stringify(f.name))}:`;

/**
 * The body writer of one message type: each member's value read by its own property access in generated code (one
 * inline cache per type and field, where a shared closure would see every type's shapes), its writer called, the
 * texts joined by commas (an undefined text, an unset oneof, left out). The code names no value of any message:
 * only the members' local names, quoted by JSON.stringify.
 */
function bodyOf(desc: DescMessage, writers: readonly FieldWriter[]): (m: Record<string, unknown>) => string {
  const lines = desc.members.map((member, i) => {
    const t = i === 0 ? "o = t;" : 'o = o === "" ? t : o + "," + t;';
    return `t = w[${i}](m[${JSON.stringify(member.localName)}], m); if (t !== undefined) ${t}`;
  });
  const src = `"use strict"; return function body(m) { let o = ""; let t; ${lines.join(" ")} return o; };`;
  try {
    return new Function("w", src)(writers) as (m: Record<string, unknown>) => string;
  } catch {
    // No code generation in this process (node --disallow-code-generation-from-strings): the same loop, in closures.
    const names = desc.members.map((member) => member.localName);
    return (m) => {
      let o = "";
      for (let i = 0; i < writers.length; i++) {
        const t = writers[i]!(m[names[i]!], m);
        if (t !== undefined) o = o === "" ? t : `${o},${t}`;
      }
      return o;
    };
  }
}

function listText(items: readonly unknown[], item: ValueWriter): string {
  if (items.length === 0) return "[]";
  let out = `[${item(items[0])}`;
  for (let i = 1; i < items.length; i++) out += `,${item(items[i])}`;
  return `${out}]`;
}

export const singularBytes: ValueWriter = (v) =>
  (v as Uint8Array).length === 0 ? "null" : `"${base64Encode(v as Uint8Array)}"`;

const int32Text: ValueWriter = (v) => JSON.stringify(v);
const int64Text: ValueWriter = (v) => (typeof v === "bigint" ? `"${v}"` : JSON.stringify(String(v)));
const floatText: ValueWriter = (v) => {
  const n = v as number;
  if (Number.isNaN(n)) return '"NaN"';
  if (n === Number.POSITIVE_INFINITY) return '"Infinity"';
  if (n === Number.NEGATIVE_INFINITY) return '"-Infinity"';
  return JSON.stringify(n);
};
/**
 * A string value quoted as JSON.stringify quotes it, HTML-escaped: as it is between quotes when it holds nothing to
 * escape (no control character, quote, backslash, surrogate, `<` `>` `&` U+2028 U+2029), else JSON.stringify's text
 * escaped by goHtmlEscape.
 */
export function stringText(v: unknown): string {
  const s = v as string;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) {
      return goHtmlEscape(JSON.stringify(s));
    }
    if (c >= 0xd800 ? c <= 0xdfff : c === 0x2028 || c === 0x2029) return goHtmlEscape(JSON.stringify(s));
  }
  return `"${s}"`;
}

const HTML_UNSAFE = /[<>&\u2028\u2029]/;

/** Go encoding/json HTML-safe escaping applied after standard JSON string escaping. */
export function goHtmlEscape(json: string): string {
  if (!HTML_UNSAFE.test(json)) return json;
  return json
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
const boolText: ValueWriter = (v) => (v === true ? "true" : "false");
const bytesText: ValueWriter = (v) => `"${base64Encode(v as Uint8Array)}"`;

export function scalarWriter(s: ScalarType): ValueWriter {
  switch (s) {
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return int64Text;
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE:
      return floatText;
    case ScalarType.STRING:
      return stringText;
    case ScalarType.BOOL:
      return boolText;
    case ScalarType.BYTES:
      return bytesText;
    default:
      return int32Text;
  }
}

const enumWriters = new WeakMap<DescEnum, ValueWriter>();
/** An enum value by its name as toJson writes it; a number the enum does not name is written as the number. */
export function enumWriter(e: DescEnum): ValueWriter {
  let w = enumWriters.get(e);
  if (w !== undefined) return w;
  if (e.typeName === "google.protobuf.NullValue") {
    w = () => "null";
  } else {
    const names = new Map<number, string>();
    for (const v of e.values)
      if (!names.has(v.number)) names.set(v.number, goHtmlEscape(JSON.stringify(e.value[v.number]!.jsonName)));
    w = (v) => names.get(v as number) ?? JSON.stringify(v);
  }
  enumWriters.set(e, w);
  return w;
}

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in ms (toJson's range). */
const TIME_MS_MIN = -62_135_596_800_000;
const TIME_MS_MAX = 253_402_300_799_000;
/** "00" to "59": two-digit fields of a time (built once). */
const TWO_DIGITS: readonly string[] = Array.from({ length: 60 }, (_, i) => (i < 10 ? `0${i}` : String(i)));

/** Whether toJson writes a Timestamp of these seconds and nanos (0001-01-01 to 9999-12-31, nanos in 0..999,999,999). */
export function timestampInRange(seconds: number, nanos: number): boolean {
  const ms = seconds * 1000;
  return ms >= TIME_MS_MIN && ms <= TIME_MS_MAX && nanos >= 0 && nanos <= 999_999_999;
}

/**
 * A Timestamp as toJson writes it (`new Date(ms).toISOString()` with the nanos trimmed), quoted; undefined when
 * toJson would fail (out of range, bad nanos), so that the caller takes toJson's error.
 */
export function timestampText(t: Timestamp): string | undefined {
  const seconds = Number(t.seconds);
  if (!timestampInRange(seconds, t.nanos)) return undefined;
  const days = Math.floor(seconds / 86_400);
  const secOfDay = seconds - days * 86_400;
  const { y: year, m: month, d: day } = civilFromDays(days);
  const hh = Math.floor(secOfDay / 3600);
  const mm = Math.floor((secOfDay % 3600) / 60);
  const ss = secOfDay % 60;
  const y = year >= 1000 ? String(year) : String(year).padStart(4, "0");
  const d = TWO_DIGITS;
  return `"${y}-${d[month]}-${d[day]}T${d[hh]}:${d[mm]}:${d[ss]}${t.nanos === 0 ? "" : fraction(t.nanos)}Z"`;
}

/** The nanos as toJson trims them: none, or 3, 6 or 9 digits. */
function fraction(nanos: number): string {
  if (nanos === 0) return "";
  const s = String(nanos + 1_000_000_000).slice(1);
  if (s.endsWith("000000")) return `.${s.slice(0, 3)}`;
  if (s.endsWith("000")) return `.${s.slice(0, 6)}`;
  return `.${s}`;
}
