import { create, toBinary } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { alice, bob, TestChain, val1, val2 } from "../../../test/kit/gov.js";
import { eagerCollectionPaginate } from "../../../test/kit/paginate-reference.js";
import { be64 } from "../../core/bytes.js";
import { decodeMessage } from "../../core/proto-decode.js";
import { PageRequestSchema } from "../../gen/chain/base/query/v1beta1/pagination_pb.js";
import { type Proposal, ProposalStatus, VoteOption } from "../../gen/chain/gov/v1/gov_pb.js";
import {
  QueryProposalsRequestSchema,
  type QueryProposalsResponse,
  QueryProposalsResponseSchema,
} from "../../gen/chain/gov/v1/query_pb.js";
import { MsgDepositSchema, MsgVoteSchema } from "../../gen/chain/gov/v1/tx_pb.js";
import { gatewayJson, gatewayJsonOfTranscoded } from "../json.js";
import { NODE_JSON } from "../node-backend.js";
import { govQueryService } from "./gov.js";

/**
 * gov's `Proposals` (x/gov/keeper/grpc_query.go: CollectionFilteredPaginate over the Proposals collection, filtered
 * by status, voter and depositor), served two ways: the message handler (gRPC, ABCI, the `cosmos` namespace) and the
 * encoded handler the REST gateway transcodes from the stored bytes. Over random gov stores and random requests both
 * give the reference's page: the proposals decoded one by one, paginated by the eager model of
 * CollectionFilteredPaginate with the same predicate. The encoded answer decodes to the message answer, and the
 * gateway's text from it is the message answer's text.
 */

const PAYLOAD_TEXT = fc.constantFrom("T", "Größe", "<a&b>", "\u2028", "x".repeat(255));

/** What is done to a fresh chain: proposals submitted (in deposit or voting), then votes and deposits on them. */
const gov = fc.record({
  proposals: fc.array(
    fc.record({
      active: fc.boolean(),
      proposer: fc.constantFrom(alice, bob),
      title: PAYLOAD_TEXT,
      // None (a signal proposal), or in one of four a test message (a type the gateway's registry cannot
      // resolve, so the page's JSON is an error).
      signal: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
    }),
    { maxLength: 7 },
  ),
  votes: fc.array(fc.record({ id: fc.integer({ min: 1, max: 7 }), voter: fc.constantFrom(val1, val2) }), {
    maxLength: 5,
  }),
  deposits: fc.array(fc.record({ id: fc.integer({ min: 1, max: 7 }), depositor: fc.constantFrom(alice, bob) }), {
    maxLength: 4,
  }),
});

const request = fc.record({
  proposalStatus: fc.constantFrom(
    ProposalStatus.UNSPECIFIED,
    ProposalStatus.UNSPECIFIED,
    ProposalStatus.DEPOSIT_PERIOD,
    ProposalStatus.VOTING_PERIOD,
    ProposalStatus.PASSED,
  ),
  voter: fc.constantFrom("", "", val1, val2),
  depositor: fc.constantFrom("", "", alice, bob),
  pagination: fc.option(
    fc.record({
      key: fc.oneof(
        fc.constant(new Uint8Array()),
        fc.integer({ min: 0, max: 9 }).map((id) => be64(BigInt(id))),
        fc.uint8Array({ maxLength: 9 }),
      ),
      offset: fc.bigInt({ min: 0n, max: 4n }),
      limit: fc.bigInt({ min: 0n, max: 4n }),
      countTotal: fc.boolean(),
      reverse: fc.boolean(),
    }),
    { nil: undefined },
  ),
});

type GovActions = typeof gov extends fc.Arbitrary<infer T> ? T : never;

function chainOf(g: GovActions): TestChain {
  const c = new TestChain();
  for (const p of g.proposals) {
    const r = c.submit({
      deposit: p.active ? "10000000stake" : "100000stake",
      proposer: p.proposer,
      title: p.title,
      ...(p.signal ? { messages: [], metadata: "ipfs://signal" } : {}),
    });
    if (!r.result.ok) throw new Error(JSON.stringify(r.result.error));
  }
  for (const v of g.votes)
    c.tx((ctx) =>
      c.gov.vote(ctx, create(MsgVoteSchema, { proposalId: BigInt(v.id), voter: v.voter, option: VoteOption.YES })),
    );
  for (const d of g.deposits)
    c.tx((ctx) =>
      c.gov.deposit(
        ctx,
        create(MsgDepositSchema, {
          proposalId: BigInt(d.id),
          depositor: d.depositor,
          amount: [{ denom: "stake", amount: "5" }],
        }),
      ),
    );
  return c;
}

