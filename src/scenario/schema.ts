/**
 * The scenario file format (docs/scenario-format.md §2) as zod 4 schemas of the INPUT document: what a user writes.
 *
 * Contract:
 * - Every object is strict: an unknown key is an error. Nothing here transforms or fills defaults; `resolve.ts`
 *   turns a validated document into the typed model. The same schemas generate the JSON Schema (`json-schema.ts`),
 *   so every check that JSON Schema cannot express (Go durations, coins, "exactly one action") is a refinement
 *   with a plain message, plus a `meta` hint (pattern, oneOf) for editors.
 * - Cross-references (unknown validator, node, binary, proposal label...) are checked in `checks.ts`, not here.
 * - Plan fields inside messages (`name`, `height`, `info`) are not judged: any string, any int64 (a safe integer
 *   number, or a decimal string for values beyond ±2^53), so the keeper rejects invalid plans at run time.
 */
import { z } from "zod";
import { VOTE_OPTIONS } from "../app/types.js";
import { PROPOSAL_STATUSES, RUN_BLOCKS_MAX } from "../chain/records.js";
import { bech32PrefixProblem } from "../core/address.js";
import { LOG_LEVELS } from "../core/context.js";
import { parseDurationNs } from "../core/go/duration.js";
import { parseRfc3339 } from "../core/go/time.js";
import { FAULT_NAMES, type Fault } from "../faults/index.js";
import { pruningOptions } from "../store/pruning.js";
import { HALT_KINDS } from "../upgrade/halt.js";
import { DENOM_PATTERN, parseCoins } from "./coins.js";
import { quoteValue } from "./errors.js";
import { OperatorSchema } from "./operator-schema.js";
import { parseTimeSpec } from "./time.js";

// ---------------------------------------------------------------------------------------------------------------
// Closed sets

export const HANDLER_KINDS = ["migrate", "noop", "fail"] as const;

export const FALLBACK_VOTES = ["delete", "keep"] as const;
export type FallbackVotes = (typeof FALLBACK_VOTES)[number];

/** Trigger keys of a step; exactly one per step. */
export const TRIGGER_KEYS = ["at", "on"] as const;
/** Action keys of a step; exactly one per step, in the order of the docs/scenario-format.md §2 table. */
export const ACTION_KEYS = [
  "submitProposal",
  "deposit",
  "vote",
  "cancelProposal",
  "tx",
  "authorityExec",
  "swapBinary",
  "restart",
  "stop",
  "writeUpgradeInfo",
  "query",
  "expect",
] as const;

/** Node-name value of `on.halt` that matches every node; reserved, so no node may be called this. */
export const ANY_NODE = "any";
/** Key of `nodes` whose options apply to every node; reserved, so no node may be called this. */
export const DEFAULT_NODE_KEY = "default";

// ---------------------------------------------------------------------------------------------------------------
// Scalars

const quoted = quoteValue;

export const SCENARIO_NAME = /^[a-z0-9._-]+$/;
/** Validators, accounts, nodes and binaries: names usable as directory names (so never `.` or `..`). */
export const ENTITY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const ENTITY_NAME_TEXT = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";

const scenarioName = z
  .string()
  .regex(SCENARIO_NAME, { error: (iss) => `must match [a-z0-9._-]+, got ${quoted(iss.input)}` });

export const entityName = (what: string) =>
  z
    .string()
    .regex(ENTITY_NAME, { error: (iss) => `${what} name must match ${ENTITY_NAME_TEXT}, got ${quoted(iss.input)}` });

const label = (what: string) => z.string().min(1, { error: `${what} must not be empty` });

export const intMin = (min: number) => z.int().min(min);

const runBlocksError = (iss: { input?: unknown }): string =>
  `must be ≤ ${RUN_BLOCKS_MAX} (a run commits at most ${RUN_BLOCKS_MAX} blocks), got ${quoted(iss.input)}`;

/** A block height as written for heights the file controls: integer ≥ 1. */
const height = intMin(1);

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const INT_TEXT = /^-?[0-9]+$/;

