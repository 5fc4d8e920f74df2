import { NODE_JSON } from "./src/api/node-backend.js";
import { gatewayJson, gatewayJsonOfTranscoded } from "./src/api/json.js";
import { simulatedNode } from "./test/kit/node-fixture.js";
import { queryProposalStored } from "./src/gov/queries.js";
import { decodeMessage } from "./src/core/proto-decode.js";
import { lengthDelimitedRecord } from "./src/core/proto-wire.js";
import { QueryProposalResponseSchema } from "./src/gen/chain/gov/v1/query_pb.js";
const node = simulatedNode({ untilHeight: 100 });
const st = node.backend.stateAt(50);
if (!st.ok) throw 1;
const r = queryProposalStored(st.value, 1n);
if (!r.ok) throw 2;
const full = lengthDelimitedRecord(1, r.value);
const N = 200000;
for (let k = 0; k < 4; k++) {
  let t = process.hrtime.bigint(); let s = 0;
  for (let i = 0; i < N; i++) s += gatewayJsonOfTranscoded(QueryProposalResponseSchema, r.value, 1, NODE_JSON)!.length;
  const a = Number(process.hrtime.bigint() - t) / N;
  t = process.hrtime.bigint();
  if (process.argv[2] !== "t") for (let i = 0; i < N; i++) s += gatewayJson(QueryProposalResponseSchema, decodeMessage(QueryProposalResponseSchema, full), NODE_JSON).length;
  const b = Number(process.hrtime.bigint() - t) / N;
  console.log(`transcode ${a.toFixed(0)} ns, decode+json ${b.toFixed(0)} ns`, s > 0);
}
