import { type DescField, type DescMessage, type MessageShape, ScalarType, toBinary } from "@bufbuild/protobuf";
import { BIT32, BIT64, isPlainProto3, LENGTH_DELIMITED, VARINT } from "./proto-wire.js";
import * as wire from "./proto-write.js";

/**
 * Protobuf binary encoding compiled once per descriptor: `encodeMessage(schema, message)` returns the bytes
 * protobuf-es `toBinary(schema, message)` returns (its reference, byte for byte), written by generated code into one
 * reused scratch buffer instead of a BinaryWriter and a closure per field.
 *
 * 1. Covered: proto3 messages whose fields are scalars, enums, lists (packed or not, as the descriptor says),
 *    oneofs and messages of covered types (well-known Any, Timestamp, Duration among them). A type with a map, a
 *    wrapper or Struct field, or of another edition is not covered: `toBinary` encodes it whole (and any type that
 *    holds it).
 * 2. What is written is what protobuf-es's compiled writer writes: fields in field-number order, an implicit-presence
 *    field only when it is not its zero value (by protobuf-es's own comparison per type), an explicit-presence one
 *    when it is an own property and not undefined, a oneof's field when it is the case, then the unknown fields
 *    (`$unknown`) as they are.
 * 3. A value other than its field's own type (see proto-write.ts), a message of another type than its field's, a
 *    missing list or oneof: anything unusual stops the compiled path, and `toBinary` encodes the message instead,
 *    returning or throwing as it does.
 *
 * Per-process state only: the compiled writers depend on descriptors, and the scratch buffer on nothing between
 * encodes.
 */

const PRESENCE_IMPLICIT = 2;

type Write = (m: unknown) => void;

interface Compiled {
  /** undefined: not covered (toBinary encodes it), or still being compiled. */
  write?: Write;
  covered: boolean;
}

const compiled = new WeakMap<DescMessage, Compiled>();
/** The writers as a plain object (a module namespace is slower to call through). */
const WIRE = { ...wire };

/** The helper each scalar type is written with, and its wire type. */
const SCALAR: Record<ScalarType, readonly [keyof typeof wire, number]> = {
  [ScalarType.DOUBLE]: ["double", BIT64],
  [ScalarType.FLOAT]: ["float", BIT32],
  [ScalarType.INT64]: ["int64", VARINT],
  [ScalarType.UINT64]: ["uint64", VARINT],
  [ScalarType.INT32]: ["int32", VARINT],
  [ScalarType.FIXED64]: ["fixed64", BIT64],
  [ScalarType.FIXED32]: ["fixed32", BIT32],
  [ScalarType.BOOL]: ["bool", VARINT],
  [ScalarType.STRING]: ["string", LENGTH_DELIMITED],
  [ScalarType.BYTES]: ["bytes", LENGTH_DELIMITED],
  [ScalarType.UINT32]: ["uint32", VARINT],
  [ScalarType.SFIXED32]: ["sfixed32", BIT32],
  [ScalarType.SFIXED64]: ["sfixed64", BIT64],
  [ScalarType.SINT32]: ["sint32", VARINT],
  [ScalarType.SINT64]: ["sint64", VARINT],
};

const tagOf = (f: DescField, wireType: number): number => ((f.number << 3) | wireType) >>> 0;

function covers(desc: DescMessage): boolean {
  if (!isPlainProto3(desc)) return false;
  return desc.fields.every((f) => f.fieldKind !== "map" && !("delimitedEncoding" in f && f.delimitedEncoding));
}

function compiledOf(desc: DescMessage): Compiled {
  const known = compiled.get(desc);
  if (known !== undefined) return known;
  const c: Compiled = { covered: covers(desc) };
  compiled.set(desc, c);
  if (!c.covered) return c;
  const children: Compiled[] = [];
  const body = fieldsCode(desc, children);
  if (children.some((child) => !child.covered)) {
    c.covered = false;
    return c;
  }
  try {
    const make = new Function("W", "C", "U8", `"use strict"; return function write(m) {\n${body}\n};`);
    c.write = make(WIRE, children, Uint8Array) as Write;
  } catch {
    // No code generation in this process (node --disallow-code-generation-from-strings): toBinary encodes.
    c.covered = false;
  }
  return c;
}

