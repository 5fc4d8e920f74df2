/**
 * A rehearsal profile (docs/profile-format.md): what `chainsim import` read from one live node, as a YAML file that
 * scenarios start `from:`, and that `explore upgrade-height` and `preflight` plan against.
 *
 * Contract:
 * - `chain` uses the scenario format's own keys (`chainId`, `blockTime`, `validators`, `gov`) with the scenario's
 *   schemas, so the section means what it means in a scenario; it adds `modules` (the module version map) and never
 *   `genesisTime` (the simulation starts at `at`).
 * - Heights are integers ≥ 1, times RFC 3339 (UTC on output), durations Go strings, coins the scenario's coin strings.
 * - Every object is strict. Parsing never throws: errors come back as `ScenarioError`s naming the file and the path,
 *   exactly as a scenario's do. `profileToYaml` writes a document `parseProfile` reads back to the same value.
 */
import { stringify } from "yaml";
import { z } from "zod";
import { err, ok, type Result } from "../core/errors.js";
import { NAMESPACES } from "../core/namespace.js";
import { bindIssues, type ScenarioError } from "./errors.js";
import { flattenIssues, scenarioErrorMap } from "./issues.js";
import { ChainSchema, coins, duration, entityName, int64, intMin, rfc3339 } from "./schema.js";
import { NESTING_DEPTH_MAX, nestedDeeperThan, parseSource, TOO_DEEP_MESSAGE } from "./source.js";

/** The profile format's version; a reader refuses any other. */
export const PROFILE_VERSION = 1;

const heightTime = z.strictObject({
  height: intMin(1),
  time: rfc3339("RFC 3339 time of that block"),
});

const PlanSchema = z.strictObject({
  name: z.string().min(1),
  height: int64,
  info: z.optional(z.string()),
});

/** One message of a pending proposal: an upgrade, a cancel, or any other message by its type URL. */
const ProposalMessageSchema = z.union([
  z.strictObject({ softwareUpgrade: PlanSchema }),
  z.strictObject({ cancelUpgrade: z.strictObject({}) }),
  z.strictObject({ other: z.string().min(1).meta({ description: "type URL of a message chainsim does not model" }) }),
]);

const TallySchema = z.strictObject({
  yes: z.string().regex(/^[0-9]+$/),
  abstain: z.string().regex(/^[0-9]+$/),
  no: z.string().regex(/^[0-9]+$/),
  noWithVeto: z.string().regex(/^[0-9]+$/),
});

export const PROPOSAL_PHASES = ["deposit", "voting"] as const;

const ProposalSchema = z.strictObject({
  id: intMin(1),
  status: z.enum(PROPOSAL_PHASES),
  expedited: z.optional(z.boolean()),
  proposer: z.optional(z.string()),
  title: z.optional(z.string()),
  submitTime: rfc3339("Submit time"),
  depositEndTime: rfc3339("End of the deposit period"),
  votingStartTime: z.optional(rfc3339("Start of the voting period (voting only)")),
  votingEndTime: z.optional(rfc3339("End of the voting period (voting only)")),
  totalDeposit: z.optional(coins("Deposits so far")),
  tally: z.optional(TallySchema.meta({ description: "The tally so far (voting only)" })),
  messages: z.array(ProposalMessageSchema),
});

const HistorySchema = z.strictObject({
  /** Block headers read, and HTTP requests made, to sample the window. */
  samples: intMin(0),
  requests: intMin(0),
  from: heightTime,
  to: heightTime,
  /** Mean block time over the last hour, the last day and the whole window. */
  meanBlockTime: z.strictObject({
    lastHour: duration("positive", "Mean block time over the last hour"),
    lastDay: duration("positive", "Mean block time over the last day"),
    window: duration("positive", "Mean block time over the whole window"),
  }),
  /** Mean block time of each whole hour of the window, oldest first, in ms. */
  hourlyMs: z.optional(z.array(z.number().positive())),
  /** Diagnostics of the fit (docs/profile-format.md): named numbers, for the reader and the report. */
  fit: z.optional(z.record(z.string(), z.number())),
});

export const ProfileChainSchema = z.strictObject({
  ...ChainSchema.shape,
  modules: z.optional(z.record(z.string().min(1), intMin(1)).meta({ description: "Module → consensus version" })),
});

export const ProfileSchema = z.strictObject({
  $schema: z.optional(z.string()),
  profile: z.literal(PROFILE_VERSION),
  source: z.strictObject({
    rest: z.optional(z.string()),
    rpc: z.optional(z.string()),
    namespace: z.enum(NAMESPACES),
    chainId: z.string().min(1),
  }),
  at: heightTime,
  chain: ProfileChainSchema,
  plan: z.nullable(PlanSchema),
  applied: z.optional(z.array(z.strictObject({ name: z.string().min(1), height: intMin(1) }))),
  proposals: z.optional(z.array(ProposalSchema)),
  history: z.optional(HistorySchema),
});

/** A profile as written and as read (nothing is filled in). */
export type Profile = z.output<typeof ProfileSchema>;
export type ProfileProposal = z.output<typeof ProposalSchema>;
export type ProfilePlan = z.output<typeof PlanSchema>;
export type ProfileHistory = z.output<typeof HistorySchema>;

/** Validator names in a profile must be entity names (monikers are made so by the importer). */
export const validatorName = entityName("validator");

/** Parses and validates a profile's text (`.yaml`/`.yml` or `.json`). Never throws. */
export function parseProfile(fileName: string, text: string): Result<Profile, ScenarioError[]> {
  const source = parseSource(fileName, text);
  if (!source.ok) return source;
  const data = source.value.data;
  if (nestedDeeperThan(data, NESTING_DEPTH_MAX)) return err([{ file: fileName, path: "", message: TOO_DEEP_MESSAGE }]);
  const shape = ProfileSchema.safeParse(data, { reportInput: true, error: scenarioErrorMap });
  if (!shape.success) return err(bindIssues(fileName, data, flattenIssues(shape.error.issues), source.value.position));
  return ok(shape.data);
}

/** The profile as YAML, keys in schema order, with a header comment naming the format. */
export function profileToYaml(profile: Profile): string {
  const body = stringify(profile, { lineWidth: 0, aliasDuplicateObjects: false });
  return `# chainsim rehearsal profile (docs/profile-format.md)\n${body}`;
}
