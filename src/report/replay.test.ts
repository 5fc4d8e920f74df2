import { describe, expect, it } from "vitest";
import { sampleSummary } from "../../test/kit/report.js";
import type { CheckSummary } from "../harness/summary.js";
import { replayArgs, replayCommand } from "./replay.js";

/** The property names of these summaries (the report does not know the registry: the summary records them). */
const PROPERTY_NAMES = ["run-once", "correct-height", "model-agreement", "liveness"];

/**
 * A summary of `command` with `options` changed and the given command defaults recorded (null: no `replay` section,
 * as summaries written before it).
 */
function summary(
  command: string,
  options: Partial<CheckSummary["options"]>,
  defaults: { runsPerProperty: number; timeLimitMs: number | null } | null,
  bail = false,
): CheckSummary {
  const s = sampleSummary();
  const base = { ...s.options, properties: [...PROPERTY_NAMES], runsPerProperty: 100, timeLimitMs: null };
  return {
    ...s,
    command,
    seed: 7,
    options: { ...base, ...options },
    replay: defaults === null ? undefined : { defaults: { ...defaults, properties: PROPERTY_NAMES }, bail },
  };
}

const CHECK = { runsPerProperty: 100, timeLimitMs: null };
const ALL = { runsPerProperty: 300, timeLimitMs: 100_000 };

describe("replayCommand", () => {
  it("is the command and the seed alone when every other option is the command's default", () => {
    expect(replayCommand(summary("check", {}, CHECK))).toBe("npx chainsim check --seed 7");
    expect(replayCommand(summary("all", { runsPerProperty: 300, timeLimitMs: 100_000 }, ALL))).toBe(
      "npx chainsim all --seed 7",
    );
  });

  it("carries every option that shaped the campaign, each property once, in a fixed order", () => {
    const s = summary(
      "check",
      {
        runsPerProperty: 40,
        timeLimitMs: 90_000,
        properties: ["run-once", "model-agreement"],
        maxCommands: 12,
        faults: ["ignore-cancel", "off-by-one-due-height"] as CheckSummary["options"]["faults"],
        shard: "2/3",
        sharedPrefixes: { families: 8, prefixCommands: 12, extensionPercent: 75 },
      },
      CHECK,
      true,
    );
    expect(replayArgs(s)).toEqual([
      "check",
      "--seed",
      "7",
      "--runs",
      "40",
      "--time-limit",
      "1m30s",
      "--property",
      "run-once",
      "--property",
      "model-agreement",
      "--max-commands",
      "12",
      "--faults",
      "ignore-cancel,off-by-one-due-height",
      "--shard",
      "2/3",
      "--bail",
      "--prefix-share",
    ]);
  });

  it("names every property when all of them ran in another order (the order decides the units)", () => {
    const reversed = [...PROPERTY_NAMES].reverse();
    expect(replayArgs(summary("check", { properties: reversed }, CHECK)).filter((a) => a !== "--property")).toEqual([
      "check",
      "--seed",
      "7",
      ...reversed,
    ]);
  });

  it("compares with the defaults of the command that ran: all's 300 runs and 100s are check's flags", () => {
    const s = summary("all", { runsPerProperty: 100, timeLimitMs: null }, ALL);
    expect(replayCommand(s)).toBe("npx chainsim all --seed 7 --runs 100");
    expect(replayCommand(summary("check", { runsPerProperty: 300, timeLimitMs: 100_000 }, CHECK))).toBe(
      "npx chainsim check --seed 7 --runs 300 --time-limit 1m40s",
    );
  });

  it("spells out --runs and --time-limit (and no --property) when the summary does not record the command's defaults", () => {
    expect(replayCommand(summary("all", { runsPerProperty: 300, timeLimitMs: 100_000 }, null))).toBe(
      "npx chainsim all --seed 7 --runs 300 --time-limit 1m40s",
    );
    expect(replayCommand(summary("check", {}, null))).toBe("npx chainsim check --seed 7 --runs 100");
  });
});
