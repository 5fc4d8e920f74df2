import { describe, expect, it } from "vitest";
import type { CheckSummary } from "../harness/summary.js";
import { propertiesChart } from "./summary-chart.js";

describe("propertiesChart", () => {
  it("stacks each property's passed and failed runs instead of colouring the bar by verdict", () => {
    const summary = {
      properties: [
        { property: "run-once", runs: 300, failures: 0, passed: true },
        { property: "liveness", runs: 40, failures: 1, passed: false },
      ],
    } as unknown as CheckSummary;
    const spec = propertiesChart(summary) as {
      layer: {
        data: { values: { property: string; outcome?: string; runs: number; text: string }[] };
        encoding: Record<string, unknown>;
      }[];
    };
    const bars = spec.layer[0]!;
    expect(bars.encoding.color).toMatchObject({ field: "outcome", scale: { domain: ["passed", "failed"] } });
    expect(bars.encoding.x).toMatchObject({ stack: "zero" });
    expect(bars.data.values.filter((v) => v.property === "liveness").map((v) => [v.outcome, v.runs])).toEqual([
      ["passed", 39],
      ["failed", 1],
    ]);
    expect(bars.data.values.find((v) => v.property === "liveness" && v.outcome === "failed")?.text).toBe(
      "liveness: 1 of 40 runs failed",
    );
    expect(spec.layer[1]!.data.values.find((v) => v.property === "liveness")).toMatchObject({ label: "40 (1 failed)" });
  });
});
