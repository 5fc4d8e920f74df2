import { scenarioFromData } from "../src/scenario/load.js";
import type { Scenario } from "../src/scenario/model.js";
import { buildSimulation, type Simulation } from "../src/scenario/simulate.js";
import { type BenchResult, median, result, timeRuns } from "./bench.js";

/**
 * The engine's unit costs, each through the scenario loader and `buildSimulation` (the path every harness run and
 * every explorer trial takes):
 *
 * - `harness-floor-ms`: the simplest meaningful run: 4 validators, one upgrade proposal that passes, every node
 *   halting at the plan height, each swapped to the binary with the handler, the upgrade applied, 18 blocks in all.
 *   What a property run costs at the least, with no oracle and no checks. Baseline: the same chain built and run
 *   to the same height with no steps (genesis, block 1 and idle blocks).
 * - `executed-block-us`: one executed block (a deposit transaction, PreBlocker, EndBlocker, app hash, commit) on 4
 *   nodes in the same state, per block. Baseline: an idle block the engine fast-forwards, per block.
 */
export const name = "engine";

const FLOOR_HEIGHT = 18;
const PLAN_HEIGHT = 12;
const EXEC_BLOCKS = 400;
const IDLE_BLOCKS = 100_000;

const VALIDATORS = ["val1", "val2", "val3", "val4"];
const chain = {
  validators: VALIDATORS.map((name) => ({ name, power: 100 })),
  blockTime: "6s",
  gov: { maxDepositPeriod: "30s", votingPeriod: "30s", expeditedVotingPeriod: "15s" },
};
const binaries = { v1: {}, v2: { upgrades: { v2: { handler: "migrate" } } } };
const proposal = {
  at: 2,
  submitProposal: {
    id: "upgrade",
    proposer: "val1",
    messages: [{ softwareUpgrade: { name: "v2", height: PLAN_HEIGHT } }],
  },
};

function scenario(doc: Record<string, unknown>): Scenario {
  const s = scenarioFromData(`bench-${String(doc.name)}.yaml`, doc);
  if (!s.ok) throw new Error(`bench scenario ${String(doc.name)}: ${JSON.stringify(s.error)}`);
  return s.value;
}

const FLOOR = scenario({
  name: "floor",
  chain,
  binaries,
  steps: [
    proposal,
    { at: 3, vote: { proposal: "upgrade", votes: Object.fromEntries(VALIDATORS.map((v) => [v, "yes"])) } },
    ...VALIDATORS.map((v) => ({ on: { halt: v, kind: "upgrade-needed" }, swapBinary: { node: v, binary: "v2" } })),
  ],
});
const IDLE = scenario({ name: "idle", chain, binaries });
/** A deposit in every block from height 3 on: a proposal that never reaches its deposit (the period is long). */
const DEPOSITS = scenario({
  name: "deposits",
  chain: { ...chain, gov: { maxDepositPeriod: "720h", votingPeriod: "720h", expeditedVotingPeriod: "360h" } },
  binaries: { v1: {} },
  steps: [
    { at: 2, submitProposal: { id: "p", proposer: "val1", deposit: "1stake", messages: [{ cancelUpgrade: {} }] } },
    ...Array.from({ length: EXEC_BLOCKS }, (_, i) => ({
      at: 3 + i,
      deposit: { proposal: "p", from: VALIDATORS[i % VALIDATORS.length], amount: "1stake" },
    })),
  ],
});

function build(s: Scenario, noFastPath = false): Simulation {
  const e = buildSimulation(s, noFastPath ? { engine: { noFastPath: true } } : {});
  if (!e.ok) throw new Error(e.error);
  return e.value;
}

/** One floor run; throws unless the upgrade was applied on every node. */
export function floorRun(): Simulation {
  const e = build(FLOOR);
  e.run({ untilHeight: FLOOR_HEIGHT });
  if (e.height !== FLOOR_HEIGHT || e.committed()?.applied.get("v2") !== PLAN_HEIGHT || e.halts.length !== 4)
    throw new Error(`floor run did not upgrade: height ${e.height}, halts ${e.halts.length}`);
  return e;
}

function idleRun(): void {
  build(IDLE).run({ untilHeight: FLOOR_HEIGHT });
}

/** The process's CPU time so far (user + system), in ms: on a shared machine it moves far less than wall time. */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * µs per block of `blocks` blocks after height 2 (median of 7 runs after 2 warm-ups; build and blocks 1-2 untimed),
 * and the least CPU time per block of those runs.
 */
function perBlockUs(s: Scenario, blocks: number, noFastPath: boolean): { wallUs: number; cpuUsMin: number } {
  const samples: number[] = [];
  let cpuMin = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 9; i++) {
    const e = build(s, noFastPath);
    e.run({ untilHeight: 2 });
    const c0 = cpuMs();
    const t0 = performance.now();
    e.run({ untilHeight: 2 + blocks });
    const ms = performance.now() - t0;
    const cpu = cpuMs() - c0;
    if (e.height !== 2 + blocks) throw new Error(`bench chain stopped at ${e.height}`);
    if (i >= 2) {
      samples.push(ms);
      cpuMin = Math.min(cpuMin, cpu);
    }
  }
  return { wallUs: (median(samples) * 1000) / blocks, cpuUsMin: (cpuMin * 1000) / blocks };
}

/** CPU ms per call of `fn`: the least mean over `rounds` rounds of `runs` calls. */
function cpuPerRunMs(fn: () => void, rounds: number, runs: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    const c0 = cpuMs();
    for (let i = 0; i < runs; i++) fn();
    best = Math.min(best, (cpuMs() - c0) / runs);
  }
  return best;
}

export async function run(): Promise<BenchResult[]> {
  const floorMs = median(timeRuns(() => floorRun(), 20, 100));
  const idleMs = median(timeRuns(idleRun, 20, 100));
  const floorCpuMs = cpuPerRunMs(() => floorRun(), 5, 20);
  process.stderr.write(
    `engine: floor run (${FLOOR_HEIGHT} blocks, one proposal, 4 halts and swaps, the upgrade) ${floorMs.toFixed(2)} ms ` +
      `(CPU ${floorCpuMs.toFixed(2)} ms); the same chain with no steps ${idleMs.toFixed(2)} ms\n`,
  );
  const exec = perBlockUs(DEPOSITS, EXEC_BLOCKS, true);
  const idle = perBlockUs(IDLE, IDLE_BLOCKS, false);
  process.stderr.write(
    `engine: executed block (one deposit tx, 4 nodes) ${exec.wallUs.toFixed(1)} µs (CPU ${exec.cpuUsMin.toFixed(1)} µs); ` +
      `idle block (fast path) ${(idle.wallUs * 1000).toFixed(0)} ns\n`,
  );
  return [
    result("harness-floor-ms", floorMs, "ms", idleMs),
    result("executed-block-us", exec.wallUs, "us", idle.wallUs),
  ];
}
