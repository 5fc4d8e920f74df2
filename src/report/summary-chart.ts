/** Vega-Lite charts of the campaign summary: the runtime regions its runs reached, and its runs per property. */
import type { VegaLiteSpec } from "../explore/chart.js";
import type { CheckSummary } from "../harness/summary.js";

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
const CONFIG = {
  font: "Helvetica, Arial, sans-serif",
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 11, titleColor: "#57606a", labelColor: "#24292f" },
};

/** Percentage of observed runs that reached each region (src/harness/regions.ts), one bar per region. */
export function regionsChart(s: CheckSummary): VegaLiteSpec {
  const values = Object.entries(s.regions.percentages).map(([region, pct]) => ({
    region,
    pct,
    runs: s.regions.counts[region as keyof typeof s.regions.counts] ?? 0,
    label: `${pct}% (${s.regions.counts[region as keyof typeof s.regions.counts] ?? 0} runs)`,
  }));
  const y = { field: "region", type: "nominal", sort: null, title: null, axis: { labelLimit: 220 } };
  return {
    $schema: SCHEMA,
    background: "white",
    width: 300,
    height: { step: 22 },
    padding: 4,
    config: CONFIG,
    data: { values },
    layer: [
      {
        mark: { type: "bar", color: "#54aeff", cornerRadiusEnd: 2 },
        encoding: {
          description: { field: "label" },
          y,
          x: {
            field: "pct",
            type: "quantitative",
            title: `% of ${s.regions.runs} observed runs`,
            scale: { domain: [0, 100] },
          },
        },
      },
      {
        mark: { type: "text", align: "left", dx: 4, fontSize: 11, color: "#24292f" },
        encoding: { y, x: { field: "pct", type: "quantitative" }, text: { field: "label" } },
      },
    ],
  };
}

/**
 * Runs per property, stacked: the runs that passed and the runs that failed (a crashed property's runs count as
 * failed, and its label says so). Every bar segment has a tooltip.
 */
export function propertiesChart(s: CheckSummary): VegaLiteSpec {
  const values = s.properties.flatMap((p) => {
    const failed = p.error !== undefined ? Math.max(1, p.failures) : p.failures;
    const passed = Math.max(0, p.runs - failed);
    const crashed = p.error !== undefined ? " (crashed)" : "";
    return [
      {
        property: p.property,
        outcome: "passed",
        runs: passed,
        text: `${p.property}: ${passed} of ${p.runs} runs passed`,
      },
      {
        property: p.property,
        outcome: "failed",
        runs: failed,
        text: `${p.property}: ${failed} of ${p.runs} runs failed${crashed}`,
      },
    ];
  });
  const totals = s.properties.map((p) => ({
    property: p.property,
    runs: p.runs,
    label: `${p.runs}${p.error !== undefined ? " crashed" : p.failures > 0 ? ` (${p.failures} failed)` : ""}`,
    text: `${p.property}: ${p.runs} runs`,
  }));
  const y = { field: "property", type: "nominal", sort: null, title: null, axis: { labelLimit: 220 } };
  return {
    $schema: SCHEMA,
    background: "white",
    width: 300,
    height: { step: 22 },
    padding: 4,
    config: CONFIG,
    layer: [
      {
        data: { values },
        mark: { type: "bar" },
        encoding: {
          y,
          x: { field: "runs", type: "quantitative", title: "runs", stack: "zero" },
          color: {
            field: "outcome",
            type: "nominal",
            title: null,
            scale: { domain: ["passed", "failed"], range: ["#2da44e", "#cf222e"] },
            legend: { orient: "bottom" },
          },
          order: { field: "outcome", sort: "descending" },
          description: { field: "text" },
        },
      },
      {
        data: { values: totals },
        mark: { type: "text", align: "left", dx: 4, fontSize: 11, color: "#24292f" },
        encoding: {
          y,
          x: { field: "runs", type: "quantitative" },
          text: { field: "label" },
          description: { field: "text" },
        },
      },
    ],
  };
}
