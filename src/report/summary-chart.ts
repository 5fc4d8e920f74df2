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

/** Runs per property, coloured by outcome. */
export function propertiesChart(s: CheckSummary): VegaLiteSpec {
  const values = s.properties.map((p) => ({
    property: p.property,
    runs: p.runs,
    outcome: p.error !== undefined ? "crashed" : p.passed ? "passed" : "failed",
  }));
  const y = { field: "property", type: "nominal", sort: null, title: null, axis: { labelLimit: 220 } };
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
        mark: { type: "bar", cornerRadiusEnd: 2 },
        encoding: {
          y,
          x: { field: "runs", type: "quantitative", title: "runs" },
          color: {
            field: "outcome",
            type: "nominal",
            title: null,
            scale: { domain: ["passed", "failed", "crashed"], range: ["#2da44e", "#cf222e", "#6e7781"] },
            legend: { orient: "bottom" },
          },
        },
      },
      {
        mark: { type: "text", align: "left", dx: 4, fontSize: 11, color: "#24292f" },
        encoding: { y, x: { field: "runs", type: "quantitative" }, text: { field: "runs", type: "quantitative" } },
      },
    ],
  };
}
