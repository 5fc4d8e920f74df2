/**
 * The report page: data and pre-rendered SVG charts → one self-contained HTML document (inline CSS and SVG, no
 * scripts, no external resources). Every section is always present (with a note when it has nothing to show), so a
 * reader and the browser test can rely on its anchors: #summary, #model, #scenarios, #counterexamples, #exploration.
 */

import { formatDuration } from "../core/go/duration.js";
import { escapeMarkup } from "../core/markup.js";
import { explorationText, sweepText } from "../explore/render.js";
import type { PropertySummary } from "../harness/summary.js";
import { failureText } from "../scenario/failure.js";
import { renderTimeline } from "../scenario/timeline.js";
import { countText, coverageCounts, thousands } from "./model-chart.js";
import { mutationSection } from "./mutation-section.js";
import { replayCommand } from "./replay.js";
import { REPORT_CSS } from "./style.js";
import { savedTraceEvents } from "./trace-read.js";
import type { ReportInput, ScenarioRecord } from "./types.js";

export const SECTION_IDS = ["summary", "model", "scenarios", "counterexamples", "exploration", "mutation"] as const;

/** One scenario as the page shows it: its record, anchor id and whether it failed. */
export interface ScenarioView {
  readonly record: ScenarioRecord;
  readonly anchor: string;
  readonly failed: boolean;
}

/** Chart keys (the renderer's SVG for each). */
export const chartKey = {
  model: "model",
  regions: "regions",
  properties: "properties",
  exploration: "exploration",
  mutation: "mutation",
  scenario: (anchor: string) => anchor,
} as const;

/** `scenario-<name>` with unsafe characters replaced; a repeated name gets `-2`, `-3`, ... */
export function scenarioAnchors(names: readonly string[]): string[] {
  const used = new Map<string, number>();
  return names.map((n) => {
    const base = `scenario-${n.replace(/[^A-Za-z0-9_-]+/g, "-")}`;
    const k = (used.get(base) ?? 0) + 1;
    used.set(base, k);
    return k === 1 ? base : `${base}-${k}`;
  });
}

/** Failed scenarios first (known regressions after real failures), then the rest, each group in library order. */
export function scenarioViews(records: readonly ScenarioRecord[]): ScenarioView[] {
  const anchors = scenarioAnchors(records.map((r) => r.report.name));
  const views = records.map((record, i) => ({ record, anchor: anchors[i]!, failed: !record.report.passed }));
  const rank = (v: ScenarioView) => (!v.failed ? 2 : v.record.knownRegression === true ? 1 : 0);
  return views
    .map((v, i) => ({ v, i }))
    .sort((a, b) => rank(a.v) - rank(b.v) || a.i - b.i)
    .map((x) => x.v);
}

