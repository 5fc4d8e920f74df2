import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import type { CheckSummary } from "../src/harness/summary.js";
import { SECTION_IDS, scenarioAnchors } from "../src/report/html.js";
import type { ScenariosFile } from "../src/report/types.js";
import { CHROMIUM, headlessChromium } from "./kit/chromium.js";

/**
 * The HTML report in a real browser: `chainsim explore` and `chainsim all` (with a planted bug, so there is a
 * counterexample) write a report under reports/browser-test/run-XXXXXX/, headless Chromium loads it offline, and the test
 * checks that every section and every scenario timeline is in the rendered DOM, that the page logs no console error,
 * and saves a screenshot next to the report (reports/browser-test/run-XXXXXX/<run-id>/screenshot.png). It also
 * screenshots the timeline of scenarios/upgrade-with-sidecars.yaml alone, as the page draws it, into
 * <run-id>/timeline.png: the README's picture, docs/report-timeline.png, is a copy of that file.
 *
 * Needs Debian's `chromium` (or CHROMIUM=<path>). Without it the test is skipped, except in CI (CI=true), where
 * .ci/run installs it and the test must run.
 */
const run = promisify(execFile);
/** Reports of this test go to reports/browser-test/run-XXXXXX/ (one per test process: runs may overlap). */
const REPORTS = "reports/browser-test";
/** Earlier runs' folders older than this are removed. */
const KEEP_MS = 30 * 60_000;
const WINDOW = { width: 1280, height: 2000 };
/** The scenario whose timeline the README shows (docs/report-timeline.png). */
const README_TIMELINE = "upgrade-with-sidecars";

async function chainsim(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, ["bin/chainsim.js", ...args], { maxBuffer: 64 << 20 });
    return { code: 0, ...r };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: x.code ?? -1, stdout: x.stdout ?? "", stderr: x.stderr ?? "" };
  }
}

/** Headless Chromium on a file URL, its console logged to stderr (what `consoleErrors` reads). */
const chromium = (url: string, extra: string[]) =>
  headlessChromium(url, ["--hide-scrollbars", "--enable-logging=stderr", "--v=0", ...extra]);

/**
 * Console messages and uncaught exceptions in Chromium's log (`[…:INFO:CONSOLE:1] "msg", source: …`). The page has
 * no scripts, so any console line at all is an error.
 */
