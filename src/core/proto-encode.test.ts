import { create, createFileRegistry, type DescMessage, fromBinary, type Message, toBinary } from "@bufbuild/protobuf";
import {
  type FieldDescriptorProto,
  FileDescriptorProtoSchema,
  file_google_protobuf_any,
  file_google_protobuf_timestamp,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NODE_ANY_TYPES, nodeMessageArbitrary } from "../../test/kit/node-messages.js";
import { CoinSchema } from "../gen/chain/base/v1beta1/coin_pb.js";
import {
  DepositSchema,
  ParamsSchema,
  ProposalSchema,
  TallyResultSchema,
  VoteSchema,
} from "../gen/chain/gov/v1/gov_pb.js";
import { MsgSubmitProposalSchema } from "../gen/chain/gov/v1/tx_pb.js";
import {
  MsgCancelUpgradeResponseSchema,
  MsgCancelUpgradeSchema,
  MsgSoftwareUpgradeResponseSchema,
  MsgSoftwareUpgradeSchema,
} from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import { PlanSchema } from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { decodeMessage } from "./proto-decode.js";
import { compiledEncode, encodeMessage } from "./proto-encode.js";

/**
 * The compiled encoder (proto-encode.ts) against protobuf-es `toBinary`, its reference: the same bytes or the same
 * error, for random messages of the types the engine writes to its stores and transactions, and of a test type with
 * every field kind (each scalar singular, optional and repeated, packed and not, enums, oneofs, nested and recursive
 * messages, Any, Timestamp, a maximal field number, a map that the compiled path leaves to toBinary), with unknown
 * fields added and, now and then, a field given a value of the wrong type.
 */

const SCALAR_TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 15, 16, 17, 18] as const;
const TYPE_MESSAGE = 11;
const TYPE_ENUM = 14;
const LABEL_OPTIONAL = 1;
const LABEL_REPEATED = 3;

function kindsFields(): Partial<FieldDescriptorProto>[] {
  const out: Partial<FieldDescriptorProto>[] = [];
  SCALAR_TYPES.forEach((type, i) => {
    out.push({ name: `s${type}`, number: 1 + i, type, label: LABEL_OPTIONAL, jsonName: `s${type}` });
    out.push({ name: `r${type}`, number: 101 + i, type, label: LABEL_REPEATED, jsonName: `r${type}` });
  });
  const msg = (name: string, number: number, typeName: string, label = LABEL_OPTIONAL, oneofIndex?: number) =>
    out.push({
      name,
      number,
      type: TYPE_MESSAGE,
      typeName,
      label,
      jsonName: name,
      ...(oneofIndex === undefined ? {} : { oneofIndex }),
    });
  out.push({ name: "color", number: 30, type: TYPE_ENUM, typeName: ".t.Color", label: LABEL_OPTIONAL });
  out.push({ name: "colors", number: 31, type: TYPE_ENUM, typeName: ".t.Color", label: LABEL_REPEATED });
  msg("child", 32, ".t.Kinds");
  msg("children", 33, ".t.Kinds", LABEL_REPEATED);
  msg("any", 34, ".google.protobuf.Any");
  msg("at", 35, ".google.protobuf.Timestamp");
  out.push({ name: "unpacked", number: 36, type: 5, label: LABEL_REPEATED, options: { packed: false } as never });
  out.push({ name: "cs", number: 37, type: 9, label: LABEL_OPTIONAL, oneofIndex: 0 });
  msg("ck", 38, ".t.Kinds", LABEL_OPTIONAL, 0);
  out.push({ name: "opt", number: 39, type: 3, label: LABEL_OPTIONAL, oneofIndex: 1, proto3Optional: true });
  out.push({ name: "far", number: 536_870_911, type: 9, label: LABEL_OPTIONAL });
  return out;
}

/** A proto3 file with every field kind (`t.Kinds`) and a map (`t.WithMap`). */
function testTypes(): { kinds: DescMessage; withMap: DescMessage } {
  const file = create(FileDescriptorProtoSchema, {
    name: "t.proto",
    package: "t",
    syntax: "proto3",
    dependency: ["google/protobuf/any.proto", "google/protobuf/timestamp.proto"],
    enumType: [{ name: "Color", value: [0, 1, 2, 7].map((number) => ({ name: `C${number}`, number })) }],
    messageType: [
      { name: "Kinds", field: kindsFields(), oneofDecl: [{ name: "choice" }, { name: "_opt" }] },
      {
        name: "WithMap",
        field: [
          { name: "m", number: 1, type: TYPE_MESSAGE, typeName: ".t.WithMap.MEntry", label: LABEL_REPEATED },
          { name: "k", number: 2, type: TYPE_MESSAGE, typeName: ".t.Kinds", label: LABEL_OPTIONAL },
        ],
        nestedType: [
          {
            name: "MEntry",
            options: { mapEntry: true },
            field: [
              { name: "key", number: 1, type: 9, label: LABEL_OPTIONAL },
              { name: "value", number: 2, type: 5, label: LABEL_OPTIONAL },
            ],
          },
        ],
      },
    ],
  } as never);
  const deps = new Map([
    ["google/protobuf/any.proto", file_google_protobuf_any],
    ["google/protobuf/timestamp.proto", file_google_protobuf_timestamp],
  ]);
  const reg = createFileRegistry(file, (name) => deps.get(name));
  return { kinds: reg.getMessage("t.Kinds")!, withMap: reg.getMessage("t.WithMap")! };
}

const { kinds, withMap } = testTypes();

