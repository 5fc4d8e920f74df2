import { describe, expect, it } from "vitest";
import { sampleRecord, sampleSummary } from "../../test/kit/report.js";
import { parseExploration, parseScenariosFile, parseSummary, scenariosFile } from "./load.js";

describe("parsing the saved files", () => {
  it("reads back what chainsim writes", () => {
    const s = parseSummary("summary.json", JSON.stringify(sampleSummary()));
    expect(s.ok && s.value.seed).toBe(42);
    const f = parseScenariosFile("scenarios.json", JSON.stringify(scenariosFile("r1", [sampleRecord()])));
    expect(f.ok && f.value.scenarios[0]!.report.name).toBe("sample-upgrade");
    const x = parseExploration("x.json", JSON.stringify({ kind: "cancel-window-sweep", series: [] }));
    expect(x.ok).toBe(true);
  });

  it("names the file and the problem, and never throws", () => {
    expect(parseSummary("s.json", "{")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^s\.json: not JSON/),
    });
    expect(parseSummary("s.json", '{"format":"other"}')).toEqual({
      ok: false,
      error: 's.json: not a chainsim check summary (format "chainsim-check/1")',
    });
    expect(parseSummary("s.json", '{"format":"chainsim-check/1"}')).toMatchObject({ ok: false });
    expect(parseScenariosFile("c.json", '{"format":"chainsim-scenarios/1","scenarios":[{"report":{}}]}')).toEqual({
      ok: false,
      error: "c.json: scenarios[0] needs a report with a name and trace lines",
    });
    const badTrace = { ...sampleRecord(), trace: [...sampleRecord().trace.slice(0, 2), '{"t":"stop","node":"val1"}'] };
    expect(parseScenariosFile("c.json", JSON.stringify(scenariosFile("r1", [badTrace])))).toEqual({
      ok: false,
      error: "c.json: scenarios[0].trace line 3 at time: Invalid input: expected string, received undefined",
    });
    expect(parseExploration("x.json", "[]")).toMatchObject({ ok: false, error: expect.stringContaining("x.json") });
  });
});