const consoleErrors = (log: string): string[] => log.split("\n").filter((l) => /:CONSOLE[:(]|Uncaught/.test(l));

/** Width and height from a PNG's IHDR chunk. */
function pngSize(path: string): { width: number; height: number } {
  const b = readFileSync(path);
  expect(b.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe.skipIf(CHROMIUM === undefined && process.env.CI !== "true")("the HTML report in headless Chromium", () => {
  let page = "";
  let reportDir = "";
  let summary: CheckSummary;
  let scenarios: ScenariosFile;

  beforeAll(async () => {
    expect(CHROMIUM, "chromium is required in CI (.ci/run installs it)").toBeDefined();
    mkdirSync(REPORTS, { recursive: true });
    for (const d of readdirSync(REPORTS)) {
      const p = join(REPORTS, d);
      if (Date.now() - statSync(p).mtimeMs > KEEP_MS) rmSync(p, { recursive: true, force: true });
    }
    reportDir = mkdtempSync(join(REPORTS, "run-"));
    const regressions = mkdtempSync(join(tmpdir(), "chainsim-regressions-"));
    const x = await chainsim(["explore", "cancel-window", "--runs", "20", "--out", `${reportDir}/explore/latest.json`]);
    expect(x.code, x.stderr).toBe(0);
    const all = await chainsim([
      "all",
      "--runs",
      "10",
      "--seed",
      "7",
      "--time-limit",
      "10m",
      "--faults",
      "ignore-cancel",
      "--report-dir",
      reportDir,
      "--regressions-dir",
      regressions,
    ]);
    expect([0, 1], all.stderr).toContain(all.code);
    expect(all.stderr, "vega-lite warnings while the charts were built").not.toMatch(/^WARN /m);
    page = /^Report: (.+index\.html)$/m.exec(all.stdout)?.[1] ?? "";
    expect(page, all.stdout.slice(-2000)).not.toBe("");
    const runDir = join(page, "..");
    summary = JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8")) as CheckSummary;
    scenarios = JSON.parse(readFileSync(join(runDir, "scenarios.json"), "utf8")) as ScenariosFile;
  }, 240_000);

  it("renders every section, every scenario timeline and every chart, offline and without console errors", async () => {
    const url = pathToFileURL(resolve(page)).href;
    const { stdout: dom, stderr } = await chromium(url, ["--dump-dom"]);
    for (const id of SECTION_IDS) expect(dom).toContain(`id="${id}"`);
    const anchors = scenarioAnchors(scenarios.scenarios.map((s) => s.report.name));
    expect(anchors.length).toBeGreaterThan(50);
    for (const a of anchors) expect(dom).toContain(`id="${a}"`);
    for (const p of summary.properties.filter((q) => q.counterexample !== undefined))
      expect(dom).toContain(`id="cx-${p.property}"`);
    // properties, regions, the model, one timeline per scenario, the exploration.
    expect((dom.match(/<svg\b/g) ?? []).length).toBe(anchors.length + 4);
    expect(dom).toContain("P(cancel lands)");
    expect(dom).not.toMatch(/<script|\ssrc="https?:/i);
    expect(consoleErrors(stderr)).toEqual([]);
  }, 120_000);

  it("opens the newest run's page through <report-dir>/latest/index.html", async () => {
    const { stdout: dom } = await chromium(pathToFileURL(resolve(reportDir, "latest", "index.html")).href, [
      "--dump-dom",
    ]);
    expect(dom).toContain(`<title>chainsim report ${summary.runId}</title>`);
  }, 60_000);

  it("would see a console error (the check above is not vacuous)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chainsim-broken-"));
    const broken = join(dir, "broken.html");
    writeFileSync(broken, '<html><body><script>console.error("boom"); missing();</script></body></html>');
    const { stderr } = await chromium(pathToFileURL(broken).href, ["--dump-dom"]);
    expect(consoleErrors(stderr).join("\n")).toMatch(/"boom"[\s\S]*Uncaught ReferenceError/);
  }, 60_000);

  /** Screenshots `html` at `size` into `shot`: a PNG of that size, at least `minBytes` (not blank), no console line. */
  async function screenshot(html: string, size: { width: number; height: number }, shot: string, minBytes: number) {
    rmSync(shot, { force: true });
    const { stderr } = await chromium(pathToFileURL(resolve(html)).href, [
      `--window-size=${size.width},${size.height}`,
      `--screenshot=${resolve(shot)}`,
    ]);
    expect(existsSync(shot), stderr.slice(-2000)).toBe(true);
    expect(pngSize(shot)).toEqual(size);
    expect(statSync(shot).size).toBeGreaterThan(minBytes);
    expect(consoleErrors(stderr)).toEqual([]);
  }

  it("saves a screenshot of the page next to the report", async () => {
    await screenshot(page, WINDOW, join(page, "..", "screenshot.png"), 50_000);
  }, 120_000);

  it("screenshots the README's timeline (upgrade-with-sidecars) as the page draws it", async () => {
    const html = readFileSync(page, "utf8");
    const anchor = scenarioAnchors(scenarios.scenarios.map((s) => s.report.name))[
      scenarios.scenarios.findIndex((s) => s.report.name === README_TIMELINE)
    ];
    const svg = new RegExp(
      `<article class="scenario" id="${anchor}">[\\s\\S]*?<div class="chart">(<svg[\\s\\S]*?</svg>)`,
    ).exec(html)?.[1];
    expect(svg, `the timeline of ${README_TIMELINE}`).toBeDefined();
    const size = {
      width: Number(/\swidth="(\d+)"/.exec(svg!)?.[1]),
      height: Number(/\sheight="(\d+)"/.exec(svg!)?.[1]),
    };
    expect(size.width).toBeGreaterThan(600);
    const alone = join(page, "..", "timeline.html");
    writeFileSync(
      alone,
      `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0}</style></head><body>${svg}</body></html>`,
    );
    await screenshot(alone, size, join(page, "..", "timeline.png"), 15_000);
  }, 120_000);
});
