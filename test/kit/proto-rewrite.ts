import { type DescMessage, ScalarType } from "@bufbuild/protobuf";
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import fc from "fast-check";

/**
 * Protobuf bytes rewritten as writers other than protobuf-es may write them, for the properties of the readers that
 * must read them as `fromBinary` does (the compiled decoder, the JSON transcoder): records shuffled (fields out of
 * order), a record repeated (the last scalar wins, messages merge), packed lists unpacked, unknown records of every
 * wire type inserted (groups included), a record's wire type changed, a byte changed or the input cut.
 */

interface WireRecord {
  readonly no: number;
  readonly wireType: WireType;
  /** The record's payload as written after its tag. */
  readonly data: Uint8Array;
}

function recordsOf(bytes: Uint8Array): WireRecord[] {
  const r = new BinaryReader(bytes);
  const out: WireRecord[] = [];
  while (r.pos < r.len) {
    const [no, wireType] = r.tag();
    const start = r.pos;
    r.skip(wireType, no);
    out.push({ no, wireType, data: bytes.subarray(start, r.pos) });
  }
  return out;
}

function write(records: readonly WireRecord[]): Uint8Array {
  const w = new BinaryWriter();
  for (const rec of records) {
    w.tag(rec.no, rec.wireType);
    w.raw(rec.data);
  }
  return w.finish();
}

const PACKED_READ: Partial<Record<ScalarType, readonly [WireType, (r: BinaryReader, w: BinaryWriter) => void]>> = {
  [ScalarType.INT32]: [WireType.Varint, (r, w) => w.int32(r.int32())],
  [ScalarType.UINT32]: [WireType.Varint, (r, w) => w.uint32(r.uint32())],
  [ScalarType.SINT32]: [WireType.Varint, (r, w) => w.sint32(r.sint32())],
  [ScalarType.INT64]: [WireType.Varint, (r, w) => w.int64(r.int64())],
  [ScalarType.UINT64]: [WireType.Varint, (r, w) => w.uint64(r.uint64())],
  [ScalarType.SINT64]: [WireType.Varint, (r, w) => w.sint64(r.sint64())],
  [ScalarType.BOOL]: [WireType.Varint, (r, w) => w.bool(r.bool())],
  [ScalarType.FIXED32]: [WireType.Bit32, (r, w) => w.fixed32(r.fixed32())],
  [ScalarType.SFIXED32]: [WireType.Bit32, (r, w) => w.sfixed32(r.sfixed32())],
  [ScalarType.FLOAT]: [WireType.Bit32, (r, w) => w.float(r.float())],
  [ScalarType.FIXED64]: [WireType.Bit64, (r, w) => w.fixed64(r.fixed64())],
  [ScalarType.SFIXED64]: [WireType.Bit64, (r, w) => w.sfixed64(r.sfixed64())],
  [ScalarType.DOUBLE]: [WireType.Bit64, (r, w) => w.double(r.double())],
};

/** Packed list records written as one record per item (protobuf-es reads both). */
function unpacked(desc: DescMessage, records: readonly WireRecord[]): WireRecord[] {
  const out: WireRecord[] = [];
  for (const rec of records) {
    const f = desc.fields.find((x) => x.number === rec.no);
    const scalar = f?.fieldKind === "list" ? (f.listKind === "enum" ? ScalarType.INT32 : f.scalar) : undefined;
    const codec = scalar === undefined ? undefined : PACKED_READ[scalar];
    if (codec === undefined || rec.wireType !== WireType.LengthDelimited) {
      out.push(rec);
      continue;
    }
    const r = new BinaryReader(rec.data);
    const end = r.uint32() + r.pos;
    while (r.pos < end) {
      const w = new BinaryWriter();
      codec[1](r, w);
      out.push({ no: rec.no, wireType: codec[0], data: w.finish() });
    }
  }
  return out;
}

const unknownRecord: fc.Arbitrary<WireRecord> = fc.oneof(
  fc
    .record({ no: fc.integer({ min: 1, max: 40 }), v: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }) })
    .map(({ no, v }) => ({ no, wireType: WireType.Varint, data: new BinaryWriter().uint64(v).finish() })),
  fc.record({ no: fc.integer({ min: 1, max: 40 }), b: fc.uint8Array({ maxLength: 5 }) }).map(({ no, b }) => ({
    no,
    wireType: WireType.LengthDelimited,
    data: new BinaryWriter().bytes(b).finish(),
  })),
  fc
    .record({ no: fc.integer({ min: 1, max: 40 }), b: fc.uint8Array({ minLength: 4, maxLength: 4 }) })
    .map(({ no, b }) => ({ no, wireType: WireType.Bit32, data: b })),
  fc
    .record({ no: fc.integer({ min: 1, max: 40 }), b: fc.uint8Array({ minLength: 8, maxLength: 8 }) })
    .map(({ no, b }) => ({ no, wireType: WireType.Bit64, data: b })),
  // A group (protobuf-es skips it as an unknown field; a known field number reads it as its own field kind).
  fc.integer({ min: 1, max: 40 }).map((no) => ({
    no,
    wireType: WireType.StartGroup,
    data: new BinaryWriter().tag(1, WireType.Varint).uint32(7).tag(no, WireType.EndGroup).finish(),
  })),
);

/** How a message's bytes are rewritten before both decoders read them. */
export const rewrite = fc.record({
  shuffle: fc.option(fc.array(fc.nat(), { maxLength: 12 }), { nil: undefined }),
  unpack: fc.boolean(),
  duplicate: fc.option(fc.nat(), { nil: undefined }),
  unknown: fc.array(fc.tuple(fc.nat(), unknownRecord), { maxLength: 3 }),
  retype: fc.option(fc.tuple(fc.nat(), fc.constantFrom(0, 1, 2, 5)), { nil: undefined }),
  damage: fc.option(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean()), { nil: undefined }),
});

type RewriteHow = typeof rewrite extends fc.Arbitrary<infer T> ? T : never;

export function rewritten(desc: DescMessage, bytes: Uint8Array, how: RewriteHow): Uint8Array {
  let recs = recordsOf(bytes);
  if (how.unpack) recs = unpacked(desc, recs);
  if (how.duplicate !== undefined && recs.length > 0) recs.push(recs[how.duplicate % recs.length]!);
  for (const [at, rec] of how.unknown) recs.splice(at % (recs.length + 1), 0, rec);
  if (how.shuffle !== undefined) {
    for (let i = 0; i < how.shuffle.length && recs.length > 1; i++) {
      const a = i % recs.length;
      const b = how.shuffle[i]! % recs.length;
      [recs[a], recs[b]] = [recs[b]!, recs[a]!];
    }
  }
  if (how.retype !== undefined && recs.length > 0) {
    const at = how.retype[0] % recs.length;
    recs[at] = { ...recs[at]!, wireType: how.retype[1] as WireType };
  }
  const out = write(recs);
  if (how.damage === undefined || out.length === 0) return out;
  const [at, byte, cut] = how.damage;
  if (cut) return out.subarray(0, at % out.length);
  const copy = out.slice();
  copy[at % copy.length] = byte;
  return copy;
}
