/**
 * The command that replays a campaign, as the report page shows it.
 *
 * Contract: running `replayCommand(s)` reproduces the campaign of summary `s`: the same command with the same seed
 * and every option that shaped the units and their runs (`--runs`, `--time-limit`, each `--property` in the order
 * they ran, `--max-commands`, `--faults`, `--shard`, `--bail`, `--prefix-share`). Options equal to the command's
 * defaults are left out; the flags come in one fixed order, so two summaries of the same campaign give the same
 * text. Options that do not shape the campaign (where files go, `--json`, worker counts) are never included.
 *
 * What the summary's `options` do not say is in its `replay` section, written by the command (ReplayFacts): its
 * defaults (`check` and `all` differ) and `--bail`. A summary without it (written before it was recorded) gets
 * `--runs` and `--time-limit` spelled out and no `--property`.
 */
import { formatDuration } from "../core/go/duration.js";
import { DEFAULT_MAX_COMMANDS } from "../harness/campaign.js";
import type { CheckSummary } from "../harness/summary.js";

/** The defaults of the command that ran the campaign. */
export interface CampaignDefaults {
  readonly runsPerProperty: number;
  /** Null: no time limit unless `--time-limit` is given. */
  readonly timeLimitMs: number | null;
  /** Every property, in the order the command runs them without `--property`. */
  readonly properties: readonly string[];
}

/** summary.json's `replay` section. */
export interface ReplayFacts {
  readonly defaults: CampaignDefaults;
  /** `--bail`: the campaign stopped at its first failing run without shrinking it. */
  readonly bail: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** The summary's `replay` section, or null when it has none (or a malformed one). */
export function replayFactsOf(s: CheckSummary): ReplayFacts | null {
  const r = s.replay;
  if (!isRecord(r) || typeof r.bail !== "boolean" || !isRecord(r.defaults)) return null;
  const d = r.defaults;
  const ok =
    typeof d.runsPerProperty === "number" &&
    (d.timeLimitMs === null || typeof d.timeLimitMs === "number") &&
    Array.isArray(d.properties) &&
    d.properties.every((p) => typeof p === "string");
  return ok ? (r as unknown as ReplayFacts) : null;
}

/** The arguments after `chainsim` that replay the campaign of `s`. */
export function replayArgs(s: CheckSummary): string[] {
  const o = s.options;
  const facts = replayFactsOf(s);
  const d = facts?.defaults;
  const args = [s.command, "--seed", String(s.seed)];
  if (o.runsPerProperty !== d?.runsPerProperty) args.push("--runs", String(o.runsPerProperty));
  // (A campaign without a time limit under a command that has one cannot be run: no flag turns it off.)
  if (o.timeLimitMs !== null && o.timeLimitMs !== (d?.timeLimitMs ?? null))
    args.push("--time-limit", formatDuration(o.timeLimitMs));
  // The properties run in the order given (it decides the units): only the default list in its order is left out.
  const sameProperties =
    d === undefined ||
    (o.properties.length === d.properties.length && o.properties.every((p, i) => p === d.properties[i]));
  if (!sameProperties) for (const p of o.properties) args.push("--property", p);
  if (o.maxCommands !== DEFAULT_MAX_COMMANDS) args.push("--max-commands", String(o.maxCommands));
  if (o.faults.length > 0) args.push("--faults", o.faults.join(","));
  if (o.shard !== "1/1") args.push("--shard", o.shard);
  if (facts?.bail === true) args.push("--bail");
  if (o.sharedPrefixes !== undefined) args.push("--prefix-share");
  return args;
}

/** `npx chainsim <replayArgs>`: every argument is a plain token (names, numbers, durations), so no quoting. */
export const replayCommand = (s: CheckSummary): string => `npx chainsim ${replayArgs(s).join(" ")}`;
