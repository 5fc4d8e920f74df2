/**
 * The chain a cancel-window trial runs on: one validator (`TRIAL_VALIDATORS`), one binary without any upgrade
 * handler (so a due plan halts every node, and a scheduled one never trips "binary too early"), no sidecars, the
 * gov periods of the configuration. Built as a scenario document and resolved by the scenario loader, so the same
 * validation (and the same engine construction) applies as to a scenario file.
 *
 * One validator, because every validator of a trial votes yes in the same block: more validators of equal power
 * give the same tallies, the same block times and the same outcome, and only repeat each executed block on more
 * nodes. trial.test.ts runs trials on four validators and on one and compares every result.
 */

import type { BlockTimeModel } from "../chain/block-time.js";
import { driftDocument } from "../chain/block-time-drift.js";
import { err, ok, type Result } from "../core/errors.js";
import { formatDuration } from "../core/go/duration.js";
import { SCENARIO_DEFAULTS } from "../scenario/defaults.js";
import { formatScenarioError, type Scenario } from "../scenario/index.js";
import { scenarioFromData } from "../scenario/load.js";
import { buildSimulation, genesisErrors, type Simulation } from "../scenario/simulate.js";
import type { CancelWindowConfig } from "./model.js";

/** The validators of a trial chain (equal power). */
const TRIAL_VALIDATORS: readonly string[] = ["val1"];
export const UPGRADE_PROPOSER = "val1";
/** An account, not a validator: funded like one. */
export const CANCEL_PROPOSER = "val2";
/** The plan name; no binary registers a handler for it. */
export const PLAN_NAME = "v2";

/** The scenario file form (docs/scenario-format.md §2) of a block-time model. */
export function blockTimeDocument(m: BlockTimeModel): unknown {
  switch (m.kind) {
    case "fixed":
      return formatDuration(m.intervalMs);
    case "uniform":
      return { min: formatDuration(m.minMs), max: formatDuration(m.maxMs) };
    case "normal":
      return {
        mean: formatDuration(m.meanMs),
        stddev: formatDuration(m.stddevMs),
        min: formatDuration(m.minMs),
        ...(m.maxMs === undefined ? {} : { max: formatDuration(m.maxMs) }),
      };
    case "drift":
      return driftDocument(m);
  }
}

/** The scenario document of a trial chain (no steps: the trial driver schedules them as the run unfolds). */
export function trialDocument(
  cfg: CancelWindowConfig,
  validators: readonly string[] = TRIAL_VALIDATORS,
): Record<string, unknown> {
  const accounts = [UPGRADE_PROPOSER, CANCEL_PROPOSER].filter((a) => !validators.includes(a));
  return {
    name: "cancel-window-trial",
    description: "chain of a chainsim explore cancel-window trial",
    seed: cfg.seed,
    chain: {
      blockTime: blockTimeDocument(cfg.blockTime),
      validators: validators.map((name) => ({ name, power: 100 })),
      ...(accounts.length === 0
        ? {}
        : { accounts: Object.fromEntries(accounts.map((a) => [a, SCENARIO_DEFAULTS.validatorBalance])) }),
      gov: {
        maxDepositPeriod: formatDuration(cfg.depositPeriodMs),
        votingPeriod: formatDuration(cfg.votingPeriodMs),
        expeditedVotingPeriod: formatDuration(cfg.expeditedVotingPeriodMs),
      },
    },
    binaries: { v1: {} },
  };
}

/** Resolves the trial chain once per configuration; fails (one line) on what the scenario loader or gov reject. */
export function trialScenario(
  cfg: CancelWindowConfig,
  validators: readonly string[] = TRIAL_VALIDATORS,
): Result<Scenario, string> {
  const s = scenarioFromData("cancel-window-trial", trialDocument(cfg, validators));
  if (!s.ok) return err(s.error.map(formatScenarioError).join("; "));
  const g = genesisErrors(s.value);
  if (g.length > 0) return err(g.map(formatScenarioError).join("; "));
  return ok(s.value);
}

/** A fresh engine at genesis whose block times derive from `seed`. */
export function trialEngine(s: Scenario, seed: number): Simulation {
  const e = buildSimulation(s, { seed });
  // trialScenario already ran gov's genesis validation, the only way buildSimulation fails.
  if (!e.ok) throw new Error(`cancel-window trial chain: ${e.error}`);
  return e.value;
}