/** The message of a union none of whose alternatives took the input's type; a missing value keeps the default. */
const unionError =
  (expected: string) =>
  (iss: { input?: unknown }): string | undefined =>
    iss.input === undefined ? undefined : `expected ${expected}, got ${describeValue(iss.input)}`;

/** Any int64: a safe-integer number, or a decimal string for the full range. */
export const int64 = z.union(
  [
    z.int({
      error: (iss) =>
        iss.code === "too_big" || iss.code === "too_small"
          ? `${String(iss.input)} is beyond ±2^53 and loses precision: write it as a string, e.g. "9223372036854775807"`
          : undefined,
    }),
    z
      .string()
      .regex(INT_TEXT, { error: (iss) => `expected an integer, got string ${quoted(iss.input)}` })
      .refine((s) => !INT_TEXT.test(s) || (BigInt(s) >= INT64_MIN && BigInt(s) <= INT64_MAX), {
        error: (iss) => `${quoted(iss.input)} is outside the int64 range`,
      }),
  ],
  { error: unionError("a 64-bit integer") },
);

const DURATION_BODY = "((\\d+(\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h))+";

/** A Go duration string; `bound` is what the field needs. Values go through the Go-compatible parser. */
export function duration(bound: "positive" | "nonNegative", description: string) {
  return z
    .string()
    .superRefine((text, ctx) => {
      const r = parseDurationNs(text);
      if (!r.ok) ctx.addIssue({ code: "custom", message: r.error, input: text });
      else if (bound === "positive" && r.value < 1_000_000n) {
        ctx.addIssue({ code: "custom", message: `must be at least 1ms, got ${quoted(text)}`, input: text });
      } else if (bound === "nonNegative" && r.value < 0n) {
        ctx.addIssue({ code: "custom", message: `must not be negative, got ${quoted(text)}`, input: text });
      }
    })
    .meta({
      description,
      pattern: bound === "positive" ? `^\\+?${DURATION_BODY}$` : `^\\+?(0|${DURATION_BODY})$`,
    });
}

export const rfc3339 = (description: string) =>
  z
    .string()
    .superRefine((text, ctx) => {
      const r = parseRfc3339(text);
      if (!r.ok) ctx.addIssue({ code: "custom", message: r.error, input: text });
    })
    .meta({ description, format: "date-time" });

/** `+<duration>` (offset from genesis) or an RFC 3339 time. */
const timeSpec = (description: string) =>
  z
    .string()
    .superRefine((text, ctx) => {
      const r = parseTimeSpec(text);
      if (!r.ok) ctx.addIssue({ code: "custom", message: r.error, input: text });
    })
    .meta({ description });

const COINS_PATTERN = `^\\s*([0-9]+${DENOM_PATTERN}\\s*(,\\s*[0-9]+${DENOM_PATTERN}\\s*)*)?$`;

export const coins = (description: string) =>
  z
    .string()
    .superRefine((text, ctx) => {
      const r = parseCoins(text);
      if (!r.ok) ctx.addIssue({ code: "custom", message: r.error, input: text });
    })
    .meta({ description, pattern: COINS_PATTERN });

/** An SDK LegacyDec as a string: non-negative, at most 18 decimals. */
const ratio = (description: string) =>
  z
    .string({
      error: (iss) =>
        iss.input === undefined
          ? undefined
          : `expected a decimal string such as "0.334" (quote it), got ${describeValue(iss.input)}`,
    })
    .regex(/^[0-9]+(\.[0-9]{1,18})?$/, {
      error: (iss) => `expected a non-negative decimal with at most 18 decimals, got ${quoted(iss.input)}`,
    })
    .meta({ description });

