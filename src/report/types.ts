/**
 * The data model of an HTML report: what `chainsim all` saves in `reports/<run-id>/` and what `chainsim report`
 * rebuilds the page from. Plain JSON data.
 */
import type { TransitionInfo } from "../../models/coverage.js";
import type { VegaLiteSpec } from "../explore/chart.js";
import type { Exploration } from "../explore/summarize.js";
import type { SweepExploration } from "../explore/sweep.js";
import type { CheckSummary } from "../harness/summary.js";
import type { RunReport } from "../scenario/runner.js";
import type { MutationInput } from "./mutation-section.js";

/** One replayed scenario: its `chainsim run --json` report and its canonical trace lines. */
export interface ScenarioRecord {
  readonly report: RunReport;
  readonly trace: readonly string[];
  /** The scenario is a known regression (under the regressions directory): failing it does not fail the run. */
  readonly knownRegression?: boolean;
}

/** `reports/<run-id>/scenarios.json`. */
export interface ScenariosFile {
  readonly format: "chainsim-scenarios/1";
  readonly runId: string;
  readonly scenarios: readonly ScenarioRecord[];
}

export type ExplorationData = Exploration | SweepExploration;

export interface ReportInput {
  readonly summary: CheckSummary;
  /** Null when the run replayed no scenarios (`chainsim check`). */
  readonly scenarios: readonly ScenarioRecord[] | null;
  /** The last cancel-window exploration and where it was read from; null when there is none. */
  readonly exploration: { readonly data: ExplorationData; readonly source: string } | null;
  /** The model's transitions (models/coverage.ts machineTransitions()). */
  readonly transitions: readonly TransitionInfo[];
  /** The last `npm run mutate` (reports/mutation/summary.json), when there is one. */
  readonly mutation?: MutationInput | null;
}

/** Renders a Vega-Lite spec to an SVG document (injected: vega at the edge, a stub in tests). */
export type SvgRenderer = (spec: VegaLiteSpec) => Promise<string>;
