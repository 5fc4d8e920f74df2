/** Vega-Lite chart of the mutation score: one row per mutated file, one bar per detector (docs/mutation.md). */
import type { VegaLiteSpec } from "../explore/chart.js";
import type { MutationSummary } from "./mutation-summary.js";

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
const CONFIG = {
  font: "Helvetica, Arial, sans-serif",
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 11, titleColor: "#57606a", labelColor: "#24292f" },
};
const DETECTOR_COLORS: Readonly<Record<string, string>> = {
  campaign: "#54aeff",
  scenarios: "#8250df",
  "campaign+scenarios": "#1a7f37",
  units: "#bf8700",
  devnet: "#cf222e",
};

/** Score per file and detector, with killed/valid in the tooltip; files without a valid mutant are left out. */
export function mutationChart(s: MutationSummary): VegaLiteSpec {
  const values = Object.entries(s.files).flatMap(([file, cols]) =>
    s.detectors.flatMap((detector) => {
      const r = cols[detector];
      if (r === undefined || r.score === null) return [];
      const valid = r.killed + r.timeout + r.survived;
      return [
        {
          file: file === "all" ? "all files" : file,
          detector,
          score: r.score,
          tip: `${file} · ${detector}: ${r.score}% (${r.killed + r.timeout} of ${valid} killed, ${r.survived} survived)`,
        },
      ];
    }),
  );
  const detectors = s.detectors.filter((d) => values.some((v) => v.detector === d));
  return {
    $schema: SCHEMA,
    background: "white",
    width: 320,
    padding: 4,
    config: CONFIG,
    data: { values },
    mark: { type: "bar", cornerRadiusEnd: 2, tooltip: { content: "data" } },
    encoding: {
      row: { field: "file", type: "nominal", sort: null, title: null, header: { labelAngle: 0, labelAlign: "left" } },
      y: { field: "detector", type: "nominal", sort: detectors, title: null, axis: null },
      x: { field: "score", type: "quantitative", title: "mutation score %", scale: { domain: [0, 100] } },
      color: {
        field: "detector",
        type: "nominal",
        sort: detectors,
        scale: { domain: detectors, range: detectors.map((d) => DETECTOR_COLORS[d] ?? "#57606a") },
        legend: { orient: "top", title: null },
      },
      tooltip: { field: "tip", type: "nominal" },
    },
  };
}