/** A short description of a value for messages: `string "abc"`, `number 1.5`, `a list`, `a map`, `null`. */
export function describeValue(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a map";
  if (typeof v === "string") return `string ${quoted(v.length > 60 ? `${v.slice(0, 57)}...` : v)}`;
  return `${typeof v} ${String(v)}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * A refinement requiring exactly one of `keys` in an object; runs even when other fields are invalid, so that all
 * errors are reported at once.
 */
function exactlyOne(keys: readonly string[], what: string) {
  return [
    (_value: unknown, ctx: z.RefinementCtx) => {
      const value: unknown = ctx.value;
      if (!isRecord(value)) return;
      const present = keys.filter((k) => value[k] !== undefined);
      if (present.length === 0) {
        ctx.addIssue({ code: "custom", message: `missing ${what}: one of ${keys.join(", ")}`, input: value });
      } else if (present.length > 1) {
        ctx.addIssue({
          code: "custom",
          message: `only one ${what} allowed, found ${present.map((k) => `"${k}"`).join(" and ")}`,
          input: value,
        });
      }
    },
    { when: (payload: { value: unknown }) => isRecord(payload.value) },
  ] as const;
}

// ---------------------------------------------------------------------------------------------------------------
// Messages (upgrade module)

const softwareUpgrade = z
  .strictObject({
    name: z.string().meta({ description: "Plan name, passed to the keeper as written (may be invalid on purpose)" }),
    height: int64.meta({ description: "Plan height, any int64, passed to the keeper as written" }),
    info: z.optional(z.string()),
    time: z.optional(
      rfc3339(
        "Plan.time (deprecated): the keeper refuses a plan with any time (time-based upgrades have been deprecated)",
      ),
    ),
    upgradedClientState: z.optional(
      z
        .strictObject({
          typeUrl: z.string(),
          value: z.optional(z.base64().meta({ description: "The packed value, base64; default empty" })),
        })
        .meta({ description: "Plan.upgraded_client_state (an Any): the keeper refuses a plan carrying one" }),
    ),
    authority: z.optional(
      z.string().meta({
        description: "Signer address; default: the gov authority (proposals, authorityExec) or the tx signer (tx)",
      }),
    ),
  })
  .meta({ description: "MsgSoftwareUpgrade" });

const cancelUpgrade = z.strictObject({ authority: z.optional(z.string()) }).meta({ description: "MsgCancelUpgrade" });

const MESSAGE_KEYS = ["softwareUpgrade", "cancelUpgrade"] as const;

export const UpgradeMessageSchema = z
  .strictObject({ softwareUpgrade: z.optional(softwareUpgrade), cancelUpgrade: z.optional(cancelUpgrade) })
  .superRefine(...exactlyOne(MESSAGE_KEYS, "message type"))
  .meta({ id: "UpgradeMessage", oneOf: MESSAGE_KEYS.map((k) => ({ required: [k] })) });

const messages = z.array(UpgradeMessageSchema);

// ---------------------------------------------------------------------------------------------------------------
// Expectations

const planExpectation = z.strictObject({ name: z.string(), height: int64, info: z.optional(z.string()) });

/** One event an `events` or `noEvents` expectation matches: its type, and optionally its height and attributes. */
const eventEntry = z.strictObject({
  height: z.optional(height),
  type: z.string().meta({ description: "The event type, e.g. proposal_vote or active_proposal" }),
  attributes: z.optional(
    z.record(z.string(), z.string()).meta({ description: "Attributes that must be present with these values" }),
  ),
});

/** One log line a `logs` or `noLogs` expectation matches: its level and exact message, optionally module, height, node. */
const logEntry = z.strictObject({
  height: z.optional(height),
  node: z.optional(
    entityName("node").meta({ description: "Match only this node's final lines before its halt at that height" }),
  ),
  level: z.enum(LOG_LEVELS).meta({ description: "The line's level" }),
  module: z.optional(z.string().meta({ description: "The logging module, e.g. x/upgrade or x/gov" })),
  message: z.string().meta({ description: "The line's exact message" }),
});

export const ExpectationsSchema = z
  .strictObject({
    height: z.optional(intMin(0).meta({ description: "Last committed height of the chain" })),
    halted: z.optional(
      z.union([z.literal(false), z.strictObject({ height, nodes: z.optional(z.array(entityName("node"))) })], {
        error: (iss) => `expected false or {height, nodes?}, got ${describeValue(iss.input)}`,
      }),
    ),
    plan: z.optional(z.union([z.null(), planExpectation], { error: unionError("null or {name, height, info?}") })),
    applied: z.optional(z.record(z.string(), intMin(0)).meta({ description: "Plan name → done height (0 = never)" })),
    moduleVersions: z.optional(z.record(z.string(), intMin(0))),
    protocolVersion: z.optional(intMin(0)),
    proposals: z.optional(
      z.record(
        z.string(),
        z.union([
          z.enum(PROPOSAL_STATUSES),
          z
            .strictObject({ status: z.enum(PROPOSAL_STATUSES), failedReason: z.optional(z.string()) })
            .meta({ description: "The status, and the proposal's failed_reason (exact text)" }),
        ]),
      ),
    ),
    halts: z.optional(
      z.array(
        z.strictObject({
          node: z.optional(entityName("node")),
          height: z.optional(height),
          kind: z.optional(z.enum(HALT_KINDS)),
          message: z.optional(z.string()),
        }),
      ),
    ),
    handlerRuns: z.optional(z.record(z.string(), intMin(0))),
    upgradeInfo: z.optional(
      z.record(
        z.string(),
        z.union([z.null(), planExpectation], { error: unionError("null or {name, height, info?}") }),
      ),
    ),
    nodes: z.optional(
      z
        .record(
          z.string(),
          z.strictObject({
            binary: z.optional(z.string().meta({ description: "The binary the node's process runs (or last ran)" })),
            status: z.optional(z.enum(["running", "halted", "stopped"])),
          }),
        )
        .meta({ description: "Node → the binary it runs and its status" }),
    ),
    stores: z.optional(z.array(z.string())),
    steps: z.optional(z.record(z.string(), z.strictObject({ ok: z.boolean(), error: z.optional(z.string()) }))),
    balances: z.optional(
      z
        .record(z.string(), coins('The account\'s whole committed balance, every denom; "" for none'))
        .meta({ description: "Account, validator or module account (gov, distribution) → its exact balance" }),
    ),
    supply: z.optional(coins("The exact total supply of every denom")),
    events: z.optional(
      z.array(eventEntry).meta({
        description: "Events that must have been emitted, in this order (others may come between)",
      }),
    ),
    noEvents: z.optional(
      z.array(eventEntry).meta({
        description: "Events no committed block may have emitted: each entry matches as in events",
      }),
    ),
    logs: z.optional(
      z.array(logEntry).meta({
        description:
          "Log lines that must have been written, in this order (others may come between): committed blocks' lines and halted nodes' final lines",
      }),
    ),
    noLogs: z.optional(
      z.array(logEntry).meta({ description: "Log lines never written: each entry matches as in logs" }),
    ),
  })
  .meta({ id: "Expectations", description: "Expectations, checked at the end of the run or at an expect step" });

// ---------------------------------------------------------------------------------------------------------------
// Steps

const proposalLabel = label("proposal label");
const accountRef = entityName("account");

const actionSchemas = {
  submitProposal: z.strictObject({
    id: proposalLabel.meta({ description: "Label of this proposal, used by deposit, vote, cancelProposal, expect" }),
    proposer: accountRef,
    title: z.optional(z.string().meta({ description: "Default: the id" })),
    summary: z.optional(z.string().meta({ description: "Default: the title" })),
    metadata: z.optional(z.string()),
    deposit: z.optional(coins('Initial deposit; default: minDeposit (expeditedMinDeposit if expedited); "" for none')),
    expedited: z.optional(z.boolean()),
    messages: z.optional(messages),
  }),
  deposit: z.strictObject({ proposal: proposalLabel, from: accountRef, amount: coins("Deposit amount") }),
  vote: z.strictObject({
    proposal: proposalLabel,
    votes: z
      .record(z.string(), z.enum(VOTE_OPTIONS))
      .refine((v) => Object.keys(v).length > 0, { error: "at least one voter is required" })
      .meta({ description: "Voter (validator or account) → option", minProperties: 1 }),
  }),
  cancelProposal: z.strictObject({
    proposal: proposalLabel,
    from: z.optional(accountRef.meta({ description: "Default: the proposal's proposer" })),
  }),
  tx: z.strictObject({ from: accountRef, messages: messages.min(1) }),
  authorityExec: z.strictObject({ messages: messages.min(1) }),
  swapBinary: z.strictObject({
    node: entityName("node"),
    binary: entityName("binary"),
    skipUpgradeHeights: z.optional(z.array(height).meta({ description: "Default: keep the node's current ones" })),
  }),
  restart: z.strictObject({
    node: entityName("node"),
    skipUpgradeHeights: z.optional(z.array(height).meta({ description: "Default: keep the node's current ones" })),
  }),
  stop: z.strictObject({ node: entityName("node") }),
  writeUpgradeInfo: z.strictObject({
    node: entityName("node"),
    content: z.string().meta({
      description: "The text written as the node's data/upgrade-info.json, as is: a hand edit or a corrupt file",
    }),
  }),
  query: z.strictObject({
    node: z.optional(entityName("node").meta({ description: "Default: the first validator's node" })),
    path: z.string().min(1),
    height: z.optional(z.int().meta({ description: "Sent as the block-height header" })),
    headers: z.optional(z.record(z.string(), z.string())),
    expect: z.strictObject({ status: z.int().min(100).max(599), body: z.optional(z.unknown()) }),
  }),
  expect: ExpectationsSchema,
} as const;

const haltTrigger = z.strictObject({
  halt: z.string().min(1).meta({ description: 'Node name, or "any"' }),
  kind: z.optional(z.enum(HALT_KINDS)),
  height: z.optional(height),
});

export const StepSchema = z
  .strictObject({
    label: z.optional(label("step label")),
    optional: z.optional(
      z.boolean().meta({ description: "true: the step may never run (its trigger never reached) without failing" }),
    ),
    at: z.optional(
      z.union([height, z.strictObject({ time: timeSpec('"+<duration>" after genesis, or an RFC 3339 time') })], {
        error: unionError('a height (integer ≥ 1) or {time: "+50h" | RFC 3339}'),
      }),
    ),
    on: z.optional(haltTrigger),
    delay: z.optional(duration("nonNegative", "With an `on` trigger: how long after the matching halt to run")),
    submitProposal: z.optional(actionSchemas.submitProposal),
    deposit: z.optional(actionSchemas.deposit),
    vote: z.optional(actionSchemas.vote),
    cancelProposal: z.optional(actionSchemas.cancelProposal),
    tx: z.optional(actionSchemas.tx),
    authorityExec: z.optional(actionSchemas.authorityExec),
    swapBinary: z.optional(actionSchemas.swapBinary),
    restart: z.optional(actionSchemas.restart),
    stop: z.optional(actionSchemas.stop),
    writeUpgradeInfo: z.optional(actionSchemas.writeUpgradeInfo),
    query: z.optional(actionSchemas.query),
    expect: z.optional(actionSchemas.expect),
  })
  .superRefine(...exactlyOne(TRIGGER_KEYS, "trigger"))
  .superRefine(...exactlyOne(ACTION_KEYS, "action"))
  .superRefine(
    (_v, ctx) => {
      const value: unknown = ctx.value;
      if (isRecord(value) && value.delay !== undefined && value.on === undefined) {
        ctx.addIssue({ code: "custom", path: ["delay"], message: '"delay" is only allowed with an "on" trigger' });
      }
    },
    { when: (payload) => isRecord(payload.value) },
  )
  .meta({
    description: "One trigger (at | on), one action, an optional label",
    allOf: [
      { oneOf: TRIGGER_KEYS.map((k) => ({ required: [k] })) },
      { oneOf: ACTION_KEYS.map((k) => ({ required: [k] })) },
    ],
  });

// ---------------------------------------------------------------------------------------------------------------
// Chain, binaries, nodes

const unit = (description: string) => z.number().min(0).max(1).meta({ description });

/** The drift model (docs/block-time-model.md): a wandering local mean, anchored where its state is known. */
const driftBlockTime = z
  .strictObject({
    mean: duration("positive", "Long-run mean local block time (the current regime)"),
    anchor: z.optional(
      z
        .strictObject({
          height: intMin(0),
          time: rfc3339("Time of the anchor block"),
          rate: z.optional(
            duration("positive", "Local mean block time at the anchor, daily cycle removed (default: mean)"),
          ),
        })
        .meta({ description: "Where the model's state is known (default: height 0 at genesis, rate = mean)" }),
    ),
    segmentBlocks: z.optional(intMin(1).meta({ description: "Blocks per step of the mean (default: 1h / mean)" })),
    persistence: z.optional(
      z.number().min(0).lt(1).meta({ description: "AR(1) coefficient of the log mean per segment (default 0.9)" }),
    ),
    wander: z.optional(unit("Standard deviation of the log mean's innovation per segment (default 0)")),
    daily: z.optional(
      z.strictObject({
        amplitude: unit("Amplitude of the daily cycle on the log mean"),
        peak: z
          .string()
          .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, { error: (iss) => `must be HH:MM (UTC), got ${quoted(iss.input)}` })
          .meta({ description: "UTC time of day of the slowest blocks, HH:MM" }),
      }),
    ),
    shifts: z.optional(
      z.strictObject({
        rate: unit("Probability of a regime shift per segment"),
        size: unit("Standard deviation of a shift's jump of the log mean"),
      }),
    ),
    outages: z.optional(
      z.strictObject({
        rate: unit("Probability per block of a stall"),
        mean: duration("positive", "Mean length of a stall"),
      }),
    ),
    jitter: z.optional(
      z.number().min(0).max(0.4).meta({ description: "Coefficient of variation of one block (default 0)" }),
    ),
    uncertainty: z.optional(
      z
        .strictObject({
          level: unit("Standard deviation of the log mean's draw per seed"),
          persistence: z
            .number()
            .min(0)
            .max(4)
            .meta({ description: "Standard deviation of the draw of ln(1 − persistence) per seed, at most 4" }),
          wander: unit("Standard deviation of the log wander's draw per seed"),
        })
        .meta({ description: "The fit's sampling uncertainty, drawn once per seed (default: none)" }),
    ),
  })
  .meta({ description: "A local mean that drifts: AR(1), daily cycle, regime shifts, outages, per-block jitter" });

/**
 * `{min, max}` (uniform), `{mean, stddev, min?, max?}` (normal, clipped) or `{drift: {...}}`; told apart by
 * `drift`, then `mean`/`stddev`. One object schema, so an error inside `drift` is reported at its own path.
 */
const blockTimeObject = z
  .strictObject({
    drift: z.optional(driftBlockTime),
    min: z.optional(duration("positive", "Smallest interval (normal: default 1ms)")),
    max: z.optional(duration("positive", "Largest interval")),
    mean: z.optional(duration("positive", "Mean interval (normal)")),
    stddev: z.optional(duration("nonNegative", "Standard deviation (normal)")),
  })
  .superRefine(
    (_v, ctx) => {
      const value: unknown = ctx.value;
      if (!isRecord(value)) return;
      if (value.drift !== undefined) {
        for (const k of Object.keys(value))
          if (k !== "drift") ctx.addIssue({ code: "custom", path: [k], message: `not allowed beside "drift"` });
        return;
      }
      const normal = value.mean !== undefined || value.stddev !== undefined;
      const required = normal ? ["mean", "stddev"] : ["min", "max"];
      for (const k of required) {
        if (value[k] === undefined) {
          ctx.addIssue({
            code: "custom",
            path: [k],
            message: normal
              ? `required by the normal model {mean, stddev, min?, max?}`
              : `required by the uniform model {min, max}`,
          });
        }
      }
    },
    { when: (payload) => isRecord(payload.value) },
  )
  .meta({
    oneOf: [
      {
        required: ["min", "max"],
        not: { anyOf: [{ required: ["mean"] }, { required: ["stddev"] }, { required: ["drift"] }] },
      },
      { required: ["mean", "stddev"], not: { required: ["drift"] } },
      { required: ["drift"], maxProperties: 1 },
    ],
  });

const blockTime = z.union([duration("positive", "Fixed block interval"), blockTimeObject], {
  error: unionError('a duration such as "6s", or {min, max}, or {mean, stddev, min?, max?}, or {drift: {...}}'),
});

export const GovParamsSchema = z
  .strictObject({
    minDeposit: z.optional(coins("Default 10000000stake")),
    expeditedMinDeposit: z.optional(coins("Default 50000000stake")),
    maxDepositPeriod: z.optional(duration("positive", "Default 48h")),
    votingPeriod: z.optional(duration("positive", "Default 48h")),
    expeditedVotingPeriod: z.optional(duration("positive", "Default 24h")),
    quorum: z.optional(ratio('Default "0.334"')),
    threshold: z.optional(ratio('Default "0.5"')),
    expeditedThreshold: z.optional(ratio('Default "0.667"')),
    vetoThreshold: z.optional(ratio('Default "0.334"')),
    minInitialDepositRatio: z.optional(ratio('Default "0"')),
    minDepositRatio: z.optional(ratio('Default "0.01"')),
    proposalCancelRatio: z.optional(ratio('Default "0.5"')),
    proposalCancelDest: z.optional(z.string().meta({ description: 'Default "" (burn)' })),
    burnVoteQuorum: z.optional(z.boolean()),
    burnProposalDepositPrevote: z.optional(z.boolean()),
    burnVoteVeto: z.optional(z.boolean()),
  })
  .meta({ description: "x/gov params at genesis; unset ones take the reference defaults" });

export const PRUNING_STRATEGIES = ["default", "nothing", "everything", "custom"] as const;

/** The nodes' pruning options (docs/node-api.md §1.3): keepRecent and interval only with `custom`, validated like app.toml. */
const PruningSchema = z
  .strictObject({
    strategy: z.enum(PRUNING_STRATEGIES),
    keepRecent: z.optional(intMin(0).meta({ description: "Only with strategy custom; at least 2" })),
    interval: z.optional(intMin(0).meta({ description: "Only with strategy custom; at least 10" })),
  })
  .superRefine(
    (_v, ctx) => {
      const value: unknown = ctx.value;
      if (!isRecord(value) || typeof value.strategy !== "string") return;
      if (value.strategy !== "custom") {
        for (const k of ["keepRecent", "interval"]) {
          if (value[k] !== undefined)
            ctx.addIssue({ code: "custom", path: [k], message: `only allowed with strategy "custom"` });
        }
        return;
      }
      const keep = typeof value.keepRecent === "number" ? value.keepRecent : 0;
      const interval = typeof value.interval === "number" ? value.interval : 0;
      const r = pruningOptions("custom", keep, interval);
      if (!r.ok) ctx.addIssue({ code: "custom", message: r.error.message });
    },
    { when: (payload) => isRecord(payload.value) },
  )
  .meta({ description: "Pruning of every node's state (default: strategy default, 362880 kept, interval 10)" });

const bech32Prefix = z.string().superRefine((v, ctx) => {
  const problem = bech32PrefixProblem(v);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
});

export const ChainSchema = z.strictObject({
  chainId: z.optional(z.string().min(1).meta({ description: "Default chain-sim-1" })),
  bech32Prefix: z.optional(
    bech32Prefix.meta({
      description:
        "Default chain: the bech32 account prefix (BIP-173 human-readable part: 1-83 lowercase characters); validators use it + valoper / valcons",
    }),
  ),
  genesisTime: z.optional(rfc3339("Default 2026-01-01T00:00:00Z")),
  blockTime: z.optional(blockTime.meta({ description: "Default 6s" })),
  gov: z.optional(GovParamsSchema),
  validators: z.optional(
    z
      .array(z.strictObject({ name: entityName("validator"), power: intMin(1) }))
      .min(1)
      .meta({ description: "Default [{name: val1, power: 100}]" }),
  ),
  accounts: z.optional(
    z
      .record(entityName("account"), coins("Balance"))
      .meta({ description: "Name → balance; each validator not listed gets 1000000000000stake" }),
  ),
  pruning: z.optional(PruningSchema),
});

const storeUpgrades = z.strictObject({
  added: z.optional(z.array(z.string())),
  renamed: z.optional(z.array(z.strictObject({ from: z.string(), to: z.string() }))),
  deleted: z.optional(z.array(z.string())),
});

const upgradeDefinition = z.strictObject({
  handler: z.optional(z.enum(HANDLER_KINDS).meta({ description: "Default migrate" })),
  failMessage: z.optional(z.string().meta({ description: 'Only with handler fail; default "upgrade handler failed"' })),
  storeUpgrades: z.optional(storeUpgrades),
});

const BinarySchema = z.strictObject({
  modules: z.optional(
    z
      .record(z.string().min(1), intMin(1))
      .meta({ description: "Module → consensus version; upgrade, gov and bank are at 1 unless listed" }),
  ),
  migrations: z.optional(
    z.record(z.string().min(1), z.array(intMin(1))).meta({ description: "Module → from-versions with a migration" }),
  ),
  upgrades: z.optional(z.record(z.string(), upgradeDefinition).meta({ description: "Plan name → handler" })),
});

const NodeOptionsSchema = z.strictObject({
  binary: z.optional(entityName("binary")),
  skipUpgradeHeights: z.optional(z.array(height)),
  sidecar: z.optional(
    z.strictObject({
      enabled: z.optional(z.boolean()),
      delay: z.optional(duration("nonNegative", "Whole reaction time of the sidecar; default 0s")),
      binaries: z.optional(z.record(z.string(), entityName("binary")).meta({ description: "Plan name → binary" })),
    }),
  ),
  upgradeInfoWritable: z.optional(
    z.boolean().meta({ description: "false simulates an unwritable data directory (default true)" }),
  ),
  operator: z.optional(OperatorSchema),
  dataDiskBytes: z.optional(
    intMin(0).meta({
      description:
        "The data directory's disk fills up after this many bytes of a write: the file keeps them and the write fails (no space left on device)",
    }),
  ),
});

export const ScenarioSchema = z
  .strictObject({
    $schema: z.optional(z.string().meta({ description: "Ignored; lets editors find this schema" })),
    from: z.optional(
      z.string().min(1).meta({
        description:
          "A profile (docs/profile-format.md), path relative to this file: the chain starts at its height and time with its state; `chain` keys here override the profile's",
      }),
    ),
    name: scenarioName,
    description: z.optional(z.string()),
    seed: z.optional(intMin(0).meta({ description: "Default 1" })),
    chain: z.optional(ChainSchema),
    binaries: z
      .record(entityName("binary"), BinarySchema)
      .refine((v) => Object.keys(v).length > 0, { error: "at least one binary is required" })
      .meta({ minProperties: 1 }),
    genesisBinary: z.optional(entityName("binary").meta({ description: "Default: the first binary" })),
    nodes: z.optional(
      z
        .record(entityName("node"), NodeOptionsSchema)
        .meta({ description: "Node → options; key `default` applies to every node; other keys are full nodes" }),
    ),
    options: z.optional(
      z.strictObject({
        expeditedFallbackVotes: z.optional(
          z
            .enum(FALLBACK_VOTES)
            .meta({ description: "Votes after expedited fallback (docs/fidelity.md §3.6); default delete" }),
        ),
        faults: z.optional(
          z.array(z.enum(FAULT_NAMES as [Fault, ...Fault[]])).meta({
            description:
              "Planted bugs (src/faults/) that make the simulated chain wrong on purpose; counterexamples found under a fault carry it so they replay. Never use in a real rehearsal.",
          }),
        ),
      }),
    ),
    steps: z.optional(z.array(StepSchema)),
    run: z.optional(
      z.strictObject({
        untilHeight: z.optional(height.max(RUN_BLOCKS_MAX, { error: runBlocksError })),
        untilTime: z.optional(timeSpec('"+<duration>" after genesis, or an RFC 3339 time')),
        maxBlocks: z.optional(intMin(1).max(RUN_BLOCKS_MAX, { error: runBlocksError })),
      }),
    ),
    expect: z.optional(ExpectationsSchema),
  })
  .meta({ title: "chainsim scenario", description: "A chainsim scenario file (docs/scenario-format.md §2)" });

/** The document as written (and as `scenarioToYaml` writes it). */
export type ScenarioDocument = z.input<typeof ScenarioSchema>;
export type StepDocument = z.input<typeof StepSchema>;
export type UpgradeMessageDocument = z.input<typeof UpgradeMessageSchema>;
export type ExpectationsDocument = z.input<typeof ExpectationsSchema>;
