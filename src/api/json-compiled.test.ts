import type { DescMessage, Message } from "@bufbuild/protobuf";
import { FieldDescriptorProtoSchema, TimestampSchema, UninterpretedOptionSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NODE_ANY_TYPES, nodeMessageArbitrary } from "../../test/kit/node-messages.js";
import { Query as BankQuery } from "../gen/chain/bank/v1beta1/query_pb.js";
import { Service as BlockService } from "../gen/chain/base/tendermint/v1beta1/query_pb.js";
import { Query as GovQuery } from "../gen/chain/gov/v1/query_pb.js";
import { TxSchema } from "../gen/chain/tx/v1beta1/tx_pb.js";
import { Query as UpgradeQuery } from "../gen/chain/upgrade/v1beta1/query_pb.js";
import { HttpRuleSchema } from "../gen/google/api/http_pb.js";
import { type GatewayJsonOptions, gatewayJson, gatewayJsonReference, MarshalError } from "./json.js";
import { timestampText } from "./json-compiled.js";
import { NODE_JSON } from "./node-backend.js";

/**
 * The compiled per-type writers (json-compiled.ts) against the reflective renderer they replace on the request
 * path (json.ts gatewayJsonReference: toJson patched per descriptor): the same text, or the same MarshalError, for
 * random messages of every type the served query services answer with, every type an Any can carry there, and
 * types with the field kinds the served protos do not use (oneofs, proto2 explicit presence, enums, doubles).
 */

/** Every response type of the node's query services (the messages the gateway renders). */
function servedTypes(): DescMessage[] {
  const out = new Map<string, DescMessage>();
  for (const s of [UpgradeQuery, GovQuery, BankQuery, BlockService]) {
    for (const m of s.methods) out.set(m.output.typeName, m.output);
  }
  return [...out.values()];
}

function outcome(f: () => string): string {
  try {
    return f();
  } catch (e) {
    if (e instanceof MarshalError) return `MarshalError: ${e.message}`;
    return `Error: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function holdsFor(desc: DescMessage, opts: GatewayJsonOptions, runs: number) {
  const arb = nodeMessageArbitrary(desc);
  fc.assert(
    fc.property(arb, (msg: Message) => {
      expect(outcome(() => gatewayJson(desc, msg, opts))).toBe(outcome(() => gatewayJsonReference(desc, msg, opts)));
    }),
    { numRuns: runs },
  );
}

describe("compiled gateway JSON writers", () => {
  it("write every served response type as the reflective renderer does", () => {
    for (const desc of servedTypes()) holdsFor(desc, NODE_JSON, 60);
  });

  it("write every type an Any carries as the reflective renderer does", () => {
    for (const desc of NODE_ANY_TYPES) holdsFor(desc, NODE_JSON, 40);
  });

  it("write oneofs, proto2 explicit presence and required fields, enums and doubles as the reflective renderer does", () => {
    for (const desc of [HttpRuleSchema, TxSchema, FieldDescriptorProtoSchema, UninterpretedOptionSchema]) {
      holdsFor(desc, NODE_JSON, 150);
    }
  });

  it("write without options (no registry, nothing non-nullable) as the reflective renderer does", () => {
    for (const desc of servedTypes()) holdsFor(desc, {}, 20);
  });

  it("format Timestamps as toJson does: trimmed nanos, years 1 to 9999, errors out of range", () => {
    expect(timestampText({ seconds: 0n, nanos: 0 } as never)).toBe('"1970-01-01T00:00:00Z"');
    expect(timestampText({ seconds: 951_782_400n, nanos: 5_000_000 } as never)).toBe('"2000-02-29T00:00:00.005Z"');
    expect(timestampText({ seconds: -62_135_596_801n, nanos: 0 } as never)).toBeUndefined();
    expect(timestampText({ seconds: 0n, nanos: -1 } as never)).toBeUndefined();
    fc.assert(
      fc.property(fc.integer({ min: -62_135_596_800, max: 253_402_300_799 }), fc.nat(999_999_999), (s, nanos) => {
        const t = { $typeName: TimestampSchema.typeName, seconds: BigInt(s), nanos } as never;
        expect(timestampText(t)).toBe(gatewayJsonReference(TimestampSchema, t));
      }),
      { numRuns: 2000 },
    );
  });
});