/** The generated body: the type check, every field in number order, then the unknown fields. */
function fieldsCode(desc: DescMessage, children: Compiled[]): string {
  const lines: string[] = ["let v;"];
  if (desc.fields.length > 0) lines.push(`if (m.$typeName !== ${JSON.stringify(desc.typeName)}) W.stopEncode();`);
  const sorted = [...desc.fields].sort((a, b) => a.number - b.number);
  for (const f of sorted) lines.push(fieldCode(f, children));
  lines.push(
    "const u = m.$unknown;",
    "if (u !== undefined) for (let i = 0; i < u.length; i++) {",
    "  const r = u[i];",
    '  if (typeof r.no !== "number" || typeof r.wireType !== "number") W.stopEncode();',
    "  W.tag(((r.no << 3) | r.wireType) >>> 0); W.raw(r.data);",
    "}",
  );
  return lines.join("\n");
}

/** Writes value `x` of field `f` with its tag (a message as a length-delimited record). */
function valueCode(f: DescField, x: string, children: Compiled[]): string {
  if (f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message")) {
    const k = children.push(compiledOf(f.message)) - 1;
    return `{ W.tag(${tagOf(f, LENGTH_DELIMITED)}); const at = W.fork(); C[${k}].write(${x}); W.join(at); }`;
  }
  const [helper, wireType] = SCALAR[scalarOf(f)];
  return `{ W.tag(${tagOf(f, wireType)}); W.${helper}(${x}); }`;
}

const scalarOf = (f: DescField): ScalarType =>
  f.fieldKind === "scalar" || (f.fieldKind === "list" && f.listKind === "scalar") ? f.scalar : ScalarType.INT32;

function fieldCode(f: DescField, children: Compiled[]): string {
  const key = JSON.stringify(f.localName);
  if (f.fieldKind === "list") return listCode(f, key, children);
  if (f.oneof !== undefined) {
    return `v = m[${JSON.stringify(f.oneof.localName)}]; if (v.case === ${key}) ${valueCode(f, "v.value", children)}`;
  }
  if (f.presence !== PRESENCE_IMPLICIT) {
    return `v = m[${key}]; if (v !== undefined && Object.prototype.hasOwnProperty.call(m, ${key})) ${valueCode(f, "v", children)}`;
  }
  return `v = m[${key}]; if (${notZeroCode(f)}) ${valueCode(f, "v", children)}`;
}

/** protobuf-es's test of an implicit-presence field against its zero value. */
function notZeroCode(f: DescField): string {
  if (f.fieldKind === "enum") return `v !== ${f.enum.values[0]?.number ?? 0}`;
  switch (scalarOf(f)) {
    case ScalarType.BOOL:
      return "v !== false";
    case ScalarType.STRING:
      return 'v !== ""';
    case ScalarType.BYTES:
      return "!(v instanceof U8) || v.byteLength > 0";
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return "!Object.is(v, 0)";
    default:
      return "v != 0";
  }
}

function listCode(f: DescField & { fieldKind: "list" }, key: string, children: Compiled[]): string {
  const loop = (stmt: string) => `for (let i = 0; i < v.length; i++) ${stmt}`;
  if (f.listKind === "message" || !f.packed) return `v = m[${key}]; ${loop(valueCode(f, "v[i]", children))}`;
  const [helper] = SCALAR[scalarOf(f)];
  const tag = tagOf(f, LENGTH_DELIMITED);
  return `v = m[${key}]; if (v.length != 0) { W.tag(${tag}); const at = W.fork(); ${loop(`W.${helper}(v[i]);`)} W.join(at); }`;
}

/**
 * The compiled path alone: the bytes, or undefined when the type is not covered or the message is one the compiled
 * path leaves to `toBinary` (encodeMessage's fallback).
 */
export function compiledEncode<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
): Uint8Array | undefined {
  const write = compiledOf(schema).write;
  // One scratch buffer: an encode started while another runs (a getter or Proxy in a message calling back) is left
  // to toBinary.
  if (write === undefined || encoding) return undefined;
  encoding = true;
  wire.beginEncode();
  try {
    write(message);
  } catch {
    wire.finishEncode();
    return undefined;
  } finally {
    encoding = false;
  }
  return wire.finishEncode();
}

let encoding = false;

/**
 * `toBinary(schema, message)`, by the compiled writers where they cover the type (see the file header), else by
 * `toBinary` itself; on any message the compiled path does not take as protobuf-es does, `toBinary` decides.
 */
export function encodeMessage<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): Uint8Array {
  return compiledEncode(schema, message) ?? toBinary(schema, message);
}
