import {
  create,
  type DescField,
  type DescMessage,
  fromBinary,
  type MessageShape,
  ScalarType,
} from "@bufbuild/protobuf";
import { Cursor, isPlainProto3, LENGTH_DELIMITED, NotCompiled, scalarReader, stop } from "./proto-wire.js";

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
 * 3. Per covered type, generated code (built once from the descriptor: `new Function` over a text naming only its
 *    field numbers and quoted local names) makes the message as one object literal and reads each field written
 *    with its own wire type by its own property access; the other records (oneofs, packed lists, unknown fields)
 *    go through per-field closures.
 * 4. Anything unusual (a wire type other than the field's, a record running past its message's end, a group, a
 *    varint too long, invalid UTF-8 in a string, nesting deeper than protobuf-es's limit of 100) stops the compiled
 *    path and the whole input is decoded again by `fromBinary`, which then returns or throws as it does.
 *
 * Per-process state only: the compiled readers depend on descriptors, never on the bytes decoded.
 */

const RECURSION_LIMIT = 100;
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

function compiledOf(desc: DescMessage): Compiled {
  let c = compiled.get(desc);
  if (c !== undefined) return c;
  if (!isPlainProto3(desc)) {
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
    try {
      c.make = makerOf(desc);
      c.read = generatedRead(desc, fields);
    } catch {
      // No code generation in this process (node --disallow-code-generation-from-strings): fromBinary decodes.
      c = { fields: undefined };
      compiled.set(desc, c);
    }
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
  const readChild = childReader(child);
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
    const readChild = childReader(child);
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
function childReader(desc: DescMessage): (target: Msg, c: Cursor, depth: number) => void {
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
      const readChild = childReader(f.message!);
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
