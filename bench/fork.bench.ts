import { scenarioFromData } from "../src/scenario/load.js";
import { buildSimulation, forkSimulation, type Simulation, snapshotSimulation } from "../src/scenario/simulate.js";
import { type BenchResult, median, result, timeRuns } from "./bench.js";

/**
 * Forking a ready chain (engine snapshots, src/chain/snapshot.ts), the way a property run can start from a chain
 * built once per world:
 *
 * - `engine-fork-us`: snapshot a 4-validator chain at block 1 and restore it (`snapshotSimulation` +
 *   `forkSimulation`). Baseline: building the same chain and running it to block 1 (genesis, node starts, block 1).
 * - `engine-restore-us`: restoring alone, from a snapshot taken once. Same baseline.
 */
export const name = "fork";

const VALIDATORS = ["val1", "val2", "val3", "val4"];
const doc = {
  name: "fork",
  chain: { validators: VALIDATORS.map((n) => ({ name: n, power: 100 })), blockTime: "6s" },
  binaries: { v1: {}, v2: { upgrades: { v2: { handler: "migrate" } } } },
  steps: [
    {
      at: 2,
      submitProposal: { id: "up", proposer: "val1", messages: [{ softwareUpgrade: { name: "v2", height: 20 } }] },
    },
  ],
};
const parsed = scenarioFromData("bench-fork.yaml", doc);
if (!parsed.ok) throw new Error(`bench scenario fork: ${JSON.stringify(parsed.error)}`);
const S = parsed.value;

function ready(): Simulation {
  const b = buildSimulation(S);
  if (!b.ok) throw new Error(b.error);
  b.value.run({ untilHeight: 1 });
  if (b.value.height !== 1) throw new Error(`bench chain at ${b.value.height}`);
  return b.value;
}

function fork(from: ReturnType<typeof snapshotSimulation>): Simulation {
  const f = forkSimulation(S, from);
  if (!f.ok) throw new Error(f.error);
  if (f.value.height !== 1) throw new Error(`fork at ${f.value.height}`);
  return f.value;
}

export async function run(): Promise<BenchResult[]> {
  const base = ready();
  const snap = snapshotSimulation(base);
  const freshUs = median(timeRuns(() => ready(), 50, 400)) * 1000;
  const forkUs = median(timeRuns(() => fork(snapshotSimulation(base)), 50, 400)) * 1000;
  const restoreUs = median(timeRuns(() => fork(snap), 50, 400)) * 1000;
  process.stderr.write(
    `fork: 4-validator chain at block 1: built fresh ${freshUs.toFixed(1)} µs; snapshot + restore ${forkUs.toFixed(1)} µs; restore alone ${restoreUs.toFixed(1)} µs\n`,
  );
  return [result("engine-fork-us", forkUs, "us", freshUs), result("engine-restore-us", restoreUs, "us", freshUs)];
}
