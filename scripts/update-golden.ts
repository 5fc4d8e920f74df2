// Rewrites test/golden/trace-hashes.json from the current scenario library. Review the diff before committing:
// every changed hash is a behaviour change of the simulator.
import { writeFileSync } from "node:fs";
import { GOLDEN_FILE, traceHashes } from "../test/scenario-suite.js";

const hashes = traceHashes();
writeFileSync(GOLDEN_FILE, `${JSON.stringify(hashes, null, 2)}\n`);
console.log(`wrote ${Object.keys(hashes).length} trace hashes to ${GOLDEN_FILE}`);
