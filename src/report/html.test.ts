import { describe, expect, it } from "vitest";
import { sampleInput, sampleRecord } from "../../test/kit/report.js";
import { chainTime, reportPage, SECTION_IDS, scenarioAnchors, scenarioViews } from "./html.js";
import type { ReportInput } from "./types.js";

const page = (input: ReportInput) =>
  reportPage(
    input,
    input.scenarios === null ? null : scenarioViews(input.scenarios),
    (k) => `<svg data-chart="${k}"></svg>`,
  );

describe("scenario anchors and order", () => {
  it("makes one safe, unique anchor per scenario", () => {
    expect(scenarioAnchors(["a b", "a b", "ok_1", "x/<y>"])).toEqual([
      "scenario-a-b",
      "scenario-a-b-2",
      "scenario-ok_1",
      "scenario-x-y-",
    ]);
  });

  it("lists failed scenarios first, known regressions after them, then the passing ones in library order", () => {
    const pass = sampleRecord();
    const fail = sampleRecord({ failing: true });
    const known = { ...fail, report: { ...fail.report, name: "known" }, knownRegression: true };
    const order = scenarioViews([pass, known, fail, { ...pass, report: { ...pass.report, name: "second" } }]);
    expect(order.map((v) => v.record.report.name)).toEqual(["sample-failing", "known", "sample-upgrade", "second"]);
    expect(order.map((v) => v.failed)).toEqual([true, true, false, false]);
  });
});

describe("reportPage", () => {
  const input = sampleInput();
  const html = page(input);

  it("is one self-contained document: inline CSS, no scripts, nothing loaded from elsewhere", () => {
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain("<style>");
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|url\(http|href="https?:/i);
  });

  it("has every section, and the charts where they belong", () => {
    for (const id of SECTION_IDS) expect(html).toContain(`<section id="${id}">`);
    for (const k of ["model", "regions", "properties", "scenario-sample-upgrade", "scenario-sample-failing"])
      expect(html).toContain(`data-chart="${k}"`);
  });

  it("summarises scenarios with links to their timelines, and properties with runs, failures, time and seed", () => {
    expect(html).toContain('<a class="chip failed" href="#scenario-sample-failing">sample-failing</a>');
    expect(html).toContain('<a class="chip" href="#scenario-sample-upgrade">sample-upgrade</a>');
    expect(html).toContain('<article class="scenario" id="scenario-sample-upgrade">');
    expect(html).toContain("1 / 2 passed");
    expect(html).toContain("<code>42</code>"); // the seed
    expect(html).toMatch(/<code>cancel-effective<\/code><\/td><td><span class="badge failed">failed<\/span>/);
    expect(html).toContain("expect.height: expected 999999, got 1010");
  });

  it("gives the command that replays the campaign with every option that shaped it", () => {
    const s = input.summary;
    const defaults = { runsPerProperty: 100, timeLimitMs: null, properties: ["run-once", "x", "cancel-effective"] };
    const check = page({ ...input, summary: { ...s, command: "check", replay: { defaults, bail: true } } });
    expect(check).toContain(
      "Replay the campaign with <code>npx chainsim check --seed 42 --runs 20 --property run-once --property cancel-effective --bail</code>.",
    );
    const cut = page({
      ...input,
      summary: { ...s, properties: s.properties.map((p) => ({ ...p, interrupted: true })) },
    });
    expect(cut).toContain("(the time limit cut this one short, so a replay may run further).");
  });

  it("shows each counterexample's shrunk steps and the command that replays it, escaped", () => {
    expect(html).toContain('id="cx-cancel-effective"');
    expect(html).toContain("<li>authorityExec(schedule v2 at next+7)</li><li>advance(2 blocks)</li>");
    expect(html).toContain("<pre>npx chainsim run scenarios/regressions/cancel-effective-0badc0de.yaml</pre>");
    expect(html).toContain("a cancel &lt;cleared&gt; it");
    expect(html).toContain("val2 after 1m0s");
  });

  it("lists the transition counts, and the never-fired transitions", () => {
    expect(html).toContain('<tr><td><code>progressing.BLOCK.commit</code></td><td class="n">3,400×</td></tr>');
    expect(html).toContain("<code>scheduled.BLOCK.skip</code>");
  });

  it("says so when there are no scenarios, counterexamples or exploration", () => {
    const s = input.summary;
    const quiet = page({
      ...input,
      scenarios: null,
      summary: { ...s, properties: s.properties.filter((p) => p.counterexample === undefined) },
    });
    for (const id of SECTION_IDS) expect(quiet).toContain(`<section id="${id}">`);
    expect(quiet).toContain("This run replayed no scenarios");
    expect(quiet).toContain("None: no property failed in this run.");
    expect(quiet).toContain("No exploration yet.");
  });

  it("escapes file names and texts from the data", () => {
    const r = sampleRecord({ file: "scenarios/<script>alert(1)</script>.yaml" });
    const out = page({ ...input, scenarios: [r] });
    expect(out).not.toContain("<script>");
    expect(out).toContain("scenarios/&lt;script&gt;alert(1)&lt;/script&gt;.yaml");
  });
});

describe("chainTime", () => {
  it("rounds simulated time to minutes, hours or days", () => {
    expect(chainTime(125_000)).toBe("2 min");
    expect(chainTime(7.44 * 3_600_000)).toBe("7.4 h");
    expect(chainTime(3.25 * 86_400_000)).toBe("3.3 days");
  });
});
