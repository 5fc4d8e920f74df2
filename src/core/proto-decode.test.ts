import { type DescMessage, fromBinary, type Message, toBinary } from "@bufbuild/protobuf";
import { FieldDescriptorProtoSchema, StructSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NODE_ANY_TYPES, nodeMessageArbitrary, protobufEsBytes } from "../../test/kit/node-messages.js";
import { rewrite, rewritten } from "../../test/kit/proto-rewrite.js";
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

/** The types of the stores and query answers the gateway decodes, the Any payloads, and oneof / proto2 types. */
function decodedTypes(): DescMessage[] {
  const out = new Map<string, DescMessage>();
  const add = (d: DescMessage) => out.set(d.typeName, d);
  for (const d of [ProposalSchema, TallyResultSchema, CoinSchema, TimestampSchema, ...NODE_ANY_TYPES]) add(d);
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

function holdsFor(desc: DescMessage, runs: number): void {
  const arb = nodeMessageArbitrary(desc);
  fc.assert(
    fc.property(arb, rewrite, (msg, how) => {
      const bytes = protobufEsBytes(desc, msg);
      if (bytes === undefined) return;
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
