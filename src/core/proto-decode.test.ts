import { type DescMessage, fromBinary, type Message, ScalarType, toBinary } from "@bufbuild/protobuf";
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { FieldDescriptorProtoSchema, StructSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { messageArbitrary } from "../../test/kit/proto-arbitrary.js";
import { NODE_JSON } from "../api/node-backend.js";
import { Query as BankQuery } from "../gen/chain/bank/v1beta1/query_pb.js";
import { CoinSchema } from "../gen/chain/base/v1beta1/coin_pb.js";
import { ProposalSchema, TallyResultSchema } from "../gen/chain/gov/v1/gov_pb.js";
import { Query as GovQuery } from "../gen/chain/gov/v1/query_pb.js";
import { TxSchema } from "../gen/chain/tx/v1beta1/tx_pb.js";
import { Query as UpgradeQuery } from "../gen/chain/upgrade/v1beta1/query_pb.js";
import { HttpRuleSchema } from "../gen/google/api/http_pb.js";
import { compiledDecode, decodeMessage } from "./proto-decode.js";

/**
 * The compiled decoder (proto-decode.ts) against protobuf-es `fromBinary`, its reference: the same message (field
 * values, `$unknown`, which fields are set) or the same error, for random messages of the types the gateway reads
 * from the stores and from Anys, written as protobuf-es writes them and then rewritten as other writers may: records
 * shuffled (fields out of order, a singular field repeated: the last scalar wins, messages merge), packed lists
 * unpacked, unknown records inserted (every wire type), a record's wire type changed, bytes flipped or cut.
 */

const anyTypes = [...NODE_JSON.registry!].filter((t) => t.kind === "message") as DescMessage[];

/** The types of the stores and query answers the gateway decodes, the Any payloads, and oneof / proto2 types. */
function decodedTypes(): DescMessage[] {
  const out = new Map<string, DescMessage>();
  const add = (d: DescMessage) => out.set(d.typeName, d);
  for (const d of [ProposalSchema, TallyResultSchema, CoinSchema, TimestampSchema, ...anyTypes]) add(d);
  for (const s of [UpgradeQuery, GovQuery, BankQuery]) for (const m of s.methods) add(m.output);
  for (const d of [HttpRuleSchema, TxSchema, FieldDescriptorProtoSchema, StructSchema]) add(d);
  return [...out.values()];
}

/** The types the compiled path covers (proto3, no maps, no wrapper or Struct fields); the others fall back. */
const covered = new Set(
  decodedTypes()
    .map((d) => d.typeName)
    .filter(
      (n) => !["chain.tx.v1beta1.Tx", "google.protobuf.FieldDescriptorProto", "google.protobuf.Struct"].includes(n),
    ),
);

type Outcome = { readonly ok: Message } | { readonly error: string };
function outcome(f: () => Message): Outcome {
  try {
    return { ok: f() };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

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
const rewrite = fc.record({
  shuffle: fc.option(fc.array(fc.nat(), { maxLength: 12 }), { nil: undefined }),
  unpack: fc.boolean(),
  duplicate: fc.option(fc.nat(), { nil: undefined }),
  unknown: fc.array(fc.tuple(fc.nat(), unknownRecord), { maxLength: 3 }),
  retype: fc.option(fc.tuple(fc.nat(), fc.constantFrom(0, 1, 2, 5)), { nil: undefined }),
  damage: fc.option(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean()), { nil: undefined }),
});

type RewriteHow = typeof rewrite extends fc.Arbitrary<infer T> ? T : never;

function rewritten(desc: DescMessage, bytes: Uint8Array, how: RewriteHow): Uint8Array {
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

function holdsFor(desc: DescMessage, runs: number): void {
  const arb = messageArbitrary(desc, { anyTypes, registry: NODE_JSON.registry!, depth: 3 });
  fc.assert(
    fc.property(arb, rewrite, (msg, how) => {
      let bytes: Uint8Array;
      try {
        bytes = toBinary(desc, msg);
      } catch {
        return; // a string protobuf-es will not write (a lone surrogate)
      }
      const input = rewritten(desc, bytes, how);
      const want = outcome(() => fromBinary(desc, input));
      expect(outcome(() => decodeMessage(desc, input))).toStrictEqual(want);
      // Bytes as protobuf-es writes them: the compiled path itself decodes a covered type, without falling back.
      const direct = covered.has(desc.typeName) ? compiledDecode(desc, bytes) : decodeMessage(desc, bytes);
      expect(direct).toStrictEqual(fromBinary(desc, bytes));
    }),
    { numRuns: runs },
  );
}

describe("compiled protobuf decoder", () => {
  it("decodes every type the gateway reads as fromBinary does, however the records are written", () => {
    for (const desc of decodedTypes()) holdsFor(desc, 80);
  });

  it("covers the stored Proposal, its Any payloads, Coin and TallyResult, and leaves proto2 and Struct to fromBinary", () => {
    const bytes = toBinary(CoinSchema, { $typeName: CoinSchema.typeName, denom: "stake", amount: "1" });
    expect(compiledDecode(CoinSchema, bytes)).toStrictEqual(fromBinary(CoinSchema, bytes));
    expect(compiledDecode(ProposalSchema, new Uint8Array())).toStrictEqual(
      fromBinary(ProposalSchema, new Uint8Array()),
    );
    expect(compiledDecode(FieldDescriptorProtoSchema, new Uint8Array())).toBeUndefined();
    expect(compiledDecode(StructSchema, new Uint8Array())).toBeUndefined();
  });

  it("reads strings from an input that is a view at an offset (an Any's payload), ASCII or not", () => {
    const word = fc.constantFrom("stake", "", "é", "\u{1F600}", "<a&b>", "x".repeat(1030));
    fc.assert(
      fc.property(fc.array(word, { maxLength: 4 }), fc.nat(8), (parts, pad) => {
        const coin = { $typeName: CoinSchema.typeName, denom: parts.join(""), amount: parts.slice(1).join("-") };
        const bytes = toBinary(CoinSchema, coin);
        const framed = new Uint8Array(pad + bytes.length + 3).fill(0xff);
        framed.set(bytes, pad);
        const view = framed.subarray(pad, pad + bytes.length);
        const decoded = compiledDecode(CoinSchema, view);
        expect(decoded).toStrictEqual(fromBinary(CoinSchema, bytes));
        expect(decoded?.denom).toBe(coin.denom);
      }),
      { numRuns: 200 },
    );
  });

  it("decodes the stored Proposal as fromBinary does over many random proposals", () => {
    holdsFor(ProposalSchema, 600);
  });
});
