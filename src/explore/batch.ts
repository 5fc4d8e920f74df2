/**
 * The batch protocol of the cancel-window explorer (explore.ts, sweep.ts): an exploration is a generator that yields
 * the engine runs it needs as batches and resumes with their results in job order. `runBatches` drives one in this
 * thread; the worker pool (pool.ts) drives the same generator on threads, each running `runBatch`. The results do not
 * depend on who ran them, in what order or on how many threads.
 */
import type { Result } from "../core/errors.js";
import type { Scenario } from "../scenario/index.js";
import { trialScenario } from "./chain.js";
import type { CancelWindowConfig } from "./model.js";
import { runTrial, type TrialInput, type TrialResult } from "./trial.js";

export interface ExploreOptions {
  /** Called as engine runs complete with (runs done, runs planned). */
  readonly onProgress?: (done: number, total: number) => void;
}

/** One engine run of a batch: the trial `input` on the chain of `configs[config]`. */
export interface TrialJob {
  readonly config: number;
  readonly input: TrialInput;
}

/**
 * Engine runs an exploration needs at once. Every job is independent of the others (its own engine, built from
 * its configuration and input alone), so a runner may run them in any order and on any thread; it returns the
 * results in job order, which is what makes an exploration identical for any number of workers.
 */
export interface TrialBatch {
  readonly configs: readonly CancelWindowConfig[];
  readonly jobs: readonly TrialJob[];
  /** Most engine runs the exploration may still ask for after this batch (for progress totals). */
  readonly plannedAfter: number;
  /**
   * Consecutive jobs come in groups of this many that share a trial seed (a sweep runs each seed under every
   * value): a runner that keeps a group on one thread draws that seed's block times once (chain/block-time.ts).
   * A hint for speed only; absent means 1.
   */
  readonly group?: number;
}

/**
 * An exploration as a computation over batches: it yields each batch of engine runs it needs and resumes with
 * their results, in job order. `runBatches` drives it in this thread; a worker pool drives the same generator.
 */
export type Exploring<T> = Generator<TrialBatch, Result<T, string>, readonly TrialResult[]>;

/**
 * Trial chains by configuration (its JSON): a worker receives its configurations as copies with every task, and a
 * chain resolved once keeps its app host (genesis built once) for every later task. A memo of a pure function,
 * bounded: cleared when it holds `CHAINS_MAX` chains.
 */
const chains = new Map<string, Scenario>();
const CHAINS_MAX = 64;

function chainOf(cfg: CancelWindowConfig): Scenario {
  const key = JSON.stringify(cfg);
  let chain = chains.get(key);
  if (chain === undefined) {
    const s = trialScenario(cfg);
    // The exploration resolved every configuration before yielding a batch.
    if (!s.ok) throw new Error(`cancel-window trial chain: ${s.error}`);
    if (chains.size >= CHAINS_MAX) chains.clear();
    chain = s.value;
    chains.set(key, chain);
  }
  return chain;
}

/** Runs one batch in this thread, one engine per job; `onRun` is called after each. */
export function runBatch(batch: TrialBatch, onRun?: () => void): TrialResult[] {
  const resolved = batch.configs.map(chainOf);
  return batch.jobs.map((j) => {
    const r = runTrial(resolved[j.config]!, batch.configs[j.config]!, j.input);
    onRun?.();
    return r;
  });
}

/** Drives an exploration in this thread. */
export function runBatches<T>(x: Exploring<T>, o: ExploreOptions = {}): Result<T, string> {
  let done = 0;
  let total = 0;
  let next = x.next();
  while (!next.done) {
    const batch = next.value;
    total = done + batch.jobs.length + batch.plannedAfter;
    next = x.next(
      runBatch(batch, () => {
        done++;
        o.onProgress?.(done, total);
      }),
    );
  }
  return next.value;
}