function jsonOrUndefined(answer: QueryProposalsResponse): string | undefined {
  try {
    return gatewayJson(QueryProposalsResponseSchema, answer, NODE_JSON);
  } catch {
    return undefined;
  }
}

describe("gov Proposals: the message handler and the gateway's encoded handler", () => {
  it("answer the reference's page over random stores, filters and pages; the encoded bytes decode to the message", () => {
    let transcodedPages = 0;
    fc.assert(
      fc.property(gov, request, (g, r) => {
        const c = chainOf(g);
        const svc = govQueryService({ bondedValidators: () => [] }, "chain");
        const ctx = c.ctx();
        const req = create(QueryProposalsRequestSchema, {
          proposalStatus: r.proposalStatus,
          voter: r.voter,
          depositor: r.depositor,
          pagination: r.pagination === undefined ? undefined : create(PageRequestSchema, r.pagination),
        });
        const message = svc.handlers.get("Proposals")!(ctx, req);
        const encoded = svc.encoded!.get("Proposals")!(ctx, req);

        // The reference: each proposal read alone, paginated eagerly with the query's predicate.
        const all: Proposal[] = [];
        for (let id = 1n; id <= BigInt(g.proposals.length); id++) {
          const one = c.gov.queryProposal(ctx, id);
          if (one.ok && one.value.proposal !== undefined) all.push(one.value.proposal);
        }
        const include = (p: Proposal) =>
          (r.proposalStatus === ProposalStatus.UNSPECIFIED || p.status === r.proposalStatus) &&
          (r.voter === "" || c.gov.queryVote(ctx, p.id, r.voter).ok) &&
          (r.depositor === "" || c.gov.queryDeposit(ctx, p.id, r.depositor).ok);
        const want = eagerCollectionPaginate(
          all.map((p) => ({ key: be64(p.id), value: p })),
          req.pagination,
          include,
        );

        if (!want.ok) {
          expect(message).toEqual({ ok: false, error: { kind: "status", code: 13, message: want.error } });
          expect(encoded).toEqual(message);
          return;
        }
        if (!message.ok) throw new Error(JSON.stringify(message.error));
        const answer = message.value as QueryProposalsResponse;
        expect(answer.proposals).toStrictEqual(want.value.results);
        expect(answer.pagination?.total).toBe(want.value.page.total);
        expect(answer.pagination?.nextKey).toStrictEqual(want.value.page.nextKey);

        if (!encoded.ok) throw new Error(JSON.stringify(encoded.error));
        const bytes = encoded.value;
        expect(bytes.field).toBeUndefined();
        expect(decodeMessage(QueryProposalsResponseSchema, bytes.bytes)).toStrictEqual(answer);
        // Byte for byte what protobuf-es writes for the message answer (the page's total and next key included).
        expect(bytes.bytes).toEqual(toBinary(QueryProposalsResponseSchema, answer));
        // The gateway's text: the transcoder's where it answers; where the message's JSON is an error (a test
        // message's Any), it leaves the bytes to the decoding path, which answers that error.
        const text = gatewayJsonOfTranscoded(QueryProposalsResponseSchema, bytes.bytes, undefined, NODE_JSON);
        expect(text).toBe(jsonOrUndefined(answer));
        if (text !== undefined && answer.proposals.length > 0) transcodedPages++;
      }),
      { numRuns: 200 },
    );
    // The transcoder itself wrote pages of proposals, not only empty pages and fallbacks (10 to 23 of 200 runs at
    // seeds 1-8 and the suite's).
    expect(transcodedPages).toBeGreaterThanOrEqual(3);
  });

  it("lists the proposals a voter voted on, newest first, two to a page, as a REST client pages through them", () => {
    const c = new TestChain();
    for (let i = 0; i < 5; i++) c.submitActive({ title: `p${i}` });
    for (const id of [1n, 3n, 4n, 5n])
      c.tx((ctx) => c.gov.vote(ctx, create(MsgVoteSchema, { proposalId: id, voter: val1, option: VoteOption.NO })));
    const svc = govQueryService({ bondedValidators: () => [] }, "chain");
    const pages: bigint[][] = [];
    let key: Uint8Array = new Uint8Array();
    for (let i = 0; i < 5; i++) {
      const req = create(QueryProposalsRequestSchema, {
        voter: val1,
        pagination: { key, limit: 2n, reverse: true, countTotal: true },
      });
      const r = svc.encoded!.get("Proposals")!(c.ctx(), req);
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      const page = decodeMessage(QueryProposalsResponseSchema, r.value.bytes);
      pages.push(page.proposals.map((p) => p.id));
      key = page.pagination!.nextKey;
      if (key.length === 0) break;
    }
    expect(pages).toEqual([
      [5n, 4n],
      [3n, 1n],
    ]);
  });
});
