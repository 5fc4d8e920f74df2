import { readFileSync } from "node:fs";
import { parseScenario, formatScenarioError } from "./src/scenario/index.js";
const f = process.argv[2]!;
const r = parseScenario(f, readFileSync(f, "utf8"));
if (r.ok) console.dir(r.value, { depth: 10 }); else for (const e of r.error) console.log(formatScenarioError(e), e.line ?? "", e.column ?? "");
