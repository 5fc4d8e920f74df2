/** Scenario files (docs/scenario-format.md §2): parse, validate and resolve; the errors' one-line form. */
export { formatScenarioError } from "./errors.js";
export { parseScenario, type ScenarioOverrides, scenarioFromData } from "./load.js";
export type * from "./model.js";
