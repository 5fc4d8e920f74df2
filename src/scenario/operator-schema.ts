/**
 * The `operator` block of a node's options (docs/scenario-format.md §2.4) as a zod schema of the input document.
 * Kept apart from schema.ts; resolve-operator.ts turns it into the model (src/app/operator.ts).
 *
 * Checks that JSON Schema cannot express are refinements with one plain message each, naming the key: a duration
 * that does not parse or is negative; a lognormal whose median is not positive or whose p90 is below the median; a
 * uniform whose max is below its min; a time zone Intl does not know; working hours that are not `HH:MM-HH:MM`
 * with start < end; a retry count over PREUPGRADE_MAX_RETRIES_BOUND.
 */
import { z } from "zod";
import { PREUPGRADE_MAX_RETRIES_BOUND } from "../app/operator.js";
import { parseDurationNs } from "../core/go/duration.js";
import { isTimeZone } from "../core/time-zone.js";
import { quoteValue } from "./errors.js";

const DURATION_PATTERN = "^\\+?(0|((\\d+(\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h))+)$";

/** Whole ms of a Go duration string, or undefined when it does not parse. */
export function durationTextMs(text: string): number | undefined {
  const r = parseDurationNs(text);
  return r.ok ? Number(r.value / 1_000_000n) : undefined;
}

const durationText = (description: string, positive: boolean) =>
  z
    .string()
    .superRefine((text, ctx) => {
      const r = parseDurationNs(text);
      if (!r.ok) ctx.addIssue({ code: "custom", message: r.error, input: text });
      else if (r.value < 0n)
        ctx.addIssue({ code: "custom", message: `must not be negative, got ${quoteValue(text)}`, input: text });
      else if (positive && r.value < 1_000_000n)
        ctx.addIssue({ code: "custom", message: `must be at least 1ms, got ${quoteValue(text)}`, input: text });
    })
    .meta({ description, pattern: DURATION_PATTERN });
const nonNegativeDuration = (description: string) => durationText(description, false);

const probability = (description: string) => z.number().min(0).max(1).meta({ description });

const dist = z
  .union([
    nonNegativeDuration("A fixed duration"),
    z.strictObject({
      uniform: z.strictObject({ min: nonNegativeDuration("Shortest"), max: nonNegativeDuration("Longest") }),
    }),
    z.strictObject({
      lognormal: z.strictObject({
        median: nonNegativeDuration("The median (> 0)"),
        p90: nonNegativeDuration("The 90th percentile (≥ the median)"),
      }),
    }),
  ])
  .superRefine((v, ctx) => {
    if (typeof v === "string") return;
    if ("uniform" in v) {
      const [min, max] = [durationTextMs(v.uniform.min), durationTextMs(v.uniform.max)];
      if (min !== undefined && max !== undefined && max < min)
        ctx.addIssue({
          code: "custom",
          path: ["uniform", "max"],
          message: `must not be below min, got ${v.uniform.max}`,
        });
      return;
    }
    const [median, p90] = [durationTextMs(v.lognormal.median), durationTextMs(v.lognormal.p90)];
    if (median === 0)
      ctx.addIssue({
        code: "custom",
        path: ["lognormal", "median"],
        message: `must be positive, got ${quoteValue(v.lognormal.median)}`,
      });
    else if (median !== undefined && p90 !== undefined && p90 < median)
      ctx.addIssue({
        code: "custom",
        path: ["lognormal", "p90"],
        message: `must not be below the median ${v.lognormal.median}, got ${quoteValue(v.lognormal.p90)}`,
      });
  })
  .meta({ description: 'A duration: "10m", {uniform: {min, max}} or {lognormal: {median, p90}}' });

export const WORKING_HOURS = /^([01][0-9]|2[0-3]):([0-5][0-9])-([01][0-9]|2[0-4]):([0-5][0-9])$/;
export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

