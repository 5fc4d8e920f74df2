import { PROPERTY_NAMES } from "../../properties/index.js";
import { formatDuration } from "../core/go/duration.js";
import type { CheckSummary } from "../harness/summary.js";
import {
  BLOCK_MS,
  DEPOSIT_PERIOD_MS,
  EXPEDITED_VOTING_PERIOD_MS,
  MIN_DEPOSIT,
  VALIDATORS,
  VOTING_PERIOD_MS,
} from "../harness/world.js";
import type { CheckConfig } from "./check-options.js";

/**
 * The first line of a campaign: the seed, the commit and every option the
 * campaign derives from them, so that the line alone reproduces the run.
 */
export function headerLine(command: string, c: CheckConfig, commit: string, unitsTotal: number): string {
  const fields = [
    `seed=${c.seed}${c.seedDrawn ? " (drawn)" : ""}`,
    `commit=${commit}`,
    `runs/property=${c.runsPerProperty}`,
    `units=${unitsTotal} of <=${c.runsPerUnit} runs`,
    `shard=${c.shard.index}/${c.shard.count}`,
    `time-limit=${c.timeLimitMs === undefined ? "none" : formatDuration(c.timeLimitMs)}`,
    `max-commands=${c.maxCommands}`,
    `faults=${c.faults.length === 0 ? "none" : c.faults.join(",")}`,
    ...(c.prefixShare ? ["prefix-share=on"] : []),
    `properties=${c.properties.length === PROPERTY_NAMES.length ? "all" : c.properties.join(",")}`,
    `world=${VALIDATORS.length}x100 power, block ${formatDuration(BLOCK_MS)}, deposit ${formatDuration(DEPOSIT_PERIOD_MS)}, voting ${formatDuration(VOTING_PERIOD_MS)}, expedited ${formatDuration(EXPEDITED_VOTING_PERIOD_MS)}, min deposit ${MIN_DEPOSIT}stake`,
  ];
  return `chainsim ${command} ${fields.join(" ")}`;
}

const pad = (s: string, n: number, right = false) => (right ? s.padStart(n) : s.padEnd(n));

/** The per-property table, coverage, statistics and failures, as lines. */
export function summaryLines(s: CheckSummary): string[] {
  const nameW = Math.max(8, ...s.properties.map((p) => p.property.length));
  const out: string[] = [];
  out.push(
    `${pad("property", nameW)}  ${pad("runs", 6, true)}  ${pad("fail", 4, true)}  ${pad("commands", 8, true)}  ${pad("wall ms", 9, true)}  ${pad("runs/s", 7, true)}  property`,
  );
  for (const p of s.properties) {
    const mark = p.error !== undefined ? " CRASH" : p.passed ? (p.interrupted ? " (interrupted)" : "") : " FAIL";
    out.push(
      `${pad(p.property, nameW)}  ${pad(String(p.runs), 6, true)}  ${pad(String(p.failures), 4, true)}  ${pad(String(p.commands), 8, true)}  ${pad(p.wallMs.toFixed(0), 9, true)}  ${pad(p.runsPerS.toFixed(1), 7, true)}  ${p.text}${mark}`,
    );
  }
  out.push(
    `${pad("total", nameW)}  ${pad(String(s.runs), 6, true)}  ${pad(String(s.failures), 4, true)}  ${pad(String(s.commands), 8, true)}  ${pad(s.wallMs.toFixed(0), 9, true)}  ${pad(s.runsPerS.toFixed(1), 7, true)}`,
  );
  out.push("");
  out.push(
    `oracle transition coverage: ${s.coverage.fired}/${s.coverage.total} (${(s.coverage.ratio * 100).toFixed(1)}%)` +
      (s.coverage.missing.length === 0 ? "" : `; never fired: ${s.coverage.missing.join(", ")}`),
  );
  const days = s.simulated.chainMs / 86_400_000;
  out.push(
    `simulated: ${s.simulated.blocks} blocks, ${days.toFixed(1)} chain-days in ${(s.wallMs / 1000).toFixed(1)} s wall (${s.simulated.chainMsPerWallMs.toFixed(0)}x real time)`,
  );
  if (s.generation !== null) {
    const g = s.generation;
    const cls = Object.entries(g.classes).map(([k, v]) => `${k} ${v}%`);
    const len = Object.entries(g.lengths).map(([k, v]) => `${k}: ${v}%`);
    out.push(`generation (${g.samples} sampled sequences): ${cls.join(", ")}`);
    out.push(`  lengths: ${len.join(", ")}`);
  }
  const reg = Object.entries(s.regions.percentages).map(([k, v]) => `${k} ${v}%`);
  out.push(`regions reached (${s.regions.runs} runs): ${reg.join(", ")}`);
  for (const p of s.properties) {
    if (p.error !== undefined) {
      out.push("");
      out.push(`CRASH ${p.property}: the harness failed (a chainsim bug, not a property violation)`);
      out.push(...p.error.split("\n").map((l) => `  ${l}`));
    }
    const cx = p.counterexample;
    if (cx === undefined) continue;
    out.push("");
    out.push(`FAIL ${p.property}: ${p.text}`);
    out.push(`  violation: ${cx.violation}`);
    out.push(`  shrunk commands (${cx.commands.length}, after ${cx.numShrinks} shrinks):`);
    for (const c of cx.commands) out.push(`    ${c}`);
    const sidecars = Object.entries(cx.sidecars);
    if (sidecars.length > 0)
      out.push(`  sidecars: ${sidecars.map(([n, d]) => `${n} after ${formatDuration(d)}`).join(", ")}`);
    out.push(`  fast-check seed ${cx.seed}, path "${cx.path}"`);
    if (cx.file !== null) out.push(`  regression scenario: ${cx.file} (replay: npx chainsim run ${cx.file})`);
  }
  return out;
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * The campaign's last line: the verdict, and, when the time limit cut it short, how far it got: `PASSED, interrupted
 * at 1,956 of 8,400 runs (time limit 1m40s): 12 properties; report <path>`. Else `PASSED: 8400 runs of 12
 * properties; report <path>`. The planned runs are those of the shard's units.
 */
export function verdictLine(s: CheckSummary, report: string): string {
  const verdict = s.verdict.toUpperCase();
  const n = s.properties.length;
  if (!s.properties.some((p) => p.interrupted))
    return `${verdict}: ${s.runs} runs of ${n} properties; report ${report}`;
  const planned = s.properties.reduce((sum, p) => sum + p.units.reduce((u, x) => u + x.numRuns, 0), 0);
  const limit = s.options.timeLimitMs === null ? "" : ` (time limit ${formatDuration(s.options.timeLimitMs)})`;
  return `${verdict}, interrupted at ${count(s.runs)} of ${count(planned)} runs${limit}: ${n} properties; report ${report}`;
}
