import {
  create,
  type DescField,
  type DescMessage,
  fromBinary,
  type MessageShape,
  protoInt64,
  ScalarType,
} from "@bufbuild/protobuf";

/**
 * Protobuf binary decoding compiled once per descriptor: `decodeMessage(schema, bytes)` returns what protobuf-es
 * `fromBinary(schema, bytes)` returns (the reference for every value: field values, `$unknown` entries, which fields
 * are set), with a reader per field built once instead of the reflective dispatch per record.
 *
 * 1. Covered: proto3 messages whose fields are scalars, open enums, lists (packed or not, as protobuf-es accepts
 *    both) and messages of covered types (well-known Any, Timestamp, Duration among them). A type with a map, a
 *    wrapper or Struct field, a group, a 64-bit `jstype` string or another edition is not covered: `fromBinary`
 *    decodes it whole (and any type that holds it).
 * 2. Records are read as protobuf-es reads them: fields in any order, a repeated singular message merged into the
 *    first, the last scalar wins, unknown fields kept in `$unknown` as `{no, wireType, data}` with `data` a view of
 *    the input, bytes values views of the input.
 * 3. Anything unusual (a wire type other than the field's, a record running past its message's end, a group, a
 *    varint too long, invalid UTF-8 in a string, nesting deeper than protobuf-es's limit of 100) stops the compiled
 *    path and the whole input is decoded again by `fromBinary`, which then returns or throws as it does.
 *
 * Per-process state only: the compiled readers depend on descriptors, never on the bytes decoded.
 */

const RECURSION_LIMIT = 100;
const EDITION_PROTO3 = 999;
/** Wire types. */
const VARINT = 0;
const BIT64 = 1;
const LENGTH_DELIMITED = 2;
const BIT32 = 5;

/** Stops the compiled path (caught by decodeMessage, which falls back to fromBinary). */
class NotCompiled extends Error {}
const stop = (): never => {
  throw new NotCompiled();
};

/** A position in the input; bounds as protobuf-es checks them (against the whole input). */
class Cursor {
  pos = 0;
  lo = 0;
  hi = 0;
  #view: DataView | undefined;
  constructor(readonly buf: Uint8Array) {}

  view(): DataView {
    this.#view ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    return this.#view;
  }

  /** An unsigned varint of at most 5 bytes (tags, lengths, 32-bit values); longer ones stop. */
  u32(): number {
    const buf = this.buf;
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = buf[this.pos++];
      if (b === undefined) return stop();
      result += (b & 0x7f) * 2 ** shift;
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

/** ASCII strings up to this length are built from their bytes directly (TextDecoder's call costs more). */
const ASCII_DIRECT_MAX = 1024;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const looseUtf8 = new TextDecoder("utf-8", { ignoreBOM: true });
function readString(c: Cursor, strict: boolean): string {
  const end = c.lengthEnd();
  const start = c.pos;
  c.pos = end;
  const bytes = c.buf.subarray(start, end);
  if (end - start <= ASCII_DIRECT_MAX) {
    // One flat string from the codes (a string grown a character at a time is a rope that every reader flattens).
    const codes: number[] = new Array(bytes.length);
    let i = 0;
    for (; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b > 0x7f) break;
      codes[i] = b;
    }
    if (i === bytes.length) return String.fromCharCode.apply(null, codes);
  }
  if (!strict) return looseUtf8.decode(bytes);
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return stop();
  }
}