const calendar = z.strictObject({
  timeZone: z
    .string()
    .refine((tz) => isTimeZone(tz), { error: (iss) => `unknown time zone ${quoteValue(iss.input)}` })
    .meta({ description: "IANA time zone, e.g. Europe/Berlin" }),
  workingHours: z.optional(
    z
      .string()
      .refine(
        (w) => {
          const m = WORKING_HOURS.exec(w);
          return m !== null && Number(m[1]) * 60 + Number(m[2]) < Number(m[3]) * 60 + Number(m[4]);
        },
        { error: (iss) => `must be "HH:MM-HH:MM" with the start before the end, got ${quoteValue(iss.input)}` },
      )
      .meta({ description: 'Local working hours; default "09:00-17:00"' }),
  ),
  days: z.optional(z.array(z.enum(WEEKDAYS)).min(1).meta({ description: "Working days; default mon-fri" })),
  onCall: z.optional(z.boolean().meta({ description: "Reachable at any hour; default false" })),
});

const earlyAction = (description: string) =>
  z
    .strictObject({
      probability: z.optional(probability("Probability it happens, per plan; default 1")),
      lead: dist.meta({ description: "How long before the expected halt (now + blocks to go × the mean block time)" }),
    })
    .meta({ description });

const ManualSchema = z.strictObject({
  reaction: dist,
  calendar: z.optional(calendar),
  absent: z.optional(probability("Probability the operator never shows up; default 0")),
  wrongBinary: z.optional(probability("Probability per attempt of starting a binary without the handler; default 0")),
  early: z.optional(
    earlyAction(
      "The person installs the plan's binary and restarts the node ahead of the halt (docs/fidelity.md §4.5 rows 1, 6, 7)",
    ),
  ),
});

const CosmovisorSchema = z.strictObject({
  pollInterval: z.optional(durationText("DAEMON_POLL_INTERVAL (args.go: must be greater than 0); default 300ms", true)),
  restartAfterUpgrade: z.optional(z.boolean().meta({ description: "DAEMON_RESTART_AFTER_UPGRADE; default true" })),
  shutdownGrace: z.optional(nonNegativeDuration("DAEMON_SHUTDOWN_GRACE; default 0s")),
  restartDelay: z.optional(nonNegativeDuration("DAEMON_RESTART_DELAY; default 0s")),
  unsafeSkipBackup: z.optional(z.boolean().meta({ description: "UNSAFE_SKIP_BACKUP; default false" })),
  backup: z.optional(
    z.union([
      z.strictObject({ duration: dist }),
      z.strictObject({
        dataSizeGiB: z.number().min(0).meta({ description: "Size of data/ in GiB" }),
        throughputMiBPerS: z.number().gt(0).meta({ description: "Copy speed in MiB/s" }),
      }),
    ]),
  ),
  autoDownload: z.optional(
    z.strictObject({
      duration: z.optional(dist),
      failure: z.optional(probability("Probability the download fails; default 0")),
    }),
  ),
  preUpgrade: z.optional(
    z.strictObject({
      exitCodes: z.optional(
        z
          .array(z.int().min(0).max(255))
          .min(1)
          .meta({ description: "Exit code per attempt, the last repeats; default [1]" }),
      ),
      duration: z.optional(dist),
      maxRetries: z.optional(
        z
          .int()
          .min(0)
          .max(PREUPGRADE_MAX_RETRIES_BOUND, {
            error: (iss) => `must be ≤ ${PREUPGRADE_MAX_RETRIES_BOUND}, got ${String(iss.input)}`,
          })
          .meta({ description: `DAEMON_PREUPGRADE_MAX_RETRIES; default 0, at most ${PREUPGRADE_MAX_RETRIES_BOUND}` }),
      ),
    }),
  ),
  onFailure: z.optional(
    z.enum(["manual", "stall"]).meta({ description: "Default manual when the node has `manual`, else stall" }),
  ),
  addUpgrade: z.optional(
    earlyAction(
      "`cosmovisor add-upgrade --upgrade-height` ahead of the halt: cosmovisor switches at its next poll (docs/fidelity.md §4.5 row 2)",
    ),
  ),
});

export const OperatorSchema = z
  .strictObject({
    cosmovisor: z.optional(
      z.union([z.literal(false), CosmovisorSchema]).meta({ description: "false: none (drops the default's)" }),
    ),
    manual: z.optional(
      z.union([z.literal(false), ManualSchema]).meta({ description: "false: none (drops the default's)" }),
    ),
  })
  .meta({ description: "Who brings the node back after an upgrade halt (docs/scenario-format.md §2.4)" });

export type OperatorDocument = z.input<typeof OperatorSchema>;
export type DistributionDocument = z.input<typeof dist>;
