/**
 * Text and CSV views of an exploration (JSON is the object itself). Pure: same exploration, same text. The text view
 * ends with the sentence an operator acts on: "schedule at least N blocks ahead; the rule of thumb … gives M (X%
 * short/over)".
 */

import type { BlockTimeModel } from "../chain/block-time.js";
import { driftDuration } from "../chain/block-time-drift.js";
import { formatDuration } from "../core/go/duration.js";
import type { CancelWindowConfig, DelaySpec } from "./model.js";
import { meanBlockTime, minBlockTime, type RuleGap, ruleOfThumbMs } from "./rule.js";
import type { Exploration, OffsetPoint } from "./summarize.js";
import type { SweepExploration } from "./sweep.js";
import { wilson } from "./wilson.js";

const dur = (ms: number): string => formatDuration(Math.trunc(ms));
const prob = (x: number): string => x.toFixed(3);
const pct = (x: number): string => `${Math.abs(x).toFixed(2)}%`;

export function blockTimeText(m: BlockTimeModel): string {
  switch (m.kind) {
    case "fixed":
      return `fixed ${dur(m.intervalMs)}`;
    case "uniform":
      return `uniform ${dur(m.minMs)}..${dur(m.maxMs)}`;
    case "normal":
      return `normal mean ${dur(m.meanMs)} stddev ${dur(m.stddevMs)}${m.minMs > 1 ? ` min ${dur(m.minMs)}` : ""}${
        m.maxMs === undefined ? "" : ` max ${dur(m.maxMs)}`
      }`;
    case "drift":
      return `drift mean ${driftDuration(m.meanMs)} (anchored at ${m.anchor.height}, rate ${driftDuration(m.anchor.rateMs)})`;
  }
}

export const delayText = (d: DelaySpec): string =>
  d.kind === "fixed" ? dur(d.ms) : `uniform ${dur(d.minMs)}..${dur(d.maxMs)}`;

