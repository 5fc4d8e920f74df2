// `npm run bench`: runs every benchmark module and prints one JSON line per result on stdout
// ({"bench","value","unit","baseline","ratio"}); human-readable lines go to stderr.
// To add a benchmark, write `bench/<name>.bench.ts` exporting `name` and `run(): Promise<BenchResult[]>`, and add
// it to BENCHES.
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

const only = process.argv.slice(2);
for (const b of [...BENCHES, ...ON_REQUEST]) {
  if (only.length === 0 && ON_REQUEST.includes(b)) continue;
  if (only.length > 0 && !only.includes(b.name)) continue;
  for (const r of await b.run()) {
    process.stdout.write(
      `${JSON.stringify({ bench: r.bench, value: r.value, unit: r.unit, baseline: r.baseline, ratio: r.ratio })}\n`,
    );
  }
}
