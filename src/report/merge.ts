/**
 * Merging the outputs of a sharded campaign (`chainsim check --shard i/N` on N machines) into the one run a single
 * machine would have made, as `vitest --merge-reports` does for test shards. Pure: the CLI reads the files and
 * writes the result (`chainsim report --merge <dir>...`).
 *
 * Contract: the inputs are the summaries of shards 1/N … N/N of one campaign (same format, seed, commit and
 * options apart from the shard), each exactly once, in any order; anything else is refused with one line naming
 * the file. The shards partition the campaign's units (harness/campaign.ts), so counts add up: runs, commands,
 * failures, simulated blocks and time, transition counts, region hits, and each property's units (in unit order).
 * The merged summary is the unsharded campaign's, field for field, except what measures a machine: wall times, run
 * rates, the run id and the start time (the earliest shard's). Exact for campaigns whose properties pass; a failing
 * property stops at its first failure in each shard, so its counts are those of the shards that ran, and its
 * counterexample is the one found in the lowest unit. Per-property region percentages are recovered as hit counts,
 * exactly while a shard runs at most 10,000 runs of a property (percentages are stored to 0.01).
 */
import { err, ok, type Result } from "../core/errors.js";
import type { Verdict } from "../harness/campaign.js";
import { type CheckSummary, type PropertySummary, verdictExitCode } from "../harness/summary.js";

/** One shard's summary and where it was read from (for messages). */
export interface ShardSummary {
  readonly source: string;
  readonly summary: CheckSummary;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

const VERDICT_RANK: Readonly<Record<Verdict, number>> = { passed: 0, failed: 1, crashed: 2 };

/** "i/N" → [i, N], or undefined. */
function shardOf(s: CheckSummary): [number, number] | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(s.options.shard);
  if (m === null) return undefined;
  const i = Number(m[1]);
  const n = Number(m[2]);
  return i >= 1 && i <= n ? [i, n] : undefined;
}

/** Options that must agree across shards: everything but the shard and its unit count. */
const campaignKey = (s: CheckSummary): string => {
  const { shard: _s, unitsInShard: _u, ...rest } = s.options;
  return JSON.stringify({ format: s.format, seed: s.seed, commit: s.commit, options: rest });
};

/** Region hits behind a percentage of `runs` runs (exact while runs ≤ 10,000). */
const hitsOf = (percentage: number, runs: number): number => Math.round((percentage * runs) / 100);

function mergeProperty(parts: readonly PropertySummary[]): PropertySummary {
  const first = parts[0]!;
  const runs = parts.reduce((n, p) => n + p.runs, 0);
  const units = parts.flatMap((p) => p.units).sort((a, b) => a.index - b.index);
  const failedUnit = (p: PropertySummary) =>
    Math.min(...p.units.filter((u) => u.status === "failed").map((u) => u.index), Number.POSITIVE_INFINITY);
  const withCounterexample = parts
    .filter((p) => p.counterexample !== undefined)
    .sort((a, b) => failedUnit(a) - failedUnit(b));
  const withError = parts.find((p) => p.error !== undefined);
  const wallMs = round(
    parts.reduce((t, p) => t + p.wallMs, 0),
    1,
  );
  const regions = Object.fromEntries(
    Object.keys(first.regions).map((r) => {
      const hits = parts.reduce((n, p) => n + hitsOf(p.regions[r as keyof typeof p.regions], p.runs), 0);
      return [r, runs === 0 ? 0 : Math.round((hits * 10000) / runs) / 100];
    }),
  ) as PropertySummary["regions"];
  const cx = withCounterexample[0]?.counterexample;
  return {
    property: first.property,
    text: first.text,
    passed: parts.every((p) => p.passed),
    runs,
    failures: parts.reduce((n, p) => n + p.failures, 0),
    commands: parts.reduce((n, p) => n + p.commands, 0),
    wallMs,
    runsPerS: wallMs <= 0 ? 0 : round((runs * 1000) / wallMs, 1),
    interrupted: parts.some((p) => p.interrupted),
    units,
    ...(cx === undefined ? {} : { counterexample: cx }),
    ...(withError?.error === undefined ? {} : { error: withError.error }),
    regions,
  };
}

