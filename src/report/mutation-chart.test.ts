import { describe, expect, it } from "vitest";
import { renderSvg } from "../cli/explore.js";
import { mutationChart } from "./mutation-chart.js";
import { summarizeMutation } from "./mutation-summary.js";

const m = (line: number, status: string) => ({
  id: String(line),
  mutatorName: "ConditionalExpression",
  location: { start: { line, column: 1 } },
  status,
});

describe("mutationChart", () => {
  const summary = summarizeMutation({
    campaign: { files: { "src/chain/consensus.ts": { mutants: [m(1, "Killed"), m(2, "Survived")] } } },
    scenarios: { files: { "src/chain/consensus.ts": { mutants: [m(1, "Killed"), m(2, "Killed")] } } },
  });

  it("has one bar per file and detector with its score, and a tooltip naming the counts", () => {
    const values = (
      mutationChart(summary).data as { values: { file: string; detector: string; score: number; tip: string }[] }
    ).values;
    expect(values.map((v) => `${v.file}/${v.detector}=${v.score}`)).toEqual([
      "src/chain/consensus.ts/campaign=50",
      "src/chain/consensus.ts/scenarios=100",
      "src/chain/consensus.ts/campaign+scenarios=100",
      "all files/campaign=50",
      "all files/scenarios=100",
      "all files/campaign+scenarios=100",
    ]);
    expect(values[0]?.tip).toBe("src/chain/consensus.ts · campaign: 50% (1 of 2 killed, 1 survived)");
  });

  it("renders to SVG with a labelled row per file", async () => {
    const svg = await renderSvg(mutationChart(summary));
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("src/chain/consensus.ts");
    expect(svg).toContain("all files");
  });
});
