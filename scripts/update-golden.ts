// Rewrites test/golden/trace-hashes.json from the current scenario library, and test/golden/gateway-responses.json
// from the current REST gateway. Review the diff before committing: every changed hash is a behaviour change of the
// simulator, every changed response digest a change of what the gateway answers.
import { writeFileSync } from "node:fs";
import { GATEWAY_GOLDEN_FILE, gatewayGolden } from "../test/kit/gateway-responses.js";
import { GOLDEN_FILE, traceHashes } from "../test/scenario-suite.js";

const hashes = traceHashes();
writeFileSync(GOLDEN_FILE, `${JSON.stringify(hashes, null, 2)}\n`);
console.log(`wrote ${Object.keys(hashes).length} trace hashes to ${GOLDEN_FILE}`);

const responses = await gatewayGolden();
writeFileSync(GATEWAY_GOLDEN_FILE, `${JSON.stringify(responses, null, 1)}\n`);
console.log(`wrote ${Object.keys(responses.inProcess).length} gateway response digests to ${GATEWAY_GOLDEN_FILE}`);
