/**
 * `chainsim preflight`: the edge of src/explore/preflight.ts. Reads the profile, parses the flags, runs the checks
 * and prints them (text or `--json`). Exit 0 no finding, 1 findings, 2 bad input (one line on stderr).
 */
import type { Command } from "commander";
import { err, ok, type Result } from "../core/errors.js";
import { parseDuration } from "../core/go/duration.js";
import { formatRfc3339, parseRfc3339 } from "../core/go/time.js";
import { parseWindow } from "../explore/daily-window.js";
import { type Band, type PreflightInput, type PreflightReport, preflight } from "../explore/preflight.js";
import { withProfileChain } from "../scenario/from.js";
import { formatScenarioError, scenarioFromData } from "../scenario/index.js";
import { type Profile, parseProfile } from "../scenario/profile.js";
import { ExitCode } from "./exit.js";
import { readProfileText } from "./files.js";

export interface PreflightFlags {
  readonly profile?: string;
  readonly name?: string;
  readonly height?: string;
  readonly info?: string;
  readonly submitAt?: string;
  readonly expedited?: boolean;
  readonly safetyDelta?: string;
  readonly window?: string;
  readonly runs?: string;
  readonly seed?: string;
  readonly json?: boolean;
}

const RUNS_MAX = 10_000;

function intFlag(flag: string, v: string, min: number, max: number): Result<number, string> {
  const n = /^-?[0-9]+$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    return err(`--${flag}: "${v}" is not an integer in [${min}, ${max}]`);
  return ok(n);
}

/**
 * The profile's block-time model and gov params as a scenario `from:` the profile resolves them (the format's
 * defaults, the genesis time at `at`, a drift model without an anchor anchored at `at`).
 */
function resolvedChain(file: string, p: Profile): Result<Pick<PreflightInput, "blockTime" | "gov">, string> {
  const data = withProfileChain({ name: "preflight", binaries: { v1: {} } }, { file, profile: p });
  const s = scenarioFromData(file, data);
  if (!s.ok) return err(s.error.map(formatScenarioError)[0] ?? `${file}: invalid chain`);
  return ok({ blockTime: s.value.chain.blockTime, gov: s.value.chain.gov });
}

/** Every flag and the profile checked; one line naming what was wrong. */
export function preflightInput(f: PreflightFlags): Result<PreflightInput, string> {
  if (f.profile === undefined) return err("--profile is required");
  if (f.name === undefined) return err("--name is required");
  if (f.height === undefined) return err("--height is required");
  const text = readProfileText(f.profile);
  if (!text.ok) return err(`--profile ${f.profile}: ${text.error}`);
  const parsed = parseProfile(f.profile, text.value);
  if (!parsed.ok) return err(parsed.error.map(formatScenarioError)[0] ?? `${f.profile}: invalid profile`);
  const profile = parsed.value;
  const chain = resolvedChain(f.profile, profile);
  if (!chain.ok) return chain;
  const height = intFlag("height", f.height, -(2 ** 53 - 1), 2 ** 53 - 1);
  const runs = intFlag("runs", f.runs ?? "200", 1, RUNS_MAX);
  const seed = intFlag("seed", f.seed ?? "1", 0, 2 ** 32 - 1);
  for (const r of [height, runs, seed]) if (!r.ok) return r;
  const at = parseRfc3339(profile.at.time);
  const submit = f.submitAt === undefined ? at : parseRfc3339(f.submitAt);
  if (!submit.ok || !at.ok) return err(`--submit-at: "${f.submitAt}" is not an RFC 3339 time`);
  if (submit.value < at.value) return err(`--submit-at: ${f.submitAt} is before the profile's time ${profile.at.time}`);
  const delta = parseDuration(f.safetyDelta ?? "24h");
  if (!delta.ok || delta.value < 0) return err(`--safety-delta: "${f.safetyDelta}" is not a duration ≥ 0 (e.g. 24h)`);
  const window = f.window === undefined ? undefined : parseWindow(f.window);
  if (window !== undefined && !window.ok) return err(`--window: ${window.error}`);
  return ok({
    profile,
    ...chain.value,
    name: f.name,
    height: height.ok ? height.value : 0,
    info: f.info,
    submitAtMs: submit.value,
    expedited: f.expedited === true,
    safetyDeltaMs: delta.value,
    window: window?.ok ? window.value : undefined,
    runs: runs.ok ? runs.value : 0,
    seed: seed.ok ? seed.value : 0,
  });
}

