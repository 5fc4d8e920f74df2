import { describe, expect, it } from "vitest";
import { sampleInput } from "../../test/kit/report.js";
import { renderSvg } from "../cli/explore.js";
import { exploreCancelWindow } from "../explore/explore.js";
import { DEFAULT_CONFIG } from "../explore/model.js";
import { buildReport, reportCharts } from "./build.js";
import { scenarioViews } from "./html.js";
import type { ReportInput } from "./types.js";

const svgCount = (html: string) => (html.match(/<svg\b/g) ?? []).length;

describe("buildReport", () => {
  const input = sampleInput();

  it("renders one chart per job with vega and inlines each SVG, labelled", async () => {
    const html = await buildReport(input, renderSvg);
    const jobs = reportCharts(input, scenarioViews(input.scenarios!));
    expect(jobs.map((j) => j.key)).toEqual([
      "properties",
      "regions",
      "model",
      "scenario-sample-failing",
      "scenario-sample-upgrade",
    ]);
    expect(svgCount(html)).toBe(jobs.length);
    expect(html).toContain('<svg role="img" aria-label="timeline of sample-upgrade"');
    // The diagram's labels and the timeline's marks are in the SVG text, drawn by vega.
    expect(html).toContain("AUTHORITY_EXEC.schedule");
    expect(html).toContain("plan &quot;v2&quot; at height 1000");
    expect(html).toContain("v2 applied at 1000");
  }, 30_000);

  it("is deterministic: the same data gives the same page", async () => {
    const [a, b] = [await buildReport(input, renderSvg), await buildReport(input, renderSvg)];
    expect(a).toBe(b);
  }, 30_000);

  it("adds the cancel-window chart of an exploration", async () => {
    const x = exploreCancelWindow({ ...DEFAULT_CONFIG, runs: 8, seed: 3 }, {});
    if (!x.ok) throw new Error(x.error);
    const withX: ReportInput = { ...input, scenarios: null, exploration: { data: x.value, source: "x.json" } };
    const specs: string[] = [];
    const html = await buildReport(withX, async (spec) => {
      specs.push(JSON.stringify(spec));
      return "<svg></svg>";
    });
    expect(specs).toHaveLength(4);
    expect(specs[3]).toContain("P(cancel lands)");
    expect(html).toContain('aria-label="probability that a cancel lands by plan offset"');
    expect(html).toContain("Schedule at least");
  }, 60_000);
});
