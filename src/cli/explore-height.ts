/**
 * `chainsim explore upgrade-height --profile FILE --target TIME [--window HH:MM-HH:MM[@TZ]] [--runs N] [--seed N]
 * [--json] [--chart FILE.svg]` (docs/block-time-model.md §3). The I/O edge: reads the profile, parses the window
 * (src/explore/daily-window.ts), writes the chart atomically. Bad input: one line on stderr, exit 2.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { unixMs } from "../core/brand.js";
import { err, ok, type Result } from "../core/errors.js";
import { parseRfc3339 } from "../core/go/time.js";
import { parseWindow } from "../explore/daily-window.js";
import { PLAN_RUNS_MAX } from "../explore/plan-height.js";
import { parseTarget, planUpgradeHeight, type UpgradeHeightRequest } from "../explore/upgrade-height.js";
import { upgradeHeightChart, upgradeHeightJson, upgradeHeightText } from "../explore/upgrade-height-render.js";
import { writeFileAtomic } from "../node/atomic-write.js";
import { formatScenarioError } from "../scenario/errors.js";
import { type Profile, parseProfile } from "../scenario/profile.js";
import { ExitCode } from "./exit.js";
import { renderSvg } from "./explore.js";

interface UpgradeHeightFlags {
  readonly profile?: string;
  readonly target?: string;
  readonly window?: string;
  readonly runs?: string;
  readonly seed?: string;
  readonly json?: boolean;
  readonly chart?: string;
}

interface Io {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
}

const PREFIX = "explore upgrade-height";
function intFlag(
  name: string,
  v: string | undefined,
  fallback: number,
  min: number,
  max: number,
): Result<number, string> {
  if (v === undefined) return ok(fallback);
  const n = Number(v);
  if (!/^[0-9]+$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max)
    return err(`--${name}: expected an integer in [${min}, ${max}], got "${v}"`);
  return ok(n);
}

function readProfile(file: string): Result<Profile, string> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    return err(`--profile: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const p = parseProfile(file, text);
  return p.ok ? p : err(`--profile: ${formatScenarioError(p.error[0] as (typeof p.error)[number])}`);
}

function request(f: UpgradeHeightFlags): Result<{ profile: Profile; req: UpgradeHeightRequest }, string> {
  if (f.profile === undefined) return err("--profile: required (a profile written by chainsim import)");
  if (f.target === undefined) return err('--target: required (an RFC 3339 time or "+48h" after the profile\'s at)');
  if (f.chart !== undefined && !f.chart.endsWith(".svg")) return err(`--chart: expected a .svg file, got "${f.chart}"`);
  const runs = intFlag("runs", f.runs, 1000, 1, PLAN_RUNS_MAX);
  if (!runs.ok) return runs;
  const seed = intFlag("seed", f.seed, 1, 0, 2 ** 31);
  if (!seed.ok) return seed;
  const window = f.window === undefined ? ok(undefined) : parseWindow(f.window);
  if (!window.ok) return err(`--window: ${window.error}`);
  const profile = readProfile(f.profile);
  if (!profile.ok) return profile;
  const at = parseRfc3339(profile.value.at.time);
  if (!at.ok) return err(`--profile: at.time: ${at.error}`);
  const target = parseTarget(f.target, unixMs(at.value));
  if (!target.ok) return err(`--target: ${target.error}`);
  return ok({
    profile: profile.value,
    req: { targetMs: target.value, runs: runs.value, seed: seed.value, window: window.value },
  });
}

export async function upgradeHeightCommand(f: UpgradeHeightFlags, io: Io): Promise<number> {
  const r = request(f);
  if (!r.ok) {
    io.err(`${PREFIX}: ${r.error}`);
    return ExitCode.usage;
  }
  const plan = planUpgradeHeight(r.value.profile, r.value.req);
  if (!plan.ok) {
    io.err(`${PREFIX}: ${plan.error}`);
    return ExitCode.usage;
  }
  if (f.chart !== undefined) {
    try {
      writeFileAtomic(f.chart, await renderSvg(upgradeHeightChart(plan.value)));
    } catch (e) {
      io.err(`${PREFIX}: --chart: cannot write ${f.chart}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
      return ExitCode.usage;
    }
  }
  io.out(f.json === true ? JSON.stringify(upgradeHeightJson(plan.value)) : upgradeHeightText(plan.value).trimEnd());
  return ExitCode.ok;
}

export function registerUpgradeHeight(explore: Command, io: Io, setExit: (c: number) => void): void {
  explore
    .command("upgrade-height")
    .description(
      "the upgrade height whose median halt time is a target, with its halt band, the naive estimate, P(window) and the cancel deadline (Monte Carlo over the profile's fitted block times)",
    )
    .showHelpAfterError(false)
    .option("--profile <file>", "a profile written by chainsim import (docs/profile-format.md)")
    .option("--target <time>", 'the target halt time: RFC 3339, or "+48h" after the profile\'s at.time')
    .option(
      "--window <HH:MM-HH:MM[@TZ]>",
      "a daily maintenance window (UTC unless a time zone is named, e.g. @Europe/Berlin or @+02:00)",
    )
    .option("--runs <n>", "Monte Carlo runs (run i uses engine seed seed + i)", "1000")
    .option("--seed <n>", "the first run's seed", "1")
    .option("--json", "machine output: one JSON document")
    .option("--chart <file.svg>", "write a chart of the halt times (SVG, rendered with vega-lite)")
    .action(async (opts: UpgradeHeightFlags) => {
      setExit(await upgradeHeightCommand(opts, io));
    });
}
