/**
 * Runs an exploration's batches on a pool of worker threads (piscina), `workers` threads at most. A batch is cut
 * into slices of consecutive jobs; every slice runs on the engine in a worker (worker.ts) and the results are put
 * back in job order, so the exploration is identical for any number of workers (tested). With one worker, and
 * for small batches, the jobs run in this thread.
 */
import type { Result } from "../core/errors.js";
import { type WorkerPool, workerModule, workerPool } from "../core/worker-pool.js";
import { type ExploreOptions, type Exploring, runBatch, type TrialBatch } from "./batch.js";
import type { TrialResult } from "./trial.js";

/** Jobs per task: a few dozen engine runs, so a task costs far more than its message and the tail stays short. */
export const SLICE_JOBS = 16;

/** Most worker threads `--workers` accepts. */
export { WORKERS_MAX } from "../core/worker-pool.js";

/**
 * Slices of consecutive jobs, about `size` each and whole groups (`batch.group`) each; every slice carries only
 * the configurations its jobs name (renumbered).
 */
export function slices(batch: TrialBatch, sizeAbout: number): TrialBatch[] {
  const group = Math.max(1, batch.group ?? 1);
  const size = group * Math.max(1, Math.round(sizeAbout / group));
  const out: TrialBatch[] = [];
  for (let from = 0; from < batch.jobs.length; from += size) {
    const jobs = batch.jobs.slice(from, from + size);
    const used = [...new Set(jobs.map((j) => j.config))];
    const index = new Map(used.map((c, i) => [c, i]));
    out.push({
      configs: used.map((c) => batch.configs[c]!),
      jobs: jobs.map((j) => ({ config: index.get(j.config)!, input: j.input })),
      plannedAfter: 0,
      group,
    });
  }
  return out;
}

/**
 * Batches smaller than this run in the calling thread: starting a worker loads the whole engine (about a second
 * per thread), more than a few dozen engine runs cost.
 */
export const POOL_MIN_JOBS = 64;

/** Young-generation size of a worker thread (V8 semi-spaces of 32 MiB). */
const YOUNG_GENERATION_MB = 96;

/** The worker module: worker.ts, bundled beside the pre-built CLI as dist/explore-worker.mjs. */
const WORKER = workerModule(import.meta.url, "worker", "explore-worker");

/** Drives an exploration with `workers` threads (1: all in this thread). */
export async function runOnWorkers<T>(
  x: Exploring<T>,
  workers: number,
  o: ExploreOptions = {},
): Promise<Result<T, string>> {
  let pool: WorkerPool<TrialBatch, TrialResult[]> | undefined;
  try {
    let done = 0;
    let next = x.next();
    while (!next.done) {
      const batch = next.value;
      const total = done + batch.jobs.length + batch.plannedAfter;
      const progress = (n: number) => {
        done += n;
        o.onProgress?.(done, total);
      };
      if (workers <= 1 || batch.jobs.length < POOL_MIN_JOBS) {
        next = x.next(runBatch(batch, () => progress(1)));
        continue;
      }
      // A trial allocates short-lived objects in bursts (executed blocks): with 32 MiB semi-spaces instead of the
      // default 16, a 130k-block trial measured 10-15% less CPU in one thread (fewer scavenges).
      pool ??= workerPool<TrialBatch, TrialResult[]>(WORKER, workers, { youngGenerationMb: YOUNG_GENERATION_MB });
      const p = pool;
      const parts = await Promise.all(
        slices(batch, SLICE_JOBS).map(async (s) => {
          const r = await p.run(s);
          progress(r.length);
          return r;
        }),
      );
      next = x.next(parts.flat());
    }
    return next.value;
  } finally {
    await pool?.destroy();
  }
}
