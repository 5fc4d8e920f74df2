import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseScenario } from "../scenario/load.js";
import { runScenario } from "../scenario/runner.js";
import { scenarioTimeline } from "./timeline.js";
import { timelineChart } from "./timeline-chart.js";
import type { ScenarioRecord } from "./types.js";

function operatorRecord(file: string): ScenarioRecord {
  const parsed = parseScenario(file, readFileSync(file, "utf8"));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  const { report, sim } = runScenario(parsed.value, { keepTrace: true });
  return { report, trace: sim.traceLines() };
}

const spansOf = (file: string, node: string) =>
  scenarioTimeline(operatorRecord(file))
    .spans.filter((s) => s.node === node)
    .map((s) => `${s.state} ${s.binary} ${new Date(s.fromMs).toISOString().slice(11, 19)}`);

// Steps of one instant (cosmovisor's detection, stop and switch take no simulated time here) leave no span.
describe("each node's lane: its binary and state over time", () => {
  it("a backup, then the swap to v2", () => {
    expect(spansOf("scenarios/operator-backup-delays-chain.yaml", "val2")).toEqual([
      "running v1 00:00:00",
      "halted v1 01:40:00",
      "backing up v1 01:40:00",
      "running v2 02:31:12",
    ]);
  });

  it("a staged upgrade: backing up while cosmovisor has stopped the running node, halted on v2, back on v1, then v2", () => {
    expect(spansOf("scenarios/operator-staged-upgrade-switches-early.yaml", "val1")).toEqual([
      "running v1 00:00:00",
      "backing up v1 01:20:00",
      "waiting for operator v2 01:25:00",
      "running v1 01:35:00",
      "halted v1 01:40:00",
      "backing up v1 01:40:00",
      "running v2 01:45:00",
    ]);
  });

  it("a failed download, then the person", () => {
    expect(spansOf("scenarios/operator-failed-download-manual-fallback.yaml", "val1")).toEqual([
      "running v1 00:00:00",
      "halted v1 01:40:00",
      "downloading v1 01:40:00",
      "waiting for operator v1 02:00:00",
      "running v2 02:45:00",
    ]);
  });

  it("a node that never upgrades stays halted on its old binary to the end, with the reason", () => {
    const t = scenarioTimeline(operatorRecord("scenarios/operator-third-never-upgrades.yaml"));
    const last = t.spans.filter((s) => s.node === "val5").at(-1);
    expect(last).toMatchObject({ state: "halted", binary: "v1", toMs: t.endMs });
    expect(last?.text).toContain('upgrade-needed: UPGRADE "v2" NEEDED at height: 1000');
    expect(last?.text).toContain("the operator is absent");
  });

  it("the chart draws a band per state with the tooltip, and labels each node's new binary", () => {
    const t = scenarioTimeline(operatorRecord("scenarios/operator-night-time-halt.yaml"));
    const spec = JSON.stringify(timelineChart(t));
    expect(spec).toContain('"title":"node state"');
    expect(spec).toContain(
      "val3: waiting for operator (v1): waiting for the operator (reaction 30m0s of working time)",
    );
    expect(spec).toContain('"text":"val3 runs v2"');
  });
});
