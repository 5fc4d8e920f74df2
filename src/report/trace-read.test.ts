import { describe, expect, it } from "vitest";
import { loadScenario, scenarioFiles } from "../../test/scenario-suite.js";
import { renderTraceEvent } from "../chain/trace-events.js";
import { runScenario } from "../scenario/runner.js";
import { readTraceLines } from "./trace-read.js";

describe("readTraceLines", () => {
  it("reads back every scenario's trace to events that render to the same bytes", () => {
    let kinds = new Set<string>();
    for (const f of scenarioFiles()) {
      const { sim } = runScenario(loadScenario(f), { keepTrace: true });
      const lines = sim.traceLines();
      const r = readTraceLines(lines);
      if (!r.ok) throw new Error(`${f}: ${r.error}`);
      expect(r.value).toEqual(sim.traceEvents());
      expect(r.value.map(renderTraceEvent)).toEqual(lines);
      kinds = new Set([...kinds, ...r.value.map((e) => (e.kind === "sidecar" ? `sidecar-${e.action}` : e.kind))]);
    }
    expect([...kinds].sort()).toEqual([
      "block",
      "blocks",
      "genesis",
      "halt",
      "operator",
      "plan",
      "sidecar-none",
      "sidecar-swap",
      "stall",
      "start",
      "step",
      "stop",
    ]);
  });

  it("names the line and the field of a malformed event", () => {
    const ok = '{"node":"val1","t":"stop","time":"2026-01-01T01:10:00Z"}';
    expect(readTraceLines([ok, "{"])).toEqual({ ok: false, error: "trace line 2: not JSON" });
    const r = readTraceLines([ok, '{"node":"val1","t":"stop","time":"yesterday"}']);
    expect(r.ok ? "" : r.error).toMatch(/^trace line 2 at time: invalid RFC 3339 time "yesterday"/);
    expect(readTraceLines(['{"t":"teleport"}']).ok).toBe(false);
  });
});
