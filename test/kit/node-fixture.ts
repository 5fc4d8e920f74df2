import { readFileSync } from "node:fs";
import type { QueryBackend } from "../../src/api/backend.js";
import { nodeBackend } from "../../src/api/node-backend.js";
import { parseScenario, type Scenario } from "../../src/scenario/index.js";
import { buildSimulation, type Simulation, stopConditionOf } from "../../src/scenario/simulate.js";
import type { PruningOptions } from "../../src/store/pruning.js";

/**
 * Test and bench fixture: the library scenario `query-upgrade-history` (plan "v2" at 30 scheduled at 12, applied at
 * 30, foo 1 → 2) run to height 45, and val1's backend. Its `query` steps are dropped: callers query it themselves.
 */
export const UPGRADE_SCENARIO = "scenarios/query-upgrade-history.yaml";

export function loadScenarioFile(file: string): Scenario {
  const r = parseScenario(file, readFileSync(file, "utf8"));
  if (!r.ok) throw new Error(r.error.map((e) => `${e.path}: ${e.message}`).join("\n"));
  return r.value;
}

export interface SimulatedNode {
  readonly scenario: Scenario;
  readonly sim: Simulation;
  readonly backend: QueryBackend;
}

export function simulatedNode(
  o: { file?: string; node?: string; untilHeight?: number; pruning?: PruningOptions } = {},
): SimulatedNode {
  const loaded = loadScenarioFile(o.file ?? UPGRADE_SCENARIO);
  const scenario: Scenario = { ...loaded, steps: loaded.steps.filter((s) => s.action.kind !== "query") };
  const built = buildSimulation(scenario, o.pruning === undefined ? {} : { pruning: o.pruning });
  if (!built.ok) throw new Error(built.error);
  const sim = built.value;
  sim.run(o.untilHeight === undefined ? stopConditionOf(scenario) : { untilHeight: o.untilHeight });
  const backend = nodeBackend(sim, o.node ?? "val1", { validators: scenario.chain.validators });
  if (!backend.ok) throw new Error(backend.error.message);
  return { scenario, sim, backend: backend.value };
}