/** The reader of one scalar type and the wire type it is written with (enums are int32). */
function scalarReader(type: ScalarType, strictUtf: boolean): readonly [ValueReader, number] {
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

type Msg = Record<string, unknown> & { $unknown?: { no: number; wireType: number; data: Uint8Array }[] };
/** Reads one record of a field into the message (the tag already read). */
type FieldReader = (m: Msg, c: Cursor, wireType: number, depth: number) => void;

/** Reads a message's records from the cursor up to `end` into `m`. */
type MessageRead = (m: Msg, c: Cursor, end: number, depth: number) => void;

interface Compiled {
  /** undefined: the type is not covered (fromBinary decodes it). */
  readonly fields: Map<number, FieldReader> | undefined;
  /** The generated reader (built once the fields are): undefined while compiling or when not covered. */
  read?: MessageRead;
  /** A new message as `create(desc)` makes it (generated, or create itself). */
  make?: () => Msg;
}

const compiled = new WeakMap<DescMessage, Compiled>();
/** Types being compiled (a recursive type is covered if the rest of it is). */
const compiling = new Set<DescMessage>();

/** Well-known types decoded as plain messages; the others have a local form of their own (wrappers, Struct...). */
const PLAIN_WKT = new Set(["google.protobuf.Any", "google.protobuf.Timestamp", "google.protobuf.Duration"]);

function covers(desc: DescMessage): boolean {
  if (desc.file.edition !== EDITION_PROTO3) return false;
  if (desc.typeName.startsWith("google.protobuf.") && !PLAIN_WKT.has(desc.typeName)) return false;
  return true;
}

function compiledOf(desc: DescMessage): Compiled {
  let c = compiled.get(desc);
  if (c !== undefined) return c;
  if (!covers(desc)) {
    c = { fields: undefined };
    compiled.set(desc, c);
    return c;
  }
  const fields = new Map<number, FieldReader>();
  c = { fields };
  compiled.set(desc, c);
  compiling.add(desc);
  try {
    for (const f of desc.fields) {
      const r = fieldReader(f);
      if (r === undefined) {
        c = { fields: undefined };
        compiled.set(desc, c);
        return c;
      }
      fields.set(f.number, r);
    }
    c.make = makerOf(desc);
    c.read = generatedRead(desc, fields);
  } finally {
    compiling.delete(desc);
  }
  return c;
}

/** A covered child type's fields (compiled now unless it is being compiled above us). */
function childFields(desc: DescMessage): Map<number, FieldReader> | undefined | "pending" {
  if (compiling.has(desc)) return "pending";
  return compiledOf(desc).fields;
}

function fieldReader(f: DescField): FieldReader | undefined {
  const local = f.localName;
  switch (f.fieldKind) {
    case "scalar":
    case "enum": {
      if (f.fieldKind === "scalar" && f.longAsString) return undefined;
      if (f.fieldKind === "enum" && !f.enum.open) return undefined;
      const [read, wire] = scalarReader(f.fieldKind === "enum" ? ScalarType.INT32 : f.scalar, f.utf8Validation);
      const oneof = f.oneof?.localName;
      if (oneof !== undefined) {
        return (m, c, w) => {
          if (w !== wire) stop();
          m[oneof] = { case: local, value: read(c) };
        };
      }
      return (m, c, w) => {
        if (w !== wire) stop();
        m[local] = read(c);
      };
    }
    case "message":
      return messageReader(f as DescField & { fieldKind: "message" });
    case "list":
      return listReader(f as DescField & { fieldKind: "list" });
    default:
      return undefined;
  }
}

function messageReader(f: DescField & { fieldKind: "message" }): FieldReader | undefined {
  if (f.delimitedEncoding) return undefined;
  const child = f.message;
  const fields = childFields(child);
  if (fields === undefined) return undefined;
  const readChild = childReader(child, fields);
  const local = f.localName;
  const oneof = f.oneof?.localName;
  if (oneof !== undefined) {
    return (m, c, w, depth) => {
      if (w !== LENGTH_DELIMITED) stop();
      const adt = m[oneof] as { case: string | undefined; value?: Msg };
      const target = adt.case === local ? adt.value! : (create(child) as unknown as Msg);
      readChild(target, c, depth);
      m[oneof] = { case: local, value: target };
    };
  }
  return (m, c, w, depth) => {
    if (w !== LENGTH_DELIMITED) stop();
    const target = (m[local] as Msg | undefined) ?? (create(child) as unknown as Msg);
    readChild(target, c, depth);
    m[local] = target;
  };
}

function listReader(f: DescField & { fieldKind: "list" }): FieldReader | undefined {
  const local = f.localName;
  if (f.listKind === "message") {
    if (f.delimitedEncoding) return undefined;
    const child = f.message;
    const fields = childFields(child);
    if (fields === undefined) return undefined;
    const readChild = childReader(child, fields);
    return (m, c, w, depth) => {
      if (w !== LENGTH_DELIMITED) stop();
      const target = create(child) as unknown as Msg;
      readChild(target, c, depth);
      (m[local] as unknown[]).push(target);
    };
  }
  if (f.listKind === "scalar" && f.longAsString) return undefined;
  if (f.listKind === "enum" && !f.enum.open) return undefined;
  const [read, wire] = scalarReader(f.listKind === "enum" ? ScalarType.INT32 : f.scalar, f.utf8Validation);
  const packable = wire !== LENGTH_DELIMITED;
  return (m, c, w) => {
    const items = m[local] as unknown[];
    if (packable && w === LENGTH_DELIMITED) {
      const end = c.lengthEnd();
      while (c.pos < end) items.push(read(c));
      if (c.pos !== end) stop();
      return;
    }
    if (w !== wire) stop();
    items.push(read(c));
  };
}

/** Reads a length-delimited child message into `target` (its type compiled on first use: it may be recursive). */
function childReader(
  desc: DescMessage,
  _fields: Map<number, FieldReader> | "pending",
): (target: Msg, c: Cursor, depth: number) => void {
  let comp: Compiled | undefined;
  return (target, c, depth) => {
    comp ??= compiledOf(desc);
    const read = comp.read ?? stop();
    const end = c.lengthEnd();
    read(target, c, end, depth + 1);
  };
}

/** A new message of a child type: `make` of its compiled form once built, `create` until then. */
function childMaker(desc: DescMessage): () => Msg {
  let make: (() => Msg) | undefined;
  return () => {
    make ??= compiledOf(desc).make;
    return make === undefined ? (create(desc) as unknown as Msg) : make();
  };
}

/** The record of one field read by the generic readers (the generated code's default case), or kept as unknown. */
function readOther(fields: Map<number, FieldReader>, m: Msg, c: Cursor, tag: number, depth: number): void {
  const no = tag >>> 3;
  const wireType = tag & 7;
  if (no === 0) stop();
  const read = fields.get(no);
  if (read !== undefined) {
    read(m, c, wireType, depth);
    return;
  }
  const start = c.pos;
  c.skip(wireType);
  const unknown = m.$unknown ?? [];
  unknown.push({ no, wireType, data: c.buf.subarray(start, c.pos) });
  m.$unknown = unknown;
}

/**
 * The generated reader of a type: a switch on the whole tag, one case per field written with its own wire type
 * (scalars, enums, messages, message lists, unpacked scalar lists), each storing by its own property access (one
 * inline cache per type and field); every other record (oneofs, packed lists, a wire type not the field's, unknown
 * fields) goes to readOther. The code names no value of any input: only local names quoted by JSON.stringify.
 */
function generatedRead(desc: DescMessage, fields: Map<number, FieldReader>): MessageRead {
  const readers: unknown[] = [];
  const cases: string[] = [];
  for (const f of desc.fields) {
    if (f.oneof !== undefined) continue;
    const at = readers.length;
    const prop = `m[${JSON.stringify(f.localName)}]`;
    if (f.fieldKind === "scalar" || f.fieldKind === "enum") {
      const [read, wire] = scalarReader(f.fieldKind === "enum" ? ScalarType.INT32 : f.scalar, f.utf8Validation);
      readers.push(read);
      cases.push(`case ${f.number * 8 + wire}: ${prop} = r[${at}](c); break;`);
    } else if (f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message")) {
      const make = childMaker(f.message!);
      const readChild = childReader(f.message!, "pending");
      readers.push((existing: Msg | undefined, c: Cursor, depth: number) => {
        const t = existing ?? make();
        readChild(t, c, depth);
        return t;
      });
      const value = `r[${at}](${f.fieldKind === "list" ? "undefined" : prop}, c, depth)`;
      cases.push(
        `case ${f.number * 8 + LENGTH_DELIMITED}: ${f.fieldKind === "list" ? `${prop}.push(${value})` : `${prop} = ${value}`}; break;`,
      );
    } else if (f.fieldKind === "list") {
      const [read, wire] = scalarReader(f.listKind === "enum" ? ScalarType.INT32 : f.scalar, f.utf8Validation);
      readers.push(read);
      cases.push(`case ${f.number * 8 + wire}: ${prop}.push(r[${at}](c)); break;`);
    }
  }
  const src = `"use strict"; return function read(m, c, end, depth) {
    if (depth > ${RECURSION_LIMIT}) stop();
    while (c.pos < end) {
      const tag = c.u32();
      switch (tag) { ${cases.join(" ")} default: other(fields, m, c, tag, depth); }
    }
    if (c.pos !== end) stop();
  };`;
  return new Function("r", "stop", "other", "fields", src)(readers, stop, readOther, fields) as MessageRead;
}

/** The zero value `create` gives an implicit-presence scalar or open enum field, as source text. */
function zeroText(f: DescField & { fieldKind: "scalar" | "enum" }): string {
  if (f.fieldKind === "enum") return "0";
  switch (f.scalar) {
    case ScalarType.STRING:
      return '""';
    case ScalarType.BOOL:
      return "false";
    case ScalarType.BYTES:
      return "new Uint8Array(0)";
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return "0n";
    default:
      return "0";
  }
}

/**
 * A maker of new messages as `create(desc)` makes them (`$typeName`, then the members in order: a oneof unset,
 * a list empty, an implicit-presence scalar its zero; message and explicit-presence fields absent), generated as
 * one object literal; checked once against `create`, whose maker is used instead if they differ.
 */
function makerOf(desc: DescMessage): () => Msg {
  const props = [`$typeName: ${JSON.stringify(desc.typeName)}`];
  for (const member of desc.members) {
    const key = JSON.stringify(member.localName);
    if (member.kind === "oneof") props.push(`${key}: { case: undefined }`);
    else if (member.fieldKind === "list") props.push(`${key}: []`);
    else if ((member.fieldKind === "scalar" || member.fieldKind === "enum") && member.presence === 2 /* IMPLICIT */) {
      props.push(`${key}: ${zeroText(member as DescField & { fieldKind: "scalar" | "enum" })}`);
    }
  }
  const make = new Function(`"use strict"; return function make() { return { ${props.join(", ")} }; };`)() as () => Msg;
  return sameShape(make(), create(desc) as unknown as Msg) ? make : () => create(desc) as unknown as Msg;
}

function sameShape(a: Msg, b: Msg): boolean {
  const keys = Object.keys(a);
  if (keys.join(",") !== Object.keys(b).join(",") || Object.getPrototypeOf(b) !== Object.prototype) return false;
  return keys.every((k) => {
    const x = a[k];
    const y = b[k];
    if (x instanceof Uint8Array) return y instanceof Uint8Array && y.length === 0 && x.length === 0;
    if (Array.isArray(x)) return Array.isArray(y) && y.length === 0 && x.length === 0;
    if (typeof x === "object" && x !== null)
      return (
        typeof y === "object" &&
        y !== null &&
        (y as { case?: unknown }).case === undefined &&
        Object.keys(y).join() === "case"
      );
    return x === y;
  });
}

/**
 * The compiled path alone: the message, or undefined when the type is not covered or the input is one the compiled
 * path leaves to `fromBinary` (decodeMessage's fallback). Errors other than that are thrown.
 */
export function compiledDecode<Desc extends DescMessage>(
  schema: Desc,
  bytes: Uint8Array,
): MessageShape<Desc> | undefined {
  const comp = compiledOf(schema);
  if (comp.read === undefined || comp.make === undefined) return undefined;
  const m = comp.make();
  try {
    comp.read(m, new Cursor(bytes), bytes.length, 1);
  } catch (e) {
    if (e instanceof NotCompiled) return undefined;
    throw e;
  }
  return m as unknown as MessageShape<Desc>;
}

/**
 * `fromBinary(schema, bytes)`, by the compiled readers where they cover the type (see the file header), else by
 * `fromBinary` itself; on any input the compiled path does not take as protobuf-es does, `fromBinary` decides.
 */
export function decodeMessage<Desc extends DescMessage>(schema: Desc, bytes: Uint8Array): MessageShape<Desc> {
  return compiledDecode(schema, bytes) ?? fromBinary(schema, bytes);
}
