/**
 * A pool of worker threads (piscina) that runs one worker module's default export on plain-data tasks: the
 * property campaign's units (cli/check-worker.ts) and the explorer's trial slices (explore/worker.ts). Contract: a
 * task and its result cross the thread boundary by structured clone, so both are plain data (no functions, no
 * class instances); the worker keeps nothing between tasks that a result could depend on, so a result depends on
 * its task alone, never on the thread that ran it. Callers put results back in task order themselves.
 */
import { Piscina } from "piscina";

/** Most worker threads a `--workers` flag accepts. */
export const WORKERS_MAX = 64;

export interface WorkerPool<Task, Result> {
  readonly threads: number;
  run(task: Task): Promise<Result>;
  /** Stops the threads (pending tasks are rejected). */
  destroy(): Promise<void>;
}

/**
 * A worker module beside the calling module (`callerUrl`, its `import.meta.url`): `<source>.ts` in the sources,
 * or `<bundled>.mjs` in the pre-built CLI (dist/, where scripts/build-cli.mjs writes each worker beside
 * chainsim.mjs and the chunks, the caller being one of them: all in one folder).
 */
export function workerModule(callerUrl: string, source: string, bundled: string): URL {
  return new URL(callerUrl.endsWith(".mjs") ? `./${bundled}.mjs` : `./${source}.ts`, callerUrl);
}

/**
 * Starts `threads` worker threads over `module` (`youngGenerationMb`: V8's young-generation size per thread, for
 * workloads that allocate in bursts). A TypeScript module (the sources) is loaded through tsx in each
 * thread, as bin/chainsim.js does without the bundle; a pre-built one needs nothing.
 */
export function workerPool<Task, Result>(
  module: URL,
  threads: number,
  o: { readonly youngGenerationMb?: number } = {},
): WorkerPool<Task, Result> {
  const pool = new Piscina<Task, Result>({
    filename: module.href,
    minThreads: threads,
    maxThreads: threads,
    execArgv: module.pathname.endsWith(".ts") ? ["--import", "tsx"] : [],
    ...(o.youngGenerationMb === undefined ? {} : { resourceLimits: { maxYoungGenerationSizeMb: o.youngGenerationMb } }),
  });
  return {
    threads,
    run: (task) => pool.run(task),
    destroy: () => pool.destroy(),
  };
}
