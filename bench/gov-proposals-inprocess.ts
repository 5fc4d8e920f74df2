// gov's proposals list with many proposals, in process (docs/performance.md, "Session 14: gov's proposals list from
// the stored bytes"): a gov store of N signal proposals (test/kit/gov.ts), then the `Proposals` query two ways, the
// message handler (gRPC, ABCI) rendered by gatewayJson and the encoded handler the REST gateway transcodes
// (gatewayJsonOfTranscoded), for the default page (100) and a page of 10 newest first. Both texts are checked equal
// first. CPU per request from process.cpuUsage() around ROUNDS rounds of PER_ROUND requests, after WARM_UP requests.
// Run: node --import tsx bench/gov-proposals-inprocess.ts [N, default 200]; prints the min and median per way.
import { create, type Message } from "@bufbuild/protobuf";
import { gatewayJson, gatewayJsonOfTranscoded } from "../src/api/json.js";
import { NODE_JSON } from "../src/api/node-backend.js";
import { govQueryService } from "../src/api/services/gov.js";
import { QueryProposalsRequestSchema, QueryProposalsResponseSchema } from "../src/gen/chain/gov/v1/query_pb.js";
import { TestChain } from "../test/kit/gov.js";

const WARM_UP = 200;
const ROUNDS = 7;
const PER_ROUND = 100;

const count = Number(process.argv[2] ?? 200);
const chain = new TestChain();
for (let i = 0; i < count; i++) {
  const r = chain.submit({
    deposit: "100000stake",
    messages: [],
    metadata: "ipfs://signal",
    title: `proposal ${i}`,
    summary: "A signal proposal of a realistic size. ".repeat(8),
  });
  if (!r.result.ok) throw new Error(JSON.stringify(r.result.error));
}
const service = govQueryService({ bondedValidators: () => [] }, "chain");
const ctx = chain.ctx();

function viaMessage(request: Message): string {
  const r = service.handlers.get("Proposals")!(ctx, request);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return gatewayJson(QueryProposalsResponseSchema, r.value, NODE_JSON);
}

function viaStoredBytes(request: Message): string {
  const r = service.encoded!.get("Proposals")!(ctx, request);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  const text = gatewayJsonOfTranscoded(QueryProposalsResponseSchema, r.value.bytes, undefined, NODE_JSON);
  if (text === undefined) throw new Error("the transcoder left the page to the decoding path");
  return text;
}

/** CPU µs per request: min and median of the rounds. */
function cpuPerRequestUs(f: () => string): { min: number; median: number } {
  for (let i = 0; i < WARM_UP; i++) f();
  const per: number[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    const before = process.cpuUsage();
    for (let j = 0; j < PER_ROUND; j++) f();
    const used = process.cpuUsage(before);
    per.push((used.user + used.system) / PER_ROUND);
  }
  per.sort((a, b) => a - b);
  return { min: per[0]!, median: per[Math.floor(ROUNDS / 2)]! };
}

const pages = [
  { name: "default page (100)", request: create(QueryProposalsRequestSchema) },
  {
    name: "10 newest first",
    request: create(QueryProposalsRequestSchema, { pagination: { limit: 10n, reverse: true } }),
  },
];
for (const page of pages) {
  if (viaMessage(page.request) !== viaStoredBytes(page.request)) throw new Error(`${page.name}: the texts differ`);
  for (const [way, f] of [
    ["message + gatewayJson", viaMessage],
    ["stored bytes + transcoder", viaStoredBytes],
  ] as const) {
    const us = cpuPerRequestUs(() => f(page.request));
    process.stdout.write(
      `${count} proposals, ${page.name}, ${way}: CPU per request min ${us.min.toFixed(0)} µs, median ${us.median.toFixed(0)} µs\n`,
    );
  }
}
