/**
 * `chainsim explore cancel-window`, the deterministic core: Monte Carlo over block-time draws (and deposit delays)
 * of cancel-window trials run on the chain engine, the probability that the cancel lands per offset with a Wilson
 * 95% interval, the smallest offset reaching the target confidence, and the rule of thumb against it.
 *
 * Cost: one engine run per trial seed, not one per (seed, offset). Each seed runs once with the plan at the largest
 * offset of the search range; its landing offset (trial.ts) then gives its outcome at every smaller offset exactly.
 * The search is a binary search over the monotone k(o) (search.ts) and is then refined by re-running the boundary
 * trial on the engine at the found offset (must land) and one block earlier (must not): `verification`.
 *
 * Files: this one runs one configuration (the probe batch, then the verification batch); batch.ts is the batch
 * protocol and its in-thread runner, summarize.ts the statistics, sweep.ts the sweep over a second axis.
 */
import { meanInterval } from "../chain/block-time.js";
import { ok, type Result } from "../core/errors.js";
import { type ExploreOptions, type Exploring, runBatches, type TrialBatch } from "./batch.js";
import { trialScenario } from "./chain.js";
import type { CancelWindowConfig } from "./model.js";
import { blocksFor, ruleOfThumbMs } from "./rule.js";
import { trialDelays, trialSeeds } from "./seeds.js";
import { type Exploration, type Measurement, measure, summarize, type Verification } from "./summarize.js";
import type { TrialInput, TrialResult } from "./trial.js";

/** The offsets searched: the given one or range, or 1 … 4 × the rule of thumb at the mean block time. */
export function searchRange(cfg: CancelWindowConfig): { min: number; max: number } {
  const o = cfg.offsets;
  if (o.kind === "single") return { min: o.offset, max: o.offset };
  if (o.kind === "range") return { min: o.min, max: o.max };
  return { min: 1, max: Math.max(1000, 4 * blocksFor(ruleOfThumbMs(cfg), meanInterval(cfg.blockTime))) };
}

/** The probe runs of `cfg`: one per trial seed, with its deposit delays, the plan at `offset`. */
export function trialInputs(cfg: CancelWindowConfig, offset: number): TrialInput[] {
  return trialSeeds(cfg.seed, cfg.runs).map((seed) => ({
    seed,
    offset,
    ...trialDelays(seed, cfg.depositDelay, cfg.cancelDepositDelay),
  }));
}

/**
 * The boundary check of a recommended offset: the trial with the largest landing offset not above it (the one
 * that sets the boundary) re-run at the offset (must land) and, when it lands exactly there, one block earlier
 * (must not). `inputs` are the runs to make; `verdict` reads their results.
 */
interface VerificationPlan {
  readonly inputs: readonly TrialInput[];
  readonly verdict: (results: readonly TrialResult[]) => Verification;
}

function planVerification(
  inputs: readonly TrialInput[],
  landings: readonly number[],
  offset: number,
): VerificationPlan | null {
  let best = -1;
  landings.forEach((l, i) => {
    if (l <= offset && (best < 0 || l > landings[best]!)) best = i;
  });
  if (best < 0) return null;
  const input = inputs[best]!;
  const checkBefore = landings[best] === offset && offset > 1;
  return {
    inputs: checkBefore
      ? [
          { ...input, offset },
          { ...input, offset: offset - 1 },
        ]
      : [{ ...input, offset }],
    verdict: (results) => {
      const at = results[0]!.outcome;
      const before = checkBefore ? { offset: offset - 1, outcome: results[1]!.outcome } : null;
      return {
        trial: best,
        seed: input.seed,
        at: { offset, outcome: at },
        before,
        ok: at === "landed" && (before === null || before.outcome !== "landed"),
      };
    },
  };
}

/** A measured series, the runs that verify its recommended offset, and how to read them back. */
interface Measured {
  readonly x: Exploration;
  readonly plan: VerificationPlan | null;
}

export function measured(
  cfg: CancelWindowConfig,
  range: { min: number; max: number },
  inputs: readonly TrialInput[],
  m: Measurement,
  grid: readonly number[] | undefined,
): Measured {
  const x = summarize(cfg, range, m, grid);
  const offset = x.recommendation?.offset;
  return { x, plan: offset === undefined ? null : planVerification(inputs, m.landings, offset) };
}

/** Runs the verifications of every series in one batch and completes them. */
export function* verifyAll(
  configs: readonly CancelWindowConfig[],
  series: readonly Measured[],
): Generator<TrialBatch, Exploration[], readonly TrialResult[]> {
  const jobs = series.flatMap((s, config) => (s.plan?.inputs ?? []).map((input) => ({ config, input })));
  const results = jobs.length === 0 ? [] : yield { configs, jobs, plannedAfter: 0 };
  let next = 0;
  return series.map((s) => {
    if (s.plan === null) return s.x;
    const own = results.slice(next, (next += s.plan.inputs.length));
    return { ...s.x, verification: s.plan.verdict(own), engineRuns: s.x.engineRuns + own.length };
  });
}

/** Explores one configuration. Fails (one line) only when the trial chain is invalid (e.g. gov params). */
export function* exploringCancelWindow(cfg: CancelWindowConfig): Exploring<Exploration> {
  const chain = trialScenario(cfg);
  if (!chain.ok) return chain;
  const range = searchRange(cfg);
  const inputs = trialInputs(cfg, range.max);
  const configs = [cfg];
  const results = yield { configs, jobs: inputs.map((input) => ({ config: 0, input })), plannedAfter: 2 };
  const m = measure(cfg, inputs, results);
  const [x] = yield* verifyAll(configs, [measured(cfg, range, inputs, m, undefined)]);
  return ok(x!);
}

/** `exploringCancelWindow` run in this thread. */
export function exploreCancelWindow(cfg: CancelWindowConfig, o: ExploreOptions = {}): Result<Exploration, string> {
  return runBatches(exploringCancelWindow(cfg), o);
}