/** The summaries of shards 1/N … N/N merged into the summary of the whole campaign (see the header). */
export function mergeSummaries(shards: readonly ShardSummary[]): Result<CheckSummary, string> {
  if (shards.length === 0) return err("nothing to merge: no shard summaries given");
  const first = shards[0]!;
  const key = campaignKey(first.summary);
  const seen = new Map<number, string>();
  let count = 0;
  for (const s of shards) {
    const at = shardOf(s.summary);
    if (at === undefined) return err(`${s.source}: shard "${s.summary.options.shard}" is not of the form i/N`);
    if (campaignKey(s.summary) !== key)
      return err(
        `${s.source}: not a shard of the campaign in ${first.source} (seed, commit or options differ: seed ${s.summary.seed} vs ${first.summary.seed})`,
      );
    const [i, n] = at;
    if (count === 0) count = n;
    else if (n !== count) return err(`${s.source}: shard ${i}/${n}, but ${first.source} is one of ${count} shards`);
    const dup = seen.get(i);
    if (dup !== undefined) return err(`${s.source}: shard ${i}/${n} is also in ${dup}`);
    seen.set(i, s.source);
  }
  const missing = Array.from({ length: count }, (_, k) => k + 1).filter((i) => !seen.has(i));
  if (missing.length > 0)
    return err(`shard${missing.length > 1 ? "s" : ""} ${missing.map((i) => `${i}/${count}`).join(", ")} missing`);

  const all = shards.map((s) => s.summary);
  const sum = (f: (s: CheckSummary) => number) => all.reduce((n, s) => n + f(s), 0);
  const verdict = all.map((s) => s.verdict).reduce((a, b) => (VERDICT_RANK[b] > VERDICT_RANK[a] ? b : a));
  const runs = sum((s) => s.runs);
  // Shards run side by side: the campaign's wall time is the longest shard's.
  const wallMs = Math.max(...all.map((s) => s.wallMs));
  const chainMs = sum((s) => s.simulated.chainMs);
  const counts = Object.fromEntries(
    Object.keys(first.summary.coverage.counts).map((id) => [id, sum((s) => s.coverage.counts[id] ?? 0)]),
  );
  const fired = Object.values(counts).filter((c) => c > 0).length;
  const total = first.summary.coverage.total;
  const regionRuns = sum((s) => s.regions.runs);
  const regionCounts = Object.fromEntries(
    Object.keys(first.summary.regions.counts).map((r) => [
      r,
      sum((s) => s.regions.counts[r as keyof typeof s.regions.counts]),
    ]),
  ) as CheckSummary["regions"]["counts"];
  const earliest = [...all].sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0))[0]!;
  const merged: CheckSummary = {
    ...first.summary,
    runId: `${earliest.runId.replace(/-s\d+of\d+$/, "")}-merged`,
    startedAt: earliest.startedAt,
    options: { ...first.summary.options, shard: "1/1", unitsInShard: sum((s) => s.options.unitsInShard) },
    verdict,
    exitCode: verdictExitCode(verdict),
    runs,
    failures: sum((s) => s.failures),
    commands: sum((s) => s.commands),
    wallMs,
    runsPerS: wallMs <= 0 ? 0 : round((runs * 1000) / wallMs, 1),
    simulated: {
      blocks: sum((s) => s.simulated.blocks),
      chainMs,
      chainMsPerWallMs: wallMs <= 0 ? 0 : round(chainMs / wallMs, 1),
    },
    properties: first.summary.properties.map((p) =>
      mergeProperty(all.map((s) => s.properties.find((q) => q.property === p.property)!)),
    ),
    coverage: {
      fired,
      total,
      ratio: total === 0 ? 0 : round(fired / total, 4),
      missing: Object.entries(counts)
        .filter(([, c]) => c === 0)
        .map(([id]) => id),
      counts,
    },
    regions: {
      ...first.summary.regions,
      runs: regionRuns,
      counts: regionCounts,
      percentages: Object.fromEntries(
        Object.entries(regionCounts).map(([r, c]) => [
          r,
          regionRuns === 0 ? 0 : Math.round((c * 10000) / regionRuns) / 100,
        ]),
      ) as CheckSummary["regions"]["percentages"],
    },
  };
  return ok(merged);
}

/** JUnit documents of the shards → one document: every shard's suites under one root with the counts summed. */
export function mergeJunit(
  docs: readonly { readonly source: string; readonly text: string }[],
): Result<string, string> {
  const root = /<testsuites\b([^>]*)>([\s\S]*)<\/testsuites>/;
  const num = (attrs: string, name: string) => Number(new RegExp(`\\b${name}="([0-9.]+)"`).exec(attrs)?.[1] ?? "0");
  let tests = 0;
  let failures = 0;
  let errors = 0;
  let time = 0;
  const bodies: string[] = [];
  for (const d of docs) {
    const m = root.exec(d.text);
    if (m === null) return err(`${d.source}: not a JUnit XML document (no <testsuites> root)`);
    const attrs = m[1]!;
    tests += num(attrs, "tests");
    failures += num(attrs, "failures");
    errors += num(attrs, "errors");
    time += num(attrs, "time");
    bodies.push(m[2]!.replace(/^\n+|\n+$/g, ""));
  }
  return ok(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="chainsim" tests="${tests}" failures="${failures}" errors="${errors}" time="${time.toFixed(3)}">`,
      ...bodies,
      "</testsuites>",
      "",
    ].join("\n"),
  );
}
