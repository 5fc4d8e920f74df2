import { explorationChart, sweepChart, type VegaLiteSpec } from "../explore/chart.js";
import { chartKey, reportPage, type ScenarioView, scenarioViews } from "./html.js";
import { coverageCounts, modelDiagram } from "./model-chart.js";
import { propertiesChart, regionsChart } from "./summary-chart.js";
import { addMarkTitles, inlineSvg, scopeSvgIds } from "./svg.js";
import { scenarioTimeline } from "./timeline.js";
import { timelineChart } from "./timeline-chart.js";
import type { ReportInput, SvgRenderer } from "./types.js";

export interface ChartJob {
  readonly key: string;
  readonly label: string;
  readonly spec: VegaLiteSpec;
}

/** Every chart of the report, in page order. */
export function reportCharts(input: ReportInput, views: readonly ScenarioView[] | null): ChartJob[] {
  const s = input.summary;
  const jobs: ChartJob[] = [
    { key: chartKey.properties, label: "runs per property", spec: propertiesChart(s) },
    { key: chartKey.regions, label: "runtime regions reached", spec: regionsChart(s) },
    {
      key: chartKey.model,
      label: "state diagram of the upgrade lifecycle with transition counts",
      spec: modelDiagram(input.transitions, coverageCounts(s.coverage, input.transitions)),
    },
  ];
  for (const v of views ?? [])
    jobs.push({
      key: chartKey.scenario(v.anchor),
      label: `timeline of ${v.record.report.name}`,
      spec: timelineChart(scenarioTimeline(v.record), v.record.report.halts),
    });
  const x = input.exploration?.data;
  if (x !== undefined)
    jobs.push({
      key: chartKey.exploration,
      label: "probability that a cancel lands by plan offset",
      spec: x.kind === "cancel-window" ? explorationChart(x) : sweepChart(x),
    });
  return jobs;
}

/**
 * Builds the report page: renders every chart with `render` (one after another, so the output does not depend on
 * scheduling), scopes each SVG's ids by its chart key, and lays out the page. Deterministic for a deterministic
 * renderer.
 */
export async function buildReport(input: ReportInput, render: SvgRenderer): Promise<string> {
  const views = input.scenarios === null ? null : scenarioViews(input.scenarios);
  const svgs = new Map<string, string>();
  for (const job of reportCharts(input, views)) {
    const svg = await render(job.spec);
    svgs.set(job.key, inlineSvg(addMarkTitles(scopeSvgIds(svg, job.key)), job.label));
  }
  return reportPage(input, views, (k) => svgs.get(k));
}
