import { create, type DescField, type DescMessage, type Message, type Registry, ScalarType } from "@bufbuild/protobuf";
import { AnySchema, anyPack } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";

/**
 * Random messages of a descriptor, for the JSON writers' properties: every field kind (scalars of each type,
 * enums with unnamed numbers, bytes empty or not, lists, maps, oneofs, explicit presence left unset or set), nested
 * messages to `depth` (deeper ones unset), Timestamps mostly in range (sometimes beyond it, or with bad nanos),
 * Durations, and Any packing a random message of `anyTypes` (or an unresolvable type URL now and then).
 */
export interface ProtoArbitraryOptions {
  readonly anyTypes: readonly DescMessage[];
  readonly registry: Registry;
  readonly depth: number;
}

const TIME_S_MIN = -62_135_596_800;
const TIME_S_MAX = 253_402_300_799;

const int64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
const uint64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.constantFrom("", "<a&b>", "\u2028", "\ud800", '"\\'),
);

function scalar(s: ScalarType): fc.Arbitrary<unknown> {
  switch (s) {
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return int64;
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return uint64;
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return fc.integer({ min: 0, max: 2 ** 32 - 1 });
    case ScalarType.FLOAT:
      return fc.float();
    case ScalarType.DOUBLE:
      return fc.double();
    case ScalarType.BOOL:
      return fc.boolean();
    case ScalarType.STRING:
      return text;
    default:
      return fc.uint8Array({ maxLength: 7 });
  }
}

function timestamp(): fc.Arbitrary<unknown> {
  const seconds = fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: TIME_S_MIN, max: TIME_S_MAX }) },
    { weight: 1, arbitrary: fc.constantFrom(TIME_S_MIN - 1, TIME_S_MAX + 1, 0, 951_782_400, 4_107_542_400) },
  );
  const nanos = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(0, 1_000_000, 1_000, 500_000_000, 999_999_999) },
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 999_999_999 }) },
    { weight: 1, arbitrary: fc.constantFrom(-1, 1_000_000_000) },
  );
  return fc.record({ seconds: seconds.map(BigInt), nanos });
}

export function messageArbitrary(desc: DescMessage, o: ProtoArbitraryOptions): fc.Arbitrary<Message> {
  if (desc.typeName === "google.protobuf.Timestamp") return timestamp().map((t) => create(desc, t as never));
  if (desc.typeName === "google.protobuf.Any") return anyArbitrary(o);
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  for (const member of desc.members) {
    if (member.kind === "oneof") {
      const cases = member.fields
        .filter((f) => f.fieldKind !== "message" || o.depth > 0)
        .map((f) => singularValue(f, o).map((value) => ({ case: f.localName, value })));
      parts[member.localName] = fc.oneof(fc.constant({ case: undefined }), ...cases);
    } else {
      const v = fieldValue(member, o);
      parts[member.localName] = member.presence === 2 ? v : fc.option(v, { nil: undefined });
    }
  }
  return fc.record(parts).map((init) => {
    const m = create(desc) as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(init)) if (v !== undefined) m[k] = v;
    return m as unknown as Message;
  });
}

function anyArbitrary(o: ProtoArbitraryOptions): fc.Arbitrary<Message> {
  const inner = o.depth <= 0 || o.anyTypes.length === 0 ? [] : o.anyTypes;
  const packed = inner.map((d) =>
    messageArbitrary(d, { ...o, depth: o.depth - 1 }).map((m) => anyPack(d, m) as unknown as Message),
  );
  const unresolvable = fc
    .uint8Array({ maxLength: 3 })
    .map((value) => create(AnySchema, { typeUrl: "/no.such.Type", value }) as Message);
  return inner.length === 0 ? unresolvable : fc.oneof({ weight: 6, arbitrary: fc.oneof(...packed) }, unresolvable);
}

function singularValue(f: DescField, o: ProtoArbitraryOptions): fc.Arbitrary<unknown> {
  switch (f.fieldKind) {
    case "scalar":
      return scalar(f.scalar);
    case "enum":
      return fc.oneof(fc.constantFrom(...f.enum.values.map((v) => v.number)), fc.integer({ min: -3, max: 40 }));
    case "message":
      return o.depth <= 0 ? fc.constant(undefined) : messageArbitrary(f.message, { ...o, depth: o.depth - 1 });
    default:
      return fc.constant(undefined);
  }
}

function fieldValue(f: DescField, o: ProtoArbitraryOptions): fc.Arbitrary<unknown> {
  switch (f.fieldKind) {
    case "list": {
      const item =
        f.listKind === "message"
          ? o.depth <= 0
            ? undefined
            : messageArbitrary(f.message, { ...o, depth: o.depth - 1 })
          : f.listKind === "enum"
            ? fc.integer({ min: 0, max: 5 })
            : scalar(f.scalar);
      return item === undefined ? fc.constant([]) : fc.array(item, { maxLength: 3 });
    }
    case "map": {
      const value: fc.Arbitrary<unknown> | undefined =
        f.mapKind === "message"
          ? o.depth <= 0
            ? undefined
            : messageArbitrary(f.message, { ...o, depth: o.depth - 1 })
          : f.mapKind === "enum"
            ? fc.integer({ min: 0, max: 5 })
            : scalar(f.scalar);
      if (value === undefined) return fc.constant({});
      const key = f.mapKey === ScalarType.STRING ? text : scalar(f.mapKey).map(String);
      return fc.dictionary(key as fc.Arbitrary<string>, value, { maxKeys: 3 });
    }
    default:
      return singularValue(f, o);
  }
}
