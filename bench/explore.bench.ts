import { availableParallelism, loadavg } from "node:os";
import { exploringCancelWindow } from "../src/explore/explore.js";
import { DEFAULT_CONFIG } from "../src/explore/model.js";
import { runOnWorkers } from "../src/explore/pool.js";
import { sweepingCancelWindow } from "../src/explore/sweep.js";
import { type BenchResult, result } from "./bench.js";

/**
 * `explore-grid-s`: the cancel-window explorer at scale: a grid of 400 points (10 block-time spreads × 40 offsets,
 * `--sweep offset,spread --points 40`) with 1,000 runs each, on the default configuration (48 h periods, 6 s mean
 * blocks: about 130,000 blocks per run), on one worker per core. Every point's 1,000 runs share one engine run per
 * (spread, trial seed): 10,000 engine runs (+ the boundary verifications), seed-major so that each seed's block-time
 * draws serve all 10 spreads.
 * Baseline: 1 point × 1,000 runs (`--offset`, the same seeds) on the same workers.
 */
export const name = "explore";

const RUNS = 1000;
const SPREADS_MS = Array.from({ length: 10 }, (_, i) => i * 250);
const POINTS = 40;
/** The safe offset of the default configuration (about the rule of thumb): every run goes the whole way. */
const OFFSET = 129_707;

export async function run(): Promise<BenchResult[]> {
  const workers = availableParallelism();
  const cfg = { ...DEFAULT_CONFIG, runs: RUNS };
  const t0 = performance.now();
  const one = await runOnWorkers(
    exploringCancelWindow({ ...cfg, offsets: { kind: "single", offset: OFFSET } }),
    workers,
  );
  const oneS = (performance.now() - t0) / 1000;
  if (!one.ok) throw new Error(one.error);
  const t1 = performance.now();
  const cpu0 = process.cpuUsage();
  const grid = await runOnWorkers(
    sweepingCancelWindow(cfg, { axis: "spread", valuesMs: SPREADS_MS, points: POINTS }),
    workers,
  );
  const gridS = (performance.now() - t1) / 1000;
  // The process's CPU time, every worker thread included (getrusage): on a shared machine, wall time alone hides load.
  const cpu = process.cpuUsage(cpu0);
  const gridCpuS = (cpu.user + cpu.system) / 1e6;
  if (!grid.ok) throw new Error(grid.error);
  const points = grid.value.offsets.length * grid.value.series.length;
  process.stderr.write(
    `explore: 1 point × ${RUNS} runs ${oneS.toFixed(1)} s (${one.value.engineRuns} engine runs); ` +
      `${grid.value.series.length} spreads × ${grid.value.offsets.length} offsets = ${points} points × ${RUNS} runs ` +
      `${gridS.toFixed(1)} s (${grid.value.engineRuns} engine runs, ${Math.round((points * RUNS) / gridS)} point-runs/s, ` +
      `CPU ${gridCpuS.toFixed(1)} s = ${((1000 * gridCpuS) / grid.value.engineRuns).toFixed(2)} ms per engine run) ` +
      `on ${workers} workers; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}\n`,
  );
  return [result("explore-grid-s", gridS, "s", oneS)];
}
