import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PROPERTY_NAMES } from "../../properties/index.js";
import { runCli } from "../../test/kit/cli.js";
import { SHARED_PREFIX_DEFAULTS } from "../harness/shared-prefix.js";
import type { CheckSummary } from "../harness/summary.js";
import { parseScenario } from "../scenario/load.js";
import { runScenario } from "../scenario/runner.js";
import { replayScenarios } from "./all.js";
import { type CheckFlags, parseCheckFlags } from "./check-options.js";
import { type CheckEnv, campaignOptionsOf, checkHeader, executeCheck, runIdOf } from "./check-run.js";

const tmp = () => mkdtempSync(join(tmpdir(), "chainsim-check-"));

/** Runs the CLI in-process and captures what it writes. */
const cli = (args: string[]) => runCli(args);

afterEach(() => vi.restoreAllMocks());

function env(): CheckEnv & { outLines: string[]; errLines: string[] } {
  const outLines: string[] = [];
  const errLines: string[] = [];
  return {
    outLines,
    errLines,
    out: (s) => outLines.push(s),
    err: (s) => errLines.push(s),
    clock: () => performance.now(),
    now: () => new Date(Date.UTC(2026, 10, 22, 6, 45, 0)),
    commit: "abc1234",
    isTty: false,
  };
}

describe("chainsim check flags", () => {
  const cases: [string[], string][] = [
    [["--runs", "0"], "--runs"],
    [["--runs", "ten"], "--runs"],
    [["--seed", "-1"], "--seed"],
    [["--shard", "3/2"], "--shard"],
    [["--shard", "0/2"], "--shard"],
    [["--shard", "1-2"], "--shard"],
    [["--time-limit", "5x"], "--time-limit"],
    [["--time-limit", "0s"], "--time-limit"],
    [["--faults", "ignore-cancel,nope"], "--faults"],
    [["--property", "nope"], "--property"],
    [["--max-commands", "1.5"], "--max-commands"],
    [["--bogus"], "--bogus"],
  ];
  for (const [args, flag] of cases) {
    it(`exits 2 with a one-line error naming ${flag} for ${args.join(" ")}`, async () => {
      const r = await cli(["check", ...args]);
      expect(r.code).toBe(2);
      expect(r.err.split("\n")[0]).toContain(flag);
      expect(r.out).toBe("");
    });
  }

  it("parses every flag", () => {
    const f: CheckFlags = {
      runs: "12",
      seed: "7",
      timeLimit: "1m30s",
      property: ["liveness", "run-once,liveness"],
      shard: "2/3",
      faults: "ignore-cancel,missed-halt",
      maxCommands: "9",
      prefixShare: true,
      json: true,
      reportDir: "r",
      regressionsDir: "g",
    };
    expect(parseCheckFlags(f, { drawSeed: () => 1 })).toEqual({
      bail: false,
      prefixShare: true,
      page: true,
      seed: 7,
      seedDrawn: false,
      runsPerProperty: 12,
      runsPerUnit: 50,
      properties: ["liveness", "run-once"],
      shard: { index: 2, count: 3 },
      faults: ["ignore-cancel", "missed-halt"],
      maxCommands: 9,
      timeLimitMs: 90_000,
      json: true,
      reportDir: "r",
      regressionsDir: "g",
      workers: 1,
    });
    const d = parseCheckFlags({}, { drawSeed: () => 99 });
    expect(d).toMatchObject({ seed: 99, seedDrawn: true, runsPerProperty: 100, timeLimitMs: undefined, faults: [] });
    expect(d.properties).toEqual(PROPERTY_NAMES);
  });

  it("runs on one worker thread per core unless --workers says otherwise, and names the flag when it is wrong", () => {
    expect(parseCheckFlags({}, { drawSeed: () => 1, cores: 8 }).workers).toBe(8);
    // On two cores a second worker brings 1.05–1.22× (docs/performance.md): one is the default there.
    expect(parseCheckFlags({}, { drawSeed: () => 1, cores: 2 }).workers).toBe(1);
    expect(parseCheckFlags({}, { drawSeed: () => 1, cores: 1 }).workers).toBe(1);
    expect(parseCheckFlags({}, { drawSeed: () => 1, cores: 3 }).workers).toBe(3);
    expect(parseCheckFlags({ workers: "3" }, { drawSeed: () => 1, cores: 8 }).workers).toBe(3);
    expect(() => parseCheckFlags({ workers: "0" }, { drawSeed: () => 1 })).toThrow(
      '--workers: expected an integer in 1..64, got "0"',
    );
    expect(() => parseCheckFlags({ workers: "two" }, { drawSeed: () => 1 })).toThrow(/^--workers: /);
  });

  it("--prefix-share: the campaign's runs share prefixes (the default sharing), and the header says so", () => {
    const on = parseCheckFlags({ prefixShare: true }, { drawSeed: () => 1 });
    const off = parseCheckFlags({}, { drawSeed: () => 1 });
    expect(campaignOptionsOf(on).sharedPrefixes).toEqual(SHARED_PREFIX_DEFAULTS);
    expect(campaignOptionsOf(off).sharedPrefixes).toBeUndefined();
    expect(checkHeader("check", on, "abc")).toContain(" prefix-share=on ");
    expect(checkHeader("check", off, "abc")).not.toContain("prefix-share");
  });

  it("names runs by UTC time, seed and shard", () => {
    const c = parseCheckFlags({ seed: "42", shard: "2/4" }, { drawSeed: () => 0 });
    expect(runIdOf("check", new Date(Date.UTC(2026, 10, 22, 6, 45, 9)), c)).toBe("check-20261122-064509-42-s2of4");
  });
});

