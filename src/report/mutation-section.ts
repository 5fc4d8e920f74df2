/**
 * The report page's mutation section: the last `npm run mutate` (reports/mutation/summary.json) as a chart, a table
 * per file and detector, the campaign's time to kill, the survivors and links to Stryker's own reports. Pure: data
 * in, HTML out.
 */
import { escapeMarkup } from "../core/markup.js";
import type { MutationSummary } from "./mutation-summary.js";

/** The mutation summary and where it was read from (relative links to Stryker's reports start there). */
export interface MutationInput {
  readonly summary: MutationSummary;
  /** Folder of summary.json, relative to the page (Stryker's reports are `<dir>/<detector>/index.html`). */
  readonly dir: string;
}

const cell = (r: { score: number | null; killed: number; timeout: number; survived: number } | undefined): string =>
  r === undefined
    ? `<td>-</td>`
    : `<td>${r.score === null ? "n/a" : `${r.score.toFixed(1)}%`} <span class="note">(${r.killed + r.timeout}/${r.killed + r.timeout + r.survived})</span></td>`;

export function mutationSection(m: MutationInput | null, chartSvg: string | undefined): string {
  const out = [`<section id="mutation"><h2>Mutation score</h2>`];
  if (m === null) {
    out.push(
      `<p class="note">No mutation run yet. <code>npm run mutate</code> writes <code>reports/mutation/summary.json</code>; the next report shows it (docs/mutation.md).</p>`,
      `</section>`,
    );
    return out.join("\n");
  }
  const s = m.summary;
  out.push(
    `<p class="note">StrykerJS mutated the decision logic; each detector ran against every mutant. The score is the share of mutants it killed (timeouts count as killed; documented equivalents are not counted).</p>`,
  );
  if (chartSvg !== undefined) out.push(`<div class="chart">${chartSvg}</div>`);
  out.push(
    `<table><thead><tr><th>file</th>${s.detectors.map((d) => `<th>${escapeMarkup(d)}</th>`).join("")}</tr></thead><tbody>`,
    ...Object.entries(s.files).map(
      ([f, cols]) =>
        `<tr><td><code>${escapeMarkup(f)}</code></td>${s.detectors.map((d) => cell(cols[d])).join("")}</tr>`,
    ),
    `</tbody></table>`,
  );
  const t = s.campaignTimeToKillS;
  if (t !== null)
    out.push(
      `<p>Campaign time to kill: median ${t.medianS} s, p90 ${t.p90S} s over ${t.killed} killed mutants${
        t.cpu === null ? "" : ` (CPU time: median ${t.cpu.medianS} s, p90 ${t.cpu.p90S} s)`
      }${
        t.search === null
          ? ""
          : `; the campaign's search until the first failing run: median ${t.search.medianS} s, p90 ${t.search.p90S} s`
      }.</p>`,
    );
  out.push(
    `<p>Stryker's reports: ${s.detectors
      .filter((d) => d !== "campaign+scenarios")
      .map((d) => `<a href="${escapeMarkup(`${m.dir}/${d}/index.html`)}">${escapeMarkup(d)}</a>`)
      .join(", ")}.</p>`,
  );
  if (s.survivors.length > 0)
    out.push(
      `<details><summary>${s.survivors.length} survivor(s) of campaign + scenarios</summary><ul>${s.survivors
        .map(
          (v) =>
            `<li><code>${escapeMarkup(`${v.file}:${v.line}:${v.column}`)}</code> ${escapeMarkup(v.mutator)} → <code>${escapeMarkup(v.replacement)}</code></li>`,
        )
        .join("")}</ul></details>`,
    );
  out.push(`</section>`);
  return out.join("\n");
}