/** Simulated chain time, rounded: "3.2 days", "7.4 h", "12 min". */
export function chainTime(ms: number): string {
  if (ms >= 2 * 86_400_000) return `${(ms / 86_400_000).toFixed(1)} days`;
  if (ms >= 3_600_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  return `${Math.round(ms / 60_000)} min`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
const card = (k: string, v: string, cls = "") =>
  `<div class="card"><div class="k">${escapeMarkup(k)}</div><div class="v ${cls}">${v}</div></div>`;
const chart = (svg: string | undefined) => (svg === undefined ? "" : `<div class="chart">${svg}</div>`);
const badge = (passed: boolean, text = passed ? "passed" : "failed") =>
  `<span class="badge ${passed ? "passed" : "failed"}">${escapeMarkup(text)}</span>`;

function summarySection(
  input: ReportInput,
  views: readonly ScenarioView[] | null,
  svg: (k: string) => string | undefined,
): string {
  const s = input.summary;
  const faults = s.options.faults.join(",");
  const interrupted = s.properties.some((p) => p.interrupted);
  const sc = views === null ? null : { total: views.length, failed: views.filter((v) => v.failed).length };
  const out: string[] = [
    `<section id="summary"><h2>Summary</h2>`,
    `<div class="cards">`,
    card("verdict", escapeMarkup(s.verdict.toUpperCase()), s.verdict),
    card(
      "scenarios",
      sc === null ? "–" : `${sc.total - sc.failed} / ${sc.total} passed`,
      sc === null ? "" : sc.failed > 0 ? "failed" : "passed",
    ),
    card(
      "properties",
      `${s.properties.filter((p) => p.passed).length} / ${s.properties.length} passed`,
      s.failures > 0 ? "failed" : "passed",
    ),
    card("property runs", thousands(s.runs)),
    card("seed", `<code>${s.seed}</code>`),
    card("commit", `<code>${escapeMarkup(s.commit)}</code>`),
    card("wall time", seconds(s.wallMs)),
    card("simulated", `${thousands(s.simulated.blocks)} blocks, ${chainTime(s.simulated.chainMs)}`),
    card(
      "transition coverage",
      `${s.coverage.fired} / ${s.coverage.total}`,
      s.coverage.fired === s.coverage.total ? "passed" : "",
    ),
    `</div>`,
    [
      `<p class="note">Run <code>${escapeMarkup(s.runId)}</code> of <code>chainsim ${escapeMarkup(s.command)}</code>, started ${escapeMarkup(s.startedAt)}; `,
      `${s.options.runsPerProperty} runs per property, shard ${escapeMarkup(s.options.shard)}, at most ${s.options.maxCommands} commands per run`,
      s.options.timeLimitMs === null ? "" : `, time limit ${escapeMarkup(formatDuration(s.options.timeLimitMs))}`,
      faults === "" ? "" : `, planted faults <code>${escapeMarkup(faults)}</code>`,
      `. Replay the campaign with <code>${escapeMarkup(replayCommand(s))}</code>`,
      interrupted ? " (the time limit cut this one short, so a replay may run further)" : "",
      `.</p>`,
    ].join(""),
  ];
  out.push(`<h3>Scenarios</h3>`);
  if (views === null) out.push(`<p class="note">This run replayed no scenarios (<code>chainsim check</code>).</p>`);
  else {
    out.push(
      `<p class="note">${views.length - (sc?.failed ?? 0)} passed, ${sc?.failed ?? 0} failed. Each links to its timeline.</p>`,
      `<div class="chips">`,
      ...views.map(
        (v) =>
          `<a class="chip${v.failed ? " failed" : ""}" href="#${v.anchor}">${escapeMarkup(v.record.report.name)}${v.record.knownRegression === true ? " (known regression)" : ""}</a>`,
      ),
      `</div>`,
    );
  }
  out.push(
    `<h3>Properties</h3>`,
    `<p class="note">Campaign seed <code>${s.seed}</code> (each work unit's fast-check seed derives from it); time is wall-clock time.</p>`,
    `<table><thead><tr><th>property</th><th>result</th><th class="n">runs</th><th class="n">failures</th><th class="n">commands</th><th class="n">time</th><th class="n">runs/s</th><th>checks that</th></tr></thead><tbody>`,
    ...s.properties.map((p) => propertyRow(p)),
    `</tbody></table>`,
    `<div class="grid2"><div><h3>Runs per property</h3>${chart(svg(chartKey.properties))}</div>`,
    `<div><h3>Runtime regions reached</h3>${chart(svg(chartKey.regions))}</div></div>`,
  );
  if (s.generation !== null) {
    const g = s.generation;
    out.push(
      `<h3>Generated sequences</h3>`,
      `<p class="note">${g.samples} command sequences sampled with seed ${g.seed}: the share with each feature, and their lengths.</p>`,
      `<table class="compact"><tbody>`,
      ...Object.entries(g.classes).map(([k, v]) => `<tr><td>${escapeMarkup(k)}</td><td class="n">${v}%</td></tr>`),
      `<tr><td>lengths</td><td class="n">${escapeMarkup(
        Object.entries(g.lengths)
          .map(([k, v]) => `${k}: ${v}%`)
          .join(", "),
      )}</td></tr>`,
      `</tbody></table>`,
    );
  }
  out.push(`</section>`);
  return out.join("\n");
}

function propertyRow(p: PropertySummary): string {
  const result = p.error !== undefined ? "crashed" : p.passed ? "passed" : "failed";
  const link = p.counterexample === undefined ? "" : ` <a href="#cx-${escapeMarkup(p.property)}">counterexample</a>`;
  return `<tr class="${result === "passed" ? "" : "failed"}"><td class="name"><code>${escapeMarkup(p.property)}</code></td><td><span class="badge ${result}">${result}</span>${p.interrupted ? ' <span class="badge">time limit</span>' : ""}${link}</td><td class="n">${thousands(p.runs)}</td><td class="n">${p.failures}</td><td class="n">${thousands(p.commands)}</td><td class="n">${seconds(p.wallMs)}</td><td class="n">${p.runsPerS}</td><td class="text">${escapeMarkup(p.text)}</td></tr>`;
}

function modelSection(input: ReportInput, svg: (k: string) => string | undefined): string {
  const c = input.summary.coverage;
  const counts = coverageCounts(c, input.transitions);
  return [
    `<section id="model"><h2>The model</h2>`,
    `<p class="note">The xstate statechart of the upgrade lifecycle (<code>models/upgrade-machine.ts</code>): two parallel regions, the plan slot and the chain's progress, and node lifecycle events at the root. Arrows change state; loops re-enter it; lines inside a box leave it unchanged. Each transition shows how many times it fired over the campaign's runs; red dashed ones never fired.</p>`,
    chart(svg(chartKey.model)),
    `<p>${c.fired} of ${c.total} transitions fired (${(c.ratio * 100).toFixed(1)}%)${
      c.missing.length === 0
        ? "."
        : `; never fired: ${c.missing.map((m) => `<code>${escapeMarkup(m)}</code>`).join(", ")}.`
    }</p>`,
    `<details><summary>counts per transition id</summary><table><thead><tr><th>transition</th><th class="n">fired</th></tr></thead><tbody>`,
    ...input.transitions.map(
      (t) =>
        `<tr><td><code>${escapeMarkup(t.id)}</code></td><td class="n">${escapeMarkup(countText(t.id in counts ? counts[t.id]! : 0))}</td></tr>`,
    ),
    `</tbody></table></details>`,
    `</section>`,
  ].join("\n");
}

function scenarioArticle(v: ScenarioView, svg: string | undefined): string {
  const r = v.record.report;
  const labels = new Map(r.proposals.filter((p) => p.label !== null).map((p) => [String(p.id), p.label!]));
  const applied = Object.entries(r.final.applied).map(([n, h]) => `${n} at ${h}`);
  const facts = [
    `<code>${escapeMarkup(r.file)}</code>`,
    `seed ${r.seed}`,
    `final height ${r.final.height} at ${escapeMarkup(r.final.time)}`,
    `${r.halts.length} halt(s)`,
    applied.length === 0 ? "no upgrade applied" : `applied: ${escapeMarkup(applied.join(", "))}`,
    r.final.halted === null ? "" : `halted at ${r.final.halted.height}: ${escapeMarkup(r.final.halted.reason)}`,
    `${r.wallMs.toFixed(1)} ms`,
  ].filter((f) => f !== "");
  const status = !v.failed
    ? badge(true)
    : v.record.knownRegression === true
      ? `<span class="badge known">known regression</span>`
      : badge(false);
  return [
    `<article class="scenario" id="${v.anchor}">`,
    `<h3>${escapeMarkup(r.name)} ${status}</h3>`,
    `<div class="facts">${facts.join(" · ")}</div>`,
    r.failures.length === 0
      ? ""
      : `<ul class="failures">${r.failures.map((f) => `<li>${escapeMarkup(failureText(f))}</li>`).join("")}</ul>`,
    chart(svg),
    `<details><summary>text timeline (<code>npx chainsim run ${escapeMarkup(r.file)}</code>)</summary><pre>${escapeMarkup(
      renderTimeline(savedTraceEvents(v.record.trace), labels).join("\n"),
    )}</pre></details>`,
    `</article>`,
  ].join("\n");
}

function scenariosSection(views: readonly ScenarioView[] | null, svg: (k: string) => string | undefined): string {
  const head = [
    `<section id="scenarios"><h2>Scenario timelines</h2>`,
    `<p class="note">Per scenario: the committed height against simulated time with the plan height (dashed) and the upgrade applied (diamond); each proposal's deposit and voting periods with its final status; per node the halts, stops, starts and sidecar swaps, and the chain's stalls.</p>`,
  ];
  if (views === null || views.length === 0)
    return [...head, `<p class="note">No scenarios were replayed in this run.</p>`, `</section>`].join("\n");
  return [...head, ...views.map((v) => scenarioArticle(v, svg(chartKey.scenario(v.anchor)))), `</section>`].join("\n");
}

function counterexamplesSection(input: ReportInput): string {
  const failing = input.summary.properties.filter((p) => p.counterexample !== undefined || p.error !== undefined);
  const out = [`<section id="counterexamples"><h2>Counterexamples</h2>`];
  if (failing.length === 0) out.push(`<p class="note">None: no property failed in this run.</p>`);
  for (const p of failing) {
    const cx = p.counterexample;
    out.push(
      `<div class="cx" id="cx-${escapeMarkup(p.property)}"><h3>${escapeMarkup(p.property)}</h3>`,
      `<p class="note">${escapeMarkup(p.text)}</p>`,
    );
    if (p.error !== undefined) out.push(`<p>The harness crashed:</p><pre>${escapeMarkup(p.error)}</pre>`);
    if (cx !== undefined) {
      const sidecars = Object.entries(cx.sidecars).map(([n, ms]) => `${n} after ${formatDuration(ms)}`);
      out.push(
        `<p><strong>Violation:</strong> ${escapeMarkup(cx.violation)}</p>`,
        `<p>Shrunk to ${cx.commands.length} step(s) after ${cx.numShrinks} shrink(s)${
          sidecars.length === 0 ? ", no sidecars" : `, sidecars: ${escapeMarkup(sidecars.join(", "))}`
        }:</p>`,
        `<ol class="steps">${cx.commands.map((c) => `<li>${escapeMarkup(c)}</li>`).join("")}</ol>`,
        cx.file === null
          ? `<p class="note">No regression scenario was written.</p>`
          : `<p>Replay it:</p><pre>npx chainsim run ${escapeMarkup(cx.file)}</pre>`,
        `<p class="note">fast-check seed ${cx.seed}, path <code>${escapeMarkup(cx.path)}</code></p>`,
      );
    }
    out.push(`</div>`);
  }
  out.push(`</section>`);
  return out.join("\n");
}

function explorationSection(input: ReportInput, svg: (k: string) => string | undefined): string {
  const x = input.exploration;
  const out = [`<section id="exploration"><h2>Cancel window</h2>`];
  if (x === null) {
    out.push(
      `<p class="note">No exploration yet. <code>npx chainsim explore cancel-window</code> writes one to <code>reports/explore/latest.json</code>; the next report shows its charts.</p>`,
    );
  } else {
    const d = x.data;
    const text = d.kind === "cancel-window" ? explorationText(d) : sweepText(d);
    out.push(
      `<p class="note">The last <code>chainsim explore cancel-window</code> when this report was built (kept in <code>${escapeMarkup(x.source)}</code>): how far ahead must a plan be scheduled so that a cancel proposal submitted after it still executes before the plan's height?</p>`,
      d.kind === "cancel-window" && d.recommendation !== null
        ? `<p><strong>Schedule at least ${thousands(d.recommendation.offset)} blocks ahead</strong> (${formatDuration(d.recommendation.timeAtMeanMs)} at the mean block time); the rule of thumb gives ${thousands(d.ruleOfThumb.mean.blocks)} with the mean block time and ${thousands(d.ruleOfThumb.min.blocks)} with the minimum.</p>`
        : "",
      chart(svg(chartKey.exploration)),
      `<details><summary>the exploration as text</summary><pre>${escapeMarkup(text.join("\n"))}</pre></details>`,
    );
  }
  out.push(`</section>`);
  return out.join("\n");
}

/** The whole page. `svg(key)` returns the inline SVG of a chart (chartKey), undefined when it has none. */
export function reportPage(
  input: ReportInput,
  views: readonly ScenarioView[] | null,
  svg: (key: string) => string | undefined,
): string {
  const s = input.summary;
  const title = `chainsim report ${s.runId}`;
  return [
    `<!DOCTYPE html>`,
    `<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeMarkup(title)}</title><style>${REPORT_CSS}</style></head><body>`,
    `<header><h1>chainsim report ${badge(s.verdict === "passed", s.verdict)}</h1>`,
    `<div class="meta">run ${escapeMarkup(s.runId)} · seed ${s.seed} · commit ${escapeMarkup(s.commit)} · ${escapeMarkup(s.startedAt)}</div></header>`,
    `<nav>${SECTION_IDS.map((id) => `<a href="#${id}">${{ summary: "Summary", model: "Model", scenarios: "Scenarios", counterexamples: "Counterexamples", exploration: "Cancel window", mutation: "Mutation score" }[id]}</a>`).join("")}</nav>`,
    `<main>`,
    summarySection(input, views, svg),
    modelSection(input, svg),
    scenariosSection(views, svg),
    counterexamplesSection(input),
    explorationSection(input, svg),
    mutationSection(input.mutation ?? null, svg(chartKey.mutation)),
    `<footer>Written by <code>chainsim report</code> from <code>summary.json</code>${
      views === null ? "" : ", <code>scenarios.json</code>"
    }${input.exploration === null ? "" : " and the exploration"}; charts are Vega-Lite rendered to SVG.</footer>`,
    `</main></body></html>`,
    ``,
  ].join("\n");
}
