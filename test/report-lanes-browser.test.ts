import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { renderSvg } from "../src/cli/explore.js";
import { scenarioTimeline } from "../src/report/timeline.js";
import { timelineChart } from "../src/report/timeline-chart.js";
import { parseScenario } from "../src/scenario/load.js";
import { runScenario } from "../src/scenario/runner.js";
import { CHROMIUM, headlessChromium } from "./kit/chromium.js";

/**
 * The report's per-node lane (src/report/node-spans.ts) as headless Chromium draws it: the timeline of an operator
 * scenario, alone on a page, loaded offline. Each node's band carries its state and binary as the marks' ARIA labels
 * (the tooltips), a node that never upgrades keeps its halted band with the halt's reason to the end, and the page
 * logs nothing. Screenshots go to reports/browser-test/lanes-XXXXXX/. Skipped without Chromium, except in CI.
 */
const REPORTS = "reports/browser-test";

async function page(file: string): Promise<{ html: string; svg: string }> {
  const p = parseScenario(file, readFileSync(file, "utf8"));
  if (!p.ok) throw new Error(JSON.stringify(p.error));
  const { report, sim } = runScenario(p.value, { keepTrace: true });
  const svg = await renderSvg(timelineChart(scenarioTimeline({ report, trace: sim.traceLines() })));
  mkdirSync(REPORTS, { recursive: true });
  const dir = mkdtempSync(join(REPORTS, "lanes-"));
  const html = join(dir, `${p.value.name}.html`);
  writeFileSync(
    html,
    `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">${svg}</body></html>`,
  );
  return { html, svg };
}

const consoleErrors = (log: string): string[] => log.split("\n").filter((l) => /:CONSOLE[:(]|Uncaught/.test(l));

describe.skipIf(CHROMIUM === undefined && process.env.CI !== "true")("each node's lane in headless Chromium", () => {
  it("shows a failed download, the wait for the operator and the swap to v2", async () => {
    const { html } = await page("scenarios/operator-failed-download-manual-fallback.yaml");
    const { stdout: dom, stderr } = await headlessChromium(pathToFileURL(resolve(html)).href, [
      "--enable-logging=stderr",
      "--v=0",
      "--dump-dom",
    ]);
    expect(dom).toContain('aria-label="val1: downloading (v1): downloading v2 (20m0s)"');
    expect(dom).toContain(
      'aria-label="val1: waiting for operator (v1): waiting for the operator (reaction 45m0s of working time)"',
    );
    expect(dom).toContain('aria-label="val1: running (v2)"');
    expect(dom).toContain('aria-label="val1 runs v2"');
    expect(consoleErrors(stderr)).toEqual([]);
  }, 120_000);

  it("keeps a node that never upgrades halted to the end, with the reason on hover, and screenshots it", async () => {
    const { html, svg } = await page("scenarios/operator-third-never-upgrades.yaml");
    const { stdout: dom } = await headlessChromium(pathToFileURL(resolve(html)).href, ["--dump-dom"]);
    expect(dom).toMatch(
      /aria-label="val5: halted \(v1\): upgrade-needed: UPGRADE &quot;v2&quot; NEEDED at height: 1000: ; the operator is absent: the node stays down"/,
    );
    expect(dom).not.toContain('aria-label="val5 runs v2"');
    const width = Number(/\swidth="(\d+)"/.exec(svg)?.[1]);
    const height = Number(/\sheight="(\d+)"/.exec(svg)?.[1]);
    const shot = html.replace(/\.html$/, ".png");
    await headlessChromium(pathToFileURL(resolve(html)).href, [
      "--hide-scrollbars",
      `--window-size=${width},${height}`,
      `--screenshot=${resolve(shot)}`,
    ]);
    expect(existsSync(shot)).toBe(true);
    expect(statSync(shot).size).toBeGreaterThan(15_000);
  }, 120_000);
});