describe("executeCheck", () => {
  for (const workers of ["1", "2"]) {
    it(`runs the work given alongside once, beside the campaign, and files its results (${workers} worker(s))`, async () => {
      const dir = tmp();
      const config = parseCheckFlags(
        { property: ["run-once"], runs: "4", seed: "5", workers, reportDir: join(dir, "reports"), regressionsDir: dir },
        { drawSeed: () => 0 },
      );
      let calls = 0;
      const run = await executeCheck(config, env(), {
        command: "all",
        alongside: async () => {
          calls++;
          await new Promise<void>((resolve) => setImmediate(resolve));
          return { extra: { scenarios: { files: 0, passed: 0 } }, scenarios: [] };
        },
      });
      expect(calls).toBe(1);
      expect(run.exitCode).toBe(0);
      const summary = JSON.parse(readFileSync(run.summaryPath, "utf8")) as Record<string, unknown>;
      expect(summary.scenarios).toEqual({ files: 0, passed: 0 });
      expect(summary.runs).toBe(4);
      expect(existsSync(join(run.summaryPath, "..", "scenarios.json"))).toBe(true);
    }, 120_000);
  }

  it("with a planted fault: exit 1, a regression scenario that fails its replay, summary.json, junit.xml, the page, latest", async () => {
    const dir = tmp();
    const regs = join(dir, "regressions");
    const config = parseCheckFlags(
      {
        property: ["model-agreement", "run-once"],
        faults: "off-by-one-due-height",
        runs: "40",
        seed: "5",
        reportDir: join(dir, "reports"),
        regressionsDir: regs,
      },
      { drawSeed: () => 0 },
    );
    const e = env();
    const run = await executeCheck(config, e);
    expect(run.exitCode).toBe(1);

    // The first line: seed, commit and every derived option.
    expect(e.outLines[0]).toMatch(
      /^chainsim check seed=5 commit=abc1234 runs\/property=40 units=7 of <=50 runs shard=1\/1 time-limit=none max-commands=30 faults=off-by-one-due-height properties=model-agreement,run-once world=/,
    );

    // The regression scenario: named by content, replays to a failure.
    const files = readdirSync(regs);
    expect(files.length).toBeGreaterThanOrEqual(1);
    const file = files.find((f) => f.startsWith("model-agreement-"))!;
    expect(file).toMatch(/^model-agreement-[0-9a-f]{8}\.yaml$/);
    const path = join(regs, file);
    const parsed = parseScenario(path, readFileSync(path, "utf8"));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(runScenario(parsed.value).report.passed).toBe(false);
    expect(e.outLines).toContain(`  regression scenario: ${path} (replay: npx chainsim run ${path})`);
    expect(e.outLines.some((l) => l.startsWith("  violation: "))).toBe(true);
    expect(e.outLines.some((l) => /^ {2}fast-check seed \d+, path "[\d:]*"$/.test(l))).toBe(true);

    // summary.json, junit.xml, the page and latest.
    const runId = "check-20261122-064500-5";
    expect(run.summaryPath).toBe(join(dir, "reports", runId, "summary.json"));
    const summary = JSON.parse(readFileSync(run.summaryPath, "utf8")) as CheckSummary;
    expect(summary).toEqual(JSON.parse(JSON.stringify(run.summary)));
    expect(summary).toMatchObject({ runId, seed: 5, commit: "abc1234", verdict: "failed", exitCode: 1 });
    const ma = summary.properties.find((p) => p.property === "model-agreement")!;
    expect(ma.counterexample?.file).toBe(path);
    expect(summary.coverage.total).toBeGreaterThan(0);
    expect(summary.regions.runs).toBeGreaterThan(0);
    const junit = readFileSync(join(dir, "reports", runId, "junit.xml"), "utf8");
    expect(junit).toContain('<testcase name="model-agreement"');
    expect(junit).toContain(`Replay: npx chainsim run ${path}`);
    // Every run that records results has a page; `latest` links to the run's folder, so it opens the page.
    expect(run.pagePath).toBe(join(dir, "reports", runId, "index.html"));
    expect(e.outLines.at(-1)).toMatch(/^FAILED: \d+ runs of 2 properties; report \S+index\.html$/);
    expect(e.outLines.at(-1)?.endsWith(` ${run.pagePath}`)).toBe(true);
    const html = readFileSync(run.pagePath!, "utf8");
    expect(html).toContain(`<title>chainsim report ${runId}</title>`);
    expect(html).toContain('id="cx-model-agreement"');
    expect(html).toContain("This run replayed no scenarios");
    expect(readlinkSync(join(dir, "reports", "latest"))).toBe(runId);
    expect(readFileSync(join(dir, "reports", "latest", "index.html"), "utf8")).toBe(html);
  }, 60_000);

  it("--json prints one JSON line on stdout (the header goes to stderr); exit 0 when every property holds", async () => {
    const dir = tmp();
    const r = await cli([
      "check",
      "--property",
      "run-once",
      "--runs",
      "3",
      "--seed",
      "3",
      "--json",
      "--report-dir",
      join(dir, "reports"),
      "--regressions-dir",
      join(dir, "regs"),
    ]);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    expect(lines).toHaveLength(1);
    const s = JSON.parse(lines[0]!) as CheckSummary & { summaryPath: string };
    expect(s).toMatchObject({ seed: 3, verdict: "passed", exitCode: 0, runs: 3 });
    expect(existsSync(s.summaryPath)).toBe(true);
    expect(r.err.split("\n")[0]).toMatch(/^chainsim check seed=3 commit=\S+ /);
    expect(existsSync(join(dir, "regs"))).toBe(false);
  });
});