/** Left-aligns the first column and right-aligns the others unless `left` says otherwise. */
export function alignTable(rows: readonly (readonly string[])[], left: ReadonlySet<number> = new Set([0])): string[] {
  const widths: number[] = [];
  for (const r of rows) for (const [i, c] of r.entries()) widths[i] = Math.max(widths[i] ?? 0, c.length);
  return rows.map((r) =>
    r
      .map((c, i) => (left.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd(),
  );
}

function header(c: CancelWindowConfig, title: string): string[] {
  const cancelVoting = c.expedited ? c.expeditedVotingPeriodMs : c.votingPeriodMs;
  const mean = meanBlockTime(c.blockTime);
  const min = minBlockTime(c.blockTime);
  const when =
    c.strategy === "after-pass"
      ? `the cancel is submitted ${dur(c.safetyDeltaMs)} (safety delta) after the block that executed the upgrade`
      : "the cancel is submitted in the first block after the upgrade entered voting";
  return [
    `${title}: seed ${c.seed}, ${c.runs} runs, strategy ${c.strategy}`,
    `  gov: deposit period ${dur(c.depositPeriodMs)}, voting period ${dur(c.votingPeriodMs)}; cancel ${
      c.expedited ? "expedited" : "regular"
    } (voting ${dur(cancelVoting)})`,
    `  blocks: ${blockTimeText(c.blockTime)} (mean ${dur(mean.ms)}, min ${dur(min.ms)}: ${min.basis})`,
    `  deposit reaches the minimum after: upgrade ${delayText(c.depositDelay)}, cancel ${delayText(c.cancelDepositDelay)}`,
    `  upgrade submitted in block ${c.submitHeight} (offset = plan height - ${c.submitHeight}); ${when}`,
    `  rule of thumb 2(D+V)+S = ${dur(ruleOfThumbMs(c))}`,
  ];
}

const blocks = (n: number): string => `${n} block${Math.abs(n) === 1 ? "" : "s"}`;

const gapText = (g: RuleGap): string =>
  g.verdict === "exact" ? "exact" : `${pct(g.gapPercent)} ${g.verdict}, ${blocks(Math.abs(g.gapBlocks))}`;

function pointRows(points: readonly OffsetPoint[]): string[] {
  return alignTable(
    [
      ["offset", "time@mean", "landed", "P", "95% CI", "note"],
      ...points.map((p) => [
        String(p.offset),
        dur(p.timeAtMeanMs),
        `${p.successes}/${p.trials}`,
        prob(p.p),
        `[${prob(p.lo)}, ${prob(p.hi)}]`,
        p.marks.join(" "),
      ]),
    ],
    new Set([5]),
  ).map((l) => `  ${l}`);
}

function outcomeText(x: Exploration): string {
  return Object.entries(x.outcomes)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
}

/** The findings of one exploration, ending with the recommendation. */
function findings(x: Exploration): string[] {
  const out: string[] = [];
  const n = x.config.runs;
  const conf = x.safe.confidence;
  out.push(`  outcomes with the plan at offset ${x.range.max}: ${outcomeText(x)}`);
  const s = x.landingStats;
  if (s !== null)
    out.push(
      `  landing offsets: min ${s.min}, mean ${s.mean.toFixed(1)}, max ${s.max}, stddev ${s.stddev.toFixed(1)} blocks`,
    );
  const lb = x.safe.byLowerBound;
  const pt = x.safe.byPoint;
  if (lb !== null)
    out.push(
      `  safe offset (95% lower bound >= ${conf}): ${lb.offset} blocks (${dur(lb.timeAtMeanMs)} at the mean block time), ${lb.successes}/${n} landed, CI [${prob(lb.lo)}, ${prob(lb.hi)}]`,
    );
  else
    out.push(
      `  no offset in ${x.range.min}..${x.range.max} has a 95% lower bound >= ${conf}${
        n < x.safe.runsNeededForLowerBound
          ? ` (with ${n} runs it cannot exceed ${prob(wilson(n, n).lo)}; that needs >= ${x.safe.runsNeededForLowerBound} runs, all landing)`
          : ""
      }`,
    );
  if (pt !== null && (lb === null || pt.offset !== lb.offset))
    out.push(
      `  safe offset (point estimate >= ${conf}): ${pt.offset} blocks (${dur(pt.timeAtMeanMs)} at the mean block time), ${pt.successes}/${n} landed, CI [${prob(pt.lo)}, ${prob(pt.hi)}]`,
    );
  const v = x.verification;
  if (v !== null)
    out.push(
      `  boundary ${v.ok ? "verified" : "NOT CONFIRMED"} on the engine: trial ${v.trial} (seed ${v.seed}) re-run with the plan at ${v.at.offset}: ${v.at.outcome}${
        v.before === null ? "" : `; at ${v.before.offset}: ${v.before.outcome}`
      }`,
    );
  for (const a of x.anomalies) out.push(`  UNEXPECTED ${a}`);
  const r = x.recommendation;
  if (r === null) {
    const first = x.outcomes["cancel-before-upgrade"];
    if (first > 0)
      out.push(
        `  in ${first} of ${n} runs the cancel's voting ended before the upgrade's: it executed first as a no-op and the upgrade stood, whatever the plan height (docs/fidelity.md §3.11)`,
      );
    out.push(
      `=> no offset in ${x.range.min}..${x.range.max} lets the cancel land with P >= ${conf}; the rule of thumb gives ${x.ruleOfThumb.mean.blocks} blocks (mean block time) or ${x.ruleOfThumb.min.blocks} (minimum)`,
    );
    return out;
  }
  const [mean, min] = [r.gaps.find((g) => g.conversion === "mean")!, r.gaps.find((g) => g.conversion === "min")!];
  const basis = r.basis === "lower-bound" ? `95% lower bound >= ${conf}` : `P >= ${conf}, all ${n} runs landing`;
  out.push(
    `=> schedule at least ${r.offset} blocks ahead (${basis}); the rule of thumb with the mean block time (${dur(mean.intervalMs)}) gives ${mean.blocks} (${gapText(mean)}), with the minimum block time (${dur(min.intervalMs)}) ${min.blocks} (${gapText(min)}).`,
  );
  return out;
}

export function explorationText(x: Exploration): string[] {
  return [...header(x.config, "chainsim explore cancel-window"), "", ...pointRows(x.points), "", ...findings(x)];
}

export function explorationCsv(x: Exploration): string[] {
  return [
    "offset,time_at_mean_ms,landed,runs,p,ci_lo,ci_hi,marks",
    ...x.points.map((p) =>
      [p.offset, p.timeAtMeanMs, p.successes, p.trials, p.p, p.lo, p.hi, p.marks.join(" ")].join(","),
    ),
  ];
}

/** A swept value as its axis shows it. */
export const sweepValueText = (s: SweepExploration, i: number): string => dur(s.valuesMs[i]!);

export function sweepText(s: SweepExploration): string[] {
  const first = s.series[0]!;
  const out = [...header(s.base, `chainsim explore cancel-window (sweep offset x ${s.axis})`)];
  out.push(
    `  swept: ${s.axis} = ${s.valuesMs.map((_, i) => sweepValueText(s, i)).join(", ")}${
      s.axis === "spread"
        ? " (+/- around the mean for uniform blocks, the stddev for normal ones)"
        : " (both proposals)"
    }`,
    "",
  );
  out.push(
    ...alignTable(
      [
        [s.axis, "block time", "safe offset", "basis", "rule@mean", "gap", "rule@min", "gap", "boundary"],
        ...s.series.map((x, i) => {
          const r = x.recommendation;
          const mean = r?.gaps.find((g) => g.conversion === "mean");
          const min = r?.gaps.find((g) => g.conversion === "min");
          return [
            sweepValueText(s, i),
            blockTimeText(x.config.blockTime),
            r === null ? "none" : String(r.offset),
            r === null ? "-" : r.basis === "lower-bound" ? "lower" : "point",
            String(x.ruleOfThumb.mean.blocks),
            mean === undefined ? "-" : `${mean.gapBlocks} (${mean.gapPercent.toFixed(2)}%)`,
            String(x.ruleOfThumb.min.blocks),
            min === undefined ? "-" : `${min.gapBlocks} (${min.gapPercent.toFixed(2)}%)`,
            x.verification === null ? "-" : x.verification.ok ? "verified" : "NOT CONFIRMED",
          ];
        }),
      ],
      new Set([0, 1, 3, 8]),
    ).map((l) => `  ${l}`),
  );
  out.push("", `  P(cancel lands) by offset (rows) and ${s.axis} (columns), ${first.config.runs} runs each`);
  out.push(
    ...alignTable([
      ["offset", ...s.valuesMs.map((_, i) => sweepValueText(s, i))],
      ...s.offsets.map((o, j) => [String(o), ...s.series.map((x) => prob(x.points[j]!.p))]),
    ]).map((l) => `  ${l}`),
  );
  for (const [i, x] of s.series.entries())
    for (const a of x.anomalies) out.push(`  UNEXPECTED (${sweepValueText(s, i)}) ${a}`);
  return out;
}

export function sweepCsv(s: SweepExploration): string[] {
  return [
    "axis,value_ms,offset,time_at_mean_ms,landed,runs,p,ci_lo,ci_hi",
    ...s.series.flatMap((x, i) =>
      x.points.map((p) =>
        [s.axis, s.valuesMs[i], p.offset, p.timeAtMeanMs, p.successes, p.trials, p.p, p.lo, p.hi].join(","),
      ),
    ),
  ];
}