const ENGINE_TYPES = [
  ProposalSchema,
  DepositSchema,
  VoteSchema,
  ParamsSchema,
  TallyResultSchema,
  CoinSchema,
  PlanSchema,
  MsgSubmitProposalSchema,
  MsgSoftwareUpgradeSchema,
  MsgCancelUpgradeSchema,
  MsgSoftwareUpgradeResponseSchema,
  MsgCancelUpgradeResponseSchema,
] as DescMessage[];

const WRONG_VALUES: readonly unknown[] = [
  undefined,
  null,
  1.5,
  -1,
  2 ** 32,
  "7",
  7n,
  -(1n << 64n),
  true,
  [],
  {},
  new Uint8Array([1]),
  [1, "x"],
  { case: "cs", value: 3 },
];

const unknownField = fc.record({
  no: fc.integer({ min: 1, max: 2 ** 29 - 1 }),
  wireType: fc.constantFrom(0, 1, 2, 5),
  data: fc.uint8Array({ maxLength: 6 }),
});

/** How a random message is changed before both encoders write it. */
const change = fc.record({
  unknown: fc.option(fc.array(unknownField, { maxLength: 3 }), { nil: undefined }),
  wrong: fc.option(fc.tuple(fc.nat(), fc.nat({ max: WRONG_VALUES.length - 1 })), { nil: undefined }),
});

function changed(msg: Message, how: typeof change extends fc.Arbitrary<infer T> ? T : never): Message {
  const m = msg as unknown as Record<string, unknown>;
  if (how.unknown !== undefined) m.$unknown = how.unknown;
  if (how.wrong !== undefined) {
    const keys = Object.keys(m).filter((k) => k !== "$typeName");
    if (keys.length > 0) m[keys[how.wrong[0] % keys.length]!] = WRONG_VALUES[how.wrong[1]];
  }
  return msg;
}

type Outcome = { bytes: string } | { error: string };
function outcome(f: () => Uint8Array): Outcome {
  try {
    return { bytes: Buffer.from(f()).toString("hex") };
  } catch (e) {
    return { error: e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e) };
  }
}

function holdsFor(desc: DescMessage, runs: number, covered: boolean): void {
  const arb = nodeMessageArbitrary(desc);
  fc.assert(
    fc.property(arb, change, (msg, how) => {
      const plain = outcome(() => toBinary(desc, msg));
      // As the engine writes them: the compiled path itself writes a covered type, without falling back.
      const direct = covered ? compiledEncode(desc, msg) : encodeMessage(desc, msg);
      expect(outcome(() => direct ?? new Uint8Array([0xff]))).toStrictEqual(plain);
      const m = changed(msg, how);
      expect(outcome(() => encodeMessage(desc, m))).toStrictEqual(outcome(() => toBinary(desc, m)));
    }),
    { numRuns: runs },
  );
}

describe("encodeMessage", () => {
  it("writes every field kind as toBinary does (scalars, lists packed or not, oneofs, optional, nested, Any)", () => {
    holdsFor(kinds, 600, true);
  });

  it("leaves a type with a map to toBinary, and writes what it writes", () => {
    expect(compiledEncode(withMap, create(withMap))).toBeUndefined();
    holdsFor(withMap, 150, false);
  });

  it.each(ENGINE_TYPES.map((d) => [d.typeName, d] as const))("writes %s as toBinary does", (_, desc) => {
    holdsFor(desc, 150, true);
  });

  it.each(NODE_ANY_TYPES.map((d) => [d.typeName, d] as const))(
    "writes the Any payload %s as toBinary does",
    (_, desc) => {
      holdsFor(desc, 40, true);
    },
  );

  it("reads back with decodeMessage as fromBinary reads it (the engine's stores)", () => {
    for (const desc of ENGINE_TYPES) {
      const arb = nodeMessageArbitrary(desc);
      fc.assert(
        fc.property(arb, (msg) => {
          const bytes = encodeMessage(desc, msg);
          expect(decodeMessage(desc, bytes)).toStrictEqual(fromBinary(desc, bytes));
        }),
        { numRuns: 60 },
      );
    }
  });

  it("leaves an encode started inside another (a getter calling back) to toBinary, and writes what it writes", () => {
    const inner = create(CoinSchema, { denom: "inner", amount: "1" });
    // The getter is on the second field: the first is already written when the inner encode starts.
    const outer = create(CoinSchema, { denom: "outer" });
    Object.defineProperty(outer, "amount", {
      enumerable: true,
      get: () => `${encodeMessage(CoinSchema, inner).length}`,
    });
    expect(Buffer.from(encodeMessage(CoinSchema, outer))).toStrictEqual(Buffer.from(toBinary(CoinSchema, outer)));
    expect(Buffer.from(encodeMessage(CoinSchema, inner))).toStrictEqual(Buffer.from(toBinary(CoinSchema, inner)));
  });

  it("writes long strings, large lengths and 64-bit extremes as toBinary does", () => {
    const m = create(kinds) as unknown as Record<string, unknown>;
    m.s9 = `${"a".repeat(200)}é\u2028😀\ud800`;
    m.s12 = new Uint8Array(20_000).fill(7);
    m.s3 = -(1n << 63n);
    m.s4 = (1n << 64n) - 1n;
    m.s18 = -(1n << 63n);
    m.r5 = [-1, 2 ** 31 - 1, -(2 ** 31)];
    m.children = [m.child ?? create(kinds), create(kinds, { s9: "x".repeat(300) })];
    const msg = m as unknown as Message;
    expect(Buffer.from(compiledEncode(kinds, msg)!)).toStrictEqual(Buffer.from(toBinary(kinds, msg)));
  });
});