describe("check --bail --no-page (the mutation detector's verdict)", () => {
  it("stops at the first failure, unshrunk, and writes summary.json and junit.xml but no page and no generation statistics", async () => {
    const dir = tmp();
    const args = ["check", "--faults", "off-by-one-due-height", "--seed", "5", "--workers", "1", "--json"];
    const r = await cli([...args, "--bail", "--no-page", "--report-dir", join(dir, "r"), "--regressions-dir", dir]);
    expect(r.code).toBe(1);
    const s = JSON.parse(r.out.trim()) as CheckSummary & { summaryPath: string; pagePath?: string };
    expect(s.verdict).toBe("failed");
    expect(s.pagePath).toBeUndefined();
    expect(s.generation).toBeNull();
    const folder = join(s.summaryPath, "..");
    expect(readdirSync(folder).sort()).toEqual(["junit.xml", "summary.json"]);
    // Every unit after the failing one was skipped: exactly one failed unit, nothing ran after it.
    const statuses = s.properties.flatMap((p) => p.units.map((u) => u.status));
    expect(statuses.filter((x) => x === "failed")).toHaveLength(1);
    expect(statuses.filter((x) => x === "passed" || x === "failed").length).toBeLessThan(statuses.length);
    expect(s.properties.find((p) => p.counterexample !== undefined)?.counterexample?.numShrinks ?? 0).toBe(0);
    // `chainsim report` draws the page afterwards from the same folder.
    const page = await cli(["report", "--run-id", folder.split("/").at(-1)!, "--report-dir", join(dir, "r")]);
    expect(page.code).toBe(0);
    expect(existsSync(join(folder, "index.html"))).toBe(true);
  }, 60_000);
});

describe("replayScenarios (chainsim all)", () => {
  it("fails on a failing scenario, but only reports a failing one under the regressions directory", () => {
    const dir = tmp();
    const regs = join(dir, "regressions");
    mkdirSync(regs);
    copyFileSync("scenarios/handler-registered-applies-upgrade.yaml", join(dir, "ok.yaml"));
    const text = readFileSync("scenarios/handler-registered-applies-upgrade.yaml", "utf8");
    const broken = text.replace(/^name: .*$/m, "name: broken").replace(/^expect:\n/m, "expect:\n  height: 999999\n");
    expect(broken).not.toBe(text);
    writeFileSync(join(regs, "known.yaml"), broken);
    const lines: string[] = [];
    const io = { out: (s: string) => lines.push(s), err: (s: string) => lines.push(s), clock: () => 0 };
    const r = replayScenarios(dir, regs, io)!;
    expect(r).toMatchObject({ files: 2, passed: 1, failed: 1, knownRegressionsFailing: 1 });
    expect(lines.some((l) => l.startsWith("KNOWN REGRESSION broken"))).toBe(true);

    writeFileSync(join(dir, "bad.yaml"), broken.replace("name: broken", "name: bad"));
    const r2 = replayScenarios(dir, regs, io)!;
    expect(r2).toMatchObject({ files: 3, failed: 2, knownRegressionsFailing: 1 });
    expect(lines.some((l) => l.startsWith("FAIL bad"))).toBe(true);
  });
});