const bandTimes = (b: Band) => ({ p5: formatRfc3339(b.p5), p50: formatRfc3339(b.p50), p95: formatRfc3339(b.p95) });

/** The report as one JSON object. */
export function preflightJson(input: PreflightInput, r: PreflightReport): unknown {
  return {
    name: input.name,
    height: input.height,
    chainId: input.profile.source.chainId,
    at: input.profile.at,
    submitAt: formatRfc3339(input.submitAtMs),
    expedited: input.expedited,
    ...(r.haltTimeMs === undefined ? {} : { haltTime: bandTimes(r.haltTimeMs) }),
    votingEnd: { time: formatRfc3339(r.votingEnd.timeMs), heights: r.votingEnd.heights },
    cancelWindowHeight: r.cancelWindowHeight,
    findings: r.findings,
  };
}

/** The report as text lines. */
export function preflightText(input: PreflightInput, r: PreflightReport): string[] {
  const p = input.profile;
  const out = [
    `preflight plan "${input.name}" at height ${input.height} on ${p.source.chainId} (profile at height ${p.at.height}, ${p.at.time}; submitted ${formatRfc3339(input.submitAtMs)}${input.expedited ? ", expedited" : ""})`,
  ];
  if (r.haltTimeMs !== undefined) {
    const t = bandTimes(r.haltTimeMs);
    out.push(`  halt time       P5 ${t.p5}  P50 ${t.p50}  P95 ${t.p95}`);
  }
  const v = r.votingEnd.heights;
  out.push(`  voting ends     ${formatRfc3339(r.votingEnd.timeMs)} at heights ${v.p5}–${v.p95} (P5–P95)`);
  out.push(`  cancel window   schedule at height ${r.cancelWindowHeight} or later`);
  if (r.findings.length === 0) {
    out.push("no findings");
    return out;
  }
  out.push(`${r.findings.length} finding${r.findings.length === 1 ? "" : "s"}:`);
  for (const f of r.findings) out.push(`  [${f.kind}] ${f.message}`, `      rule: ${f.rule}`);
  return out;
}

export function registerPreflight(
  program: Command,
  io: { out: (s: string) => void; err: (s: string) => void },
  setExit: (c: number) => void,
): void {
  program
    .command("preflight")
    .description(
      "check a proposed upgrade against an imported profile before submitting it: timing against the voting and deposit periods, the cancel window, conflicts, the info's binaries, the operators' window (exit 0 no finding, 1 findings, 2 bad input)",
    )
    .option("--profile <file>", "the profile (chainsim import)")
    .option("--name <name>", "the plan's name")
    .option("--height <h>", "the plan's height")
    .option(
      "--info <json>",
      'the plan\'s info (cosmovisor: {"binaries": {"linux/amd64": "<url>?checksum=sha256:<hex>"}})',
    )
    .option("--submit-at <time>", "when the proposal is submitted, RFC 3339 (default: the profile's time)")
    .option("--expedited", "an expedited proposal (falls back to the regular voting period when its tally fails)")
    .option("--safety-delta <d>", "margin of the cancel window", "24h")
    .option(
      "--window <HH:MM-HH:MM[@TZ]>",
      "the operators' window the P5–P95 halt band must fall in (UTC unless a time zone is named, e.g. @Europe/Berlin or @+02:00)",
    )
    .option("--runs <n>", "Monte Carlo runs of the block times", "200")
    .option("--seed <n>", "seed of the block-time draws", "1")
    .option("--json", "print the report as one JSON object")
    .action((f: PreflightFlags) => {
      const input = preflightInput(f);
      if (!input.ok) {
        io.err(input.error);
        setExit(ExitCode.usage);
        return;
      }
      const r = preflight(input.value);
      if (f.json === true) io.out(JSON.stringify(preflightJson(input.value, r)));
      else for (const line of preflightText(input.value, r)) io.out(line);
      setExit(r.findings.length === 0 ? ExitCode.ok : ExitCode.failed);
    });
}
