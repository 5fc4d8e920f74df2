import { create, type DescMessage, toBinary } from "@bufbuild/protobuf";
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NODE_ANY_TYPES, nodeMessageArbitrary, protobufEsBytes } from "../../test/kit/node-messages.js";
import { rewrite, rewritten } from "../../test/kit/proto-rewrite.js";
import { decodeMessage } from "../core/proto-decode.js";
import { EDITION_PROTO3, lengthDelimitedRecord } from "../core/proto-wire.js";
import { Query as BankQuery } from "../gen/chain/bank/v1beta1/query_pb.js";
import { ProposalSchema } from "../gen/chain/gov/v1/gov_pb.js";
import { Query as GovQuery, QueryProposalResponseSchema } from "../gen/chain/gov/v1/query_pb.js";
import { TxSchema } from "../gen/chain/tx/v1beta1/tx_pb.js";
import { Query as UpgradeQuery } from "../gen/chain/upgrade/v1beta1/query_pb.js";
import { HttpRuleSchema } from "../gen/google/api/http_pb.js";
import { type GatewayJsonOptions, gatewayJson, gatewayJsonOfTranscoded, MarshalError } from "./json.js";
import { NODE_JSON } from "./node-backend.js";

/**
 * The binary → JSON transcoder (json-transcode.ts) against the path it replaces on the gov proposal route: decode the
 * bytes (decodeMessage, itself held to protobuf-es fromBinary), then write them (gatewayJson). For random messages of
 * the stored Proposal (its Any messages of every registered type, unknown type URLs, non-ASCII and HTML-special
 * strings, big 64-bit integers, zero values, Timestamps out of range) and every served response type, written by
 * protobuf-es and then rewritten as other writers may (records out of order, repeated, unpacked, unknown records,
 * wire types changed, bytes damaged): the transcoder's text, where it answers, is the reference's text byte for byte;
 * where it does not, the caller's fallback is the reference itself. On bytes as protobuf-es writes them, of a message
 * the reference writes, the transcoder answers (it is not the fallback doing the work).
 */

function servedTypes(): DescMessage[] {
  const out = new Map<string, DescMessage>();
  for (const s of [UpgradeQuery, GovQuery, BankQuery]) for (const m of s.methods) out.set(m.output.typeName, m.output);
  return [...out.values()];
}

/** The reference's text or its error. */
function reference(desc: DescMessage, encoding: Uint8Array, opts: GatewayJsonOptions): string {
  try {
    return gatewayJson(desc, decodeMessage(desc, encoding), opts);
  } catch (e) {
    return `${e instanceof MarshalError ? "MarshalError" : "Error"}: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/**
 * Whether the transcoder answers every message of `desc` (json-transcode.ts step 1): proto3 types throughout, no map,
 * and no well-known type but Any and Timestamp in a field at any depth (a Duration, a wrapper or Struct field with a
 * record makes it answer undefined). An Any's payload may be any type: it is written by the compiled writer.
 */
function coveredThroughout(desc: DescMessage, seen: Set<string> = new Set()): boolean {
  if (seen.has(desc.typeName)) return true;
  seen.add(desc.typeName);
  if (desc.file.edition !== EDITION_PROTO3) return false;
  return desc.fields.every((f) => {
    if (f.fieldKind === "map") return false;
    const m = f.fieldKind === "message" ? f.message : f.fieldKind === "list" ? f.message : undefined;
    if (m === undefined || m.typeName === "google.protobuf.Any" || m.typeName === "google.protobuf.Timestamp")
      return true;
    return !m.typeName.startsWith("google.protobuf.") && coveredThroughout(m, seen);
  });
}

/**
 * `answers`: on bytes as protobuf-es writes them, of a message the reference writes, the transcoder answers (by
 * default where the type is covered throughout).
 */
function holdsFor(desc: DescMessage, opts: GatewayJsonOptions, runs: number, answers = coveredThroughout(desc)): void {
  const arb = nodeMessageArbitrary(desc);
  fc.assert(
    fc.property(arb, rewrite, (msg, how) => {
      const bytes = protobufEsBytes(desc, msg);
      if (bytes === undefined) return;
      const want = reference(desc, bytes, opts);
      const direct = gatewayJsonOfTranscoded(desc, bytes, undefined, opts);
      if (!want.startsWith("{")) expect(direct).toBeUndefined();
      else if (answers || direct !== undefined) expect(direct).toBe(want);
      const input = rewritten(desc, bytes, how);
      const text = gatewayJsonOfTranscoded(desc, input, undefined, opts);
      if (text !== undefined) expect(text).toBe(reference(desc, input, opts));
    }),
    { numRuns: runs },
  );
}

describe("binary → JSON transcoder", () => {
  it("writes the stored Proposal as decode + gatewayJson does, however its records are written", () => {
    holdsFor(ProposalSchema, NODE_JSON, 500);
  });

  it("writes a QueryProposalResponse from the stored Proposal's bytes alone (the gov route's form)", () => {
    const arb = nodeMessageArbitrary(ProposalSchema);
    fc.assert(
      fc.property(arb, rewrite, fc.boolean(), (msg, how, rewrites) => {
        const written = protobufEsBytes(ProposalSchema, msg);
        if (written === undefined) return;
        const stored = rewrites ? rewritten(ProposalSchema, written, how) : written;
        const want = reference(QueryProposalResponseSchema, lengthDelimitedRecord(1, stored), NODE_JSON);
        const text = gatewayJsonOfTranscoded(QueryProposalResponseSchema, stored, 1, NODE_JSON);
        if (text !== undefined || !rewrites)
          expect(text ?? "(fallback)").toBe(want.startsWith("{") ? want : "(fallback)");
      }),
      { numRuns: 300 },
    );
  });

  it("writes every served response type and every Any payload type as decode + gatewayJson does", () => {
    // Answered, not left to the fallback, for every served response type but gov's params (its Durations); this
    // failed at FC_SEED 3 and 4 when `answers` was claimed for every type.
    expect(
      servedTypes()
        .filter((d) => !coveredThroughout(d))
        .map((d) => d.typeName),
    ).toEqual(["chain.gov.v1.QueryParamsResponse"]);
    for (const desc of [...servedTypes(), ...NODE_ANY_TYPES]) holdsFor(desc, NODE_JSON, 40);
  });

  it("writes without options (no registry: an Any is the reference's error) and leaves oneof and proto2 types alone", () => {
    for (const desc of servedTypes()) holdsFor(desc, {}, 15);
    for (const desc of [HttpRuleSchema, TxSchema, TimestampSchema]) holdsFor(desc, NODE_JSON, 60, false);
  });

  it("writes 64-bit integers past 2^53, every ASCII character, non-ASCII and HTML-special strings as the reference does", () => {
    const p = create(ProposalSchema, {
      id: (1n << 64n) - 1n,
      title: '<b>&amp;</b> \u2028 é \u{1F600} "q" \\ \u007f',
      summary: "x".repeat(2000),
      metadata: "\u00e9".repeat(600),
      proposer: String.fromCharCode(...Array.from({ length: 128 }, (_, i) => i)),
    });
    const bytes = toBinary(ProposalSchema, p);
    expect(gatewayJsonOfTranscoded(ProposalSchema, bytes, undefined, NODE_JSON)).toBe(
      reference(ProposalSchema, bytes, NODE_JSON),
    );
  });
});
