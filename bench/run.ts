// `npm run bench`: runs every benchmark module and prints one JSON line per result on stdout
// ({"bench","value","unit","baseline","ratio"}); human-readable lines go to stderr.
// To add a benchmark, write `bench/<name>.bench.ts` exporting `name` and `run(): Promise<BenchResult[]>`, and add
// it to BENCHES.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as api from "./api.bench.js";
import type { BenchModule } from "./bench.js";
import * as engine from "./engine.bench.js";
import * as explore from "./explore.bench.js";
import * as fork from "./fork.bench.js";
import * as harness from "./harness.bench.js";
import * as lifecycle from "./lifecycle.bench.js";
import * as planner from "./planner.bench.js";
import * as recovery from "./recovery.bench.js";
import * as soak from "./soak.bench.js";
import * as startup from "./startup.bench.js";

const BENCHES: readonly BenchModule[] = [lifecycle, engine, fork, harness, explore, recovery, api, startup];

/**
 * Run only when named: `npm run bench -- soak` (full-size floods of the hostile-input faults), `npm run bench --
 * planner` (the upgrade-height planner's backtest and speed, minutes; PLANNER_BENCH=speed|calibration runs one half).
 */
const ON_REQUEST: readonly BenchModule[] = [soak, planner];

/** The benches that time the pre-built CLI (`node bin/chainsim.js`), as a user runs it. */
const TIMES_THE_CLI: readonly BenchModule[] = [harness, startup];

/**
 * Builds the pre-built CLI when it is stale: bin/chainsim.js would otherwise fall back to the sources through tsx,
 * and the benches above would time that instead of what a user runs. Exits 1 with one line when the build fails.
 */
async function ensureBuilt(): Promise<void> {
  const inputs = "../bin/bundle-inputs.js";
  const { staleReason } = (await import(inputs)) as { staleReason: (root: string) => string | undefined };
  const reason = staleReason(fileURLToPath(new URL("..", import.meta.url)));
  if (reason === undefined) return;
  process.stderr.write(`bench: the pre-built CLI is stale (${reason}); building it first\n`);
  const r = spawnSync(process.execPath, ["scripts/build-cli.mjs"], { stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) {
    process.stderr.write(`bench: npm run build failed (exit ${r.status ?? r.signal}); no bench was run\n`);
    process.exit(1);
  }
}

const only = process.argv.slice(2);
if (TIMES_THE_CLI.some((b) => only.length === 0 || only.includes(b.name))) await ensureBuilt();
for (const b of [...BENCHES, ...ON_REQUEST]) {
  if (only.length === 0 && ON_REQUEST.includes(b)) continue;
  if (only.length > 0 && !only.includes(b.name)) continue;
  for (const r of await b.run()) {
    process.stdout.write(
      `${JSON.stringify({ bench: r.bench, value: r.value, unit: r.unit, baseline: r.baseline, ratio: r.ratio })}\n`,
    );
  }
}
