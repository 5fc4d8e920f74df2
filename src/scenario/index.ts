/** Scenario files (docs/scenario-format.md §2): parse, validate, resolve, describe (JSON Schema) and write. */

export { PROPOSAL_STATUSES, type ProposalStatusName } from "../chain/records.js";
export { VOTE_OPTIONS, type VoteOptionName } from "../chain/types.js";
export { formatDuration, formatDurationNs, parseDuration, parseDurationNs } from "../core/go/duration.js";
export { HALT_KINDS, type HaltKind } from "../upgrade/halt.js";
export { type Coin, type Coins, formatCoins, parseCoin, parseCoins } from "./coins.js";
export { BASE_MODULES, GOV_DEFAULTS, SCENARIO_DEFAULTS } from "./defaults.js";
export { formatScenarioError, renderPath, type ScenarioError } from "./errors.js";
export { QUERY_ACTIONS_AVAILABLE } from "./features.js";
export { scenarioJsonSchema, scenarioJsonSchemaText } from "./json-schema.js";
export { parseScenario, scenarioFromData } from "./load.js";
export type * from "./model.js";
export { ACTION_KEYS, type ScenarioDocument } from "./schema.js";
export { type SerializeOptions, scenarioToYaml } from "./serialize.js";
export { parseRfc3339, parseTimeSpec, resolveTimeSpec, type TimeSpec } from "./time.js";
