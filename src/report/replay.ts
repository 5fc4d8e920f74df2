/**
 * The command that replays a campaign, as the report page shows it.
 *
 * Contract: running `replayCommand(s)` reproduces the campaign of summary `s`: the same command with the same seed
 * and every option that shaped the units and their runs (`--runs`, `--time-limit`, each `--property`,
 * `--max-commands`, `--faults`, `--shard`). Options equal to the command's defaults are left out; the flags come
 * in one fixed order, so two summaries of the same campaign give the same text. Options that do not shape the
 * campaign (where files go, `--json`, worker counts) are never included.
 *
 * The defaults of `--runs` and `--time-limit` depend on the command (`check` and `all` differ); the command
 * records them in summary.json (`defaults`, see campaignDefaultsOf). A summary without them (written before they
 * were recorded) gets both flags spelled out, which replays the same campaign.
 */
import { formatDuration } from "../core/go/duration.js";
import { DEFAULT_MAX_COMMANDS } from "../harness/campaign.js";
import { PROPERTY_NAMES } from "../harness/properties.js";
import type { CheckSummary } from "../harness/summary.js";

/** The defaults of the command that ran the campaign: `defaults` in summary.json. */
export interface CampaignDefaults {
  readonly runsPerProperty: number;
  /** Null: no time limit unless `--time-limit` is given. */
  readonly timeLimitMs: number | null;
}

const isDefaults = (v: unknown): v is CampaignDefaults => {
  if (typeof v !== "object" || v === null) return false;
  const d = v as Record<string, unknown>;
  return typeof d.runsPerProperty === "number" && (d.timeLimitMs === null || typeof d.timeLimitMs === "number");
};

/** The command's defaults recorded in the summary, or null when it has none (or they are malformed). */
export const campaignDefaultsOf = (s: CheckSummary): CampaignDefaults | null =>
  isDefaults(s.defaults) ? s.defaults : null;

/** The arguments after `chainsim` that replay the campaign of `s`. */
export function replayArgs(s: CheckSummary): string[] {
  const o = s.options;
  const d = campaignDefaultsOf(s);
  const args = [s.command, "--seed", String(s.seed)];
  if (d === null || o.runsPerProperty !== d.runsPerProperty) args.push("--runs", String(o.runsPerProperty));
  // (A campaign without a time limit under a command that has one cannot be run: no flag turns it off.)
  if (o.timeLimitMs !== null && o.timeLimitMs !== (d === null ? null : d.timeLimitMs))
    args.push("--time-limit", formatDuration(o.timeLimitMs));
  // The properties run in the order given (it decides the units), so only all of them in their own order is default.
  const allProperties =
    o.properties.length === PROPERTY_NAMES.length && o.properties.every((p, i) => p === PROPERTY_NAMES[i]);
  if (!allProperties) for (const p of o.properties) args.push("--property", p);
  if (o.maxCommands !== DEFAULT_MAX_COMMANDS) args.push("--max-commands", String(o.maxCommands));
  if (o.faults.length > 0) args.push("--faults", o.faults.join(","));
  if (o.shard !== "1/1") args.push("--shard", o.shard);
  return args;
}

/** `npx chainsim <replayArgs>`: every argument is a plain token (names, numbers, durations), so no quoting. */
export const replayCommand = (s: CheckSummary): string => `npx chainsim ${replayArgs(s).join(" ")}`;
