import seedrandom from "seedrandom";
import type { Step } from "../src/chain/actions.js";
import { durationMs } from "../src/core/brand.js";
import { binary, proposeAndPass, testChain } from "../test/kit/chain.js";
import { type BenchResult, median, result, timeRuns } from "./bench.js";

/**
 * The realistic upgrade lifecycle: 4 validators, deposit and voting periods of 48 h, blocks of 6 s ± 1 s
 * (uniform 5–7 s), the plan height at the cancel-safe distance round((2·(D+V) + 24 h) / 6 s), a proposal passed by
 * 3 of 4 validators, and sidecars swapping the binary 10 minutes after the halt.
 * Baseline: a bare loop over the same number of heights doing the least a simulator must do per height (draw an
 * interval from an alea stream, add it to the clock, store it).
 */
export const name = "lifecycle";

const HOUR_MS = 3_600_000;
const PERIOD_MS = 48 * HOUR_MS;
const BLOCK_MS = 6000;
export const PLAN_HEIGHT = Math.round((2 * (PERIOD_MS + PERIOD_MS) + 24 * HOUR_MS) / BLOCK_MS);
const WARMUP = 5;
const RUNS = 15;
const NODES = ["val1", "val2", "val3", "val4"];

const STEPS: Step[] = proposeAndPass(PLAN_HEIGHT);

/** One full run; returns the committed height after checking the run did what the scenario says. */
export function lifecycle(seed = 1): number {
  const e = testChain({
    seed,
    binaries: [binary("v1"), binary("v2", { v2: { handler: "migrate" } })],
    votingPeriodMs: PERIOD_MS,
    depositPeriodMs: PERIOD_MS,
    blockTime: { kind: "uniform", minMs: durationMs(5000), maxMs: durationMs(7000) },
    nodes: Object.fromEntries(
      NODES.map((n) => [n, { sidecar: { enabled: true, delayMs: durationMs(10 * 60_000), binaries: new Map() } }]),
    ),
    steps: STEPS,
  });
  e.run({ settle: true });
  const applied = e.committed()?.applied.get("v2");
  if (e.handlerRuns.get("v2") !== 1 || applied !== PLAN_HEIGHT || e.height <= PLAN_HEIGHT)
    throw new Error(`lifecycle did not complete: height ${e.height}, applied ${applied}`);
  return e.height;
}

/** The bare loop: per height one alea draw, one add, one typed-array store. Returns the end time (kept live). */
export function bareLoop(heights: number, seed = 1): number {
  const prng = seedrandom.alea(`${seed}/blockTime`);
  const times = new Float64Array(heights);
  let t = Date.UTC(2026, 0, 1);
  for (let h = 0; h < heights; h++) {
    t += 5000 + Math.floor(prng() * 2001);
    times[h] = t;
  }
  return times[heights - 1]!;
}

export async function run(): Promise<BenchResult[]> {
  const blocks = lifecycle();
  let sink = 0;
  const engineMs = median(timeRuns(() => lifecycle(), WARMUP, RUNS));
  const bareMs = median(timeRuns(() => (sink += bareLoop(blocks)), WARMUP, RUNS));
  if (sink === 0) throw new Error("bare loop optimised away");
  const blocksPerS = blocks / (engineMs / 1000);
  const bareBlocksPerS = blocks / (bareMs / 1000);
  process.stderr.write(
    `lifecycle: ${blocks} blocks (plan height ${PLAN_HEIGHT}), median ${engineMs.toFixed(1)} ms over ${RUNS} warm runs ` +
      `= ${Math.round(blocksPerS).toLocaleString("en-US")} blocks/s; bare loop ${bareMs.toFixed(2)} ms ` +
      `= ${Math.round(bareBlocksPerS).toLocaleString("en-US")} heights/s (engine ${(engineMs / bareMs).toFixed(1)}× the bare loop)\n`,
  );
  return [
    result("lifecycle-wall-ms", engineMs, "ms", bareMs),
    result("lifecycle-blocks-per-s", blocksPerS, "blocks/s", bareBlocksPerS),
  ];
}
