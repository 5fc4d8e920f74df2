import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { comparableSummary, sampleRecord, sampleSummary } from "../../test/kit/report.js";
import { exploreCancelWindow } from "../explore/explore.js";
import { DEFAULT_CONFIG } from "../explore/model.js";
import type { CheckSummary } from "../harness/summary.js";
import { parseScenariosFile } from "../report/load.js";
import type { ScenarioRecord, SvgRenderer } from "../report/types.js";
import { replayScenarios } from "./all.js";
import { latestRunId, pointLatest } from "./latest.js";
import { main } from "./main.js";
import { RUN_FILES, saveScenarios, writeRunReport } from "./report.js";

const tmp = () => mkdtempSync(join(tmpdir(), "chainsim-report-"));
const RUN = "all-20260101-000000-42";
/** A renderer that names the spec's title or first mark, so tests can see which charts were drawn without vega. */
const stub: SvgRenderer = async (spec) => `<svg data-spec="${JSON.stringify(spec).length}"></svg>`;

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  vi.spyOn(process.stdout, "write").mockImplementation((s) => {
    out += String(s);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((s) => {
    err += String(s);
    return true;
  });
  try {
    return { code: await main(args), out, err };
  } finally {
    vi.restoreAllMocks();
  }
}

afterEach(() => vi.restoreAllMocks());

/**
 * A report directory with one run (summary.json, and scenarios.json unless `scenarios` is false); `latest` links to
 * it, or is the text file naming it (`latest: "file"`: where links are refused, and what older versions wrote).
 */
function runDir(o: { scenarios?: boolean; latest?: "link" | "file" } = {}): { dir: string; run: string } {
  const dir = tmp();
  const run = join(dir, RUN);
  mkdirSync(run, { recursive: true });
  writeFileSync(join(run, RUN_FILES.summary), JSON.stringify(sampleSummary()));
  if (o.scenarios !== false) saveScenarios(run, RUN, [sampleRecord()]);
  if (o.latest === "file") writeFileSync(join(dir, "latest"), `${RUN}\n`);
  else expect(pointLatest(dir, RUN)).toEqual({ kind: "link" });
  return { dir, run };
}

function exploration(seed: number): string {
  const x = exploreCancelWindow({ ...DEFAULT_CONFIG, runs: 5, seed }, {});
  if (!x.ok) throw new Error(x.error);
  return JSON.stringify(x.value);
}

describe("saveScenarios", () => {
  it("writes scenarios.json that reads back as the records", () => {
    const dir = tmp();
    const path = saveScenarios(dir, "r", [sampleRecord()]);
    const back = parseScenariosFile(path, readFileSync(path, "utf8"));
    expect(back.ok && back.value).toMatchObject({ format: "chainsim-scenarios/1", runId: "r" });
    expect(back.ok && back.value.scenarios[0]!.trace.length).toBeGreaterThan(10);
  });
});

describe("writeRunReport", () => {
  it("writes index.html from the run's saved data", async () => {
    const { dir, run } = runDir();
    const r = await writeRunReport({ reportDir: dir, runId: RUN, render: stub });
    expect(r).toEqual({ ok: true, value: join(run, RUN_FILES.html) });
    const html = readFileSync(join(run, RUN_FILES.html), "utf8");
    expect(html).toContain('id="scenario-sample-upgrade"');
    expect(html).toContain("No exploration yet.");
  });

  it("shows a run without scenarios.json (chainsim check) with a note", async () => {
    const { dir, run } = runDir({ scenarios: false });
    await writeRunReport({ reportDir: dir, runId: RUN, render: stub });
    expect(readFileSync(join(run, RUN_FILES.html), "utf8")).toContain("This run replayed no scenarios");
  });

  it("snapshots the latest exploration into the run, so a rebuild shows the same one", async () => {
    const { dir, run } = runDir();
    mkdirSync(join(dir, "explore"));
    writeFileSync(join(dir, "explore", "latest.json"), exploration(1));
    await writeRunReport({ reportDir: dir, runId: RUN, render: stub });
    const first = readFileSync(join(run, RUN_FILES.html), "utf8");
    expect(first).toContain("seed 1");
    expect(readFileSync(join(run, RUN_FILES.exploration), "utf8")).toBe(exploration(1));

    writeFileSync(join(dir, "explore", "latest.json"), exploration(2));
    await writeRunReport({ reportDir: dir, runId: RUN, render: stub });
    expect(readFileSync(join(run, RUN_FILES.html), "utf8")).toBe(first);

    const other = join(dir, "other.json");
    writeFileSync(other, exploration(2));
    await writeRunReport({ reportDir: dir, runId: RUN, exploration: other, render: stub });
    expect(readFileSync(join(run, RUN_FILES.html), "utf8")).toContain("seed 2");
  }, 30_000);

  it("names the problem when the run or a file is missing or invalid", async () => {
    const { dir, run } = runDir();
    const none = await writeRunReport({ reportDir: dir, runId: "nope", render: stub });
    expect(none).toMatchObject({ ok: false, error: expect.stringMatching(/^no run nope in /) });
    writeFileSync(join(run, RUN_FILES.scenarios), "{}");
    const bad = await writeRunReport({ reportDir: dir, runId: RUN, render: stub });
    expect(bad).toMatchObject({ ok: false, error: expect.stringContaining("not a chainsim scenarios file") });
    saveScenarios(run, RUN, []);
    const missing = await writeRunReport({ reportDir: dir, runId: RUN, exploration: join(dir, "x.json") });
    expect(missing).toMatchObject({ ok: false, error: expect.stringContaining("x.json") });
  });
});

describe("chainsim report", () => {
  it.each(["link", "file"] as const)(
    "rebuilds the newest run by default (latest as a %s) and says which run it rebuilt",
    async (latest) => {
      const { dir, run } = runDir({ latest });
      expect(latestRunId(dir)).toBe(RUN);
      const r = await cli(["report", "--report-dir", dir]);
      expect(r).toMatchObject({ code: 0, out: `rebuilt the newest run ${RUN}: ${join(run, RUN_FILES.html)}\n` });
      const html = readFileSync(join(run, RUN_FILES.html), "utf8");
      expect((html.match(/<svg\b/g) ?? []).length).toBe(4); // properties, regions, model, one scenario
      if (latest === "link") expect(readFileSync(join(dir, "latest", RUN_FILES.html), "utf8")).toBe(html);
    },
    30_000,
  );

  it("with --run-id prints only the page's path", async () => {
    const { dir, run } = runDir();
    const r = await cli(["report", "--report-dir", dir, "--run-id", RUN]);
    expect(r).toMatchObject({ code: 0, out: `${join(run, RUN_FILES.html)}\n` });
  }, 30_000);

  it("--merge makes the merged run the newest: latest links to its folder", async () => {
    const { dir } = runDir();
    const shard = join(dir, "shard-1");
    mkdirSync(shard);
    writeFileSync(join(shard, RUN_FILES.summary), JSON.stringify(sampleSummary()));
    writeFileSync(
      join(shard, "junit.xml"),
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="s" tests="0" failures="0"></testsuite></testsuites>\n',
    );
    const r = await cli(["report", "--report-dir", dir, "--merge", shard, "--run-id", "merged"]);
    expect(r, r.err).toMatchObject({ code: 0, out: `${join(dir, "merged", RUN_FILES.html)}\n` });
    expect(latestRunId(dir)).toBe("merged");
    expect(readFileSync(join(dir, "latest", RUN_FILES.html), "utf8")).toContain(
      "<title>chainsim report merged</title>",
    );
  }, 30_000);

  it("--merge given a report folder names the check-* run folders to pass instead", async () => {
    const reports = tmp();
    for (const run of ["check-20261124-120000-1", "check-20261124-120500-2"]) {
      mkdirSync(join(reports, run));
      writeFileSync(join(reports, run, RUN_FILES.summary), JSON.stringify(sampleSummary()));
    }
    const r = await cli(["report", "--report-dir", tmp(), "--merge", reports]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `Error: ${reports} is a report folder, not a run: --merge takes the run folders of the shards, its check-* folders (2 here: ${join(reports, "check-20261124-120000-1")} ${join(reports, "check-20261124-120500-2")})\n`,
    );
  });

  it("exits 2 with a message when there is no run", async () => {
    const dir = tmp();
    const r = await cli(["report", "--report-dir", dir]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`no run in ${dir}`);
    const r2 = await cli(["report", "--report-dir", dir, "--run-id", "x"]);
    expect(r2.code).toBe(2);
    expect(r2.err).toMatch(/^Error: no run x in /);
  });
});

describe("the page's replay command", () => {
  it("reproduces the campaign: run as printed on the page, it gives the same summary", async () => {
    const dir = tmp();
    const to = (name: string) => ["--json", "--report-dir", join(dir, name), "--regressions-dir", join(dir, "regs")];
    const shaped = ["--seed", "11", "--runs", "60", "--time-limit", "10m0s", "--property", "run-once"];
    const more = [
      "--property",
      "model-agreement",
      "--max-commands",
      "6",
      "--faults",
      "ignore-cancel",
      "--shard",
      "2/3",
    ];
    const first = await cli(["check", ...shaped, ...more, ...to("first")]);
    expect(first.code, first.err).toBeLessThan(2);
    const s1 = JSON.parse(first.out) as CheckSummary & { pagePath: string };
    const html = readFileSync(s1.pagePath, "utf8");
    const replay = /Replay the campaign with <code>npx chainsim ([^<]*)<\/code>/.exec(html)?.[1];
    expect(replay).toBe(`check ${[...shaped, ...more].join(" ")}`);

    const second = await cli([...replay!.split(" "), ...to("second")]);
    const s2 = JSON.parse(second.out) as CheckSummary;
    expect(s2.runs).toBeGreaterThan(0);
    expect(comparableSummary(s2)).toEqual(comparableSummary(s1));
  }, 120_000);
});

describe("replayScenarios keeps what the report needs", () => {
  it("hands each scenario's report and trace to `keep`, marking failing known regressions", () => {
    const dir = tmp();
    const regs = join(dir, "regressions");
    mkdirSync(regs);
    copyFileSync("scenarios/handler-registered-applies-upgrade.yaml", join(dir, "ok.yaml"));
    const text = readFileSync("scenarios/handler-registered-applies-upgrade.yaml", "utf8");
    writeFileSync(join(regs, "known.yaml"), text.replace(/^expect:\n/m, "expect:\n  height: 999999\n"));
    const kept: ScenarioRecord[] = [];
    const io = { out: () => {}, err: () => {}, clock: () => 0 };
    replayScenarios(dir, regs, io, (r) => kept.push(r));
    expect(kept.map((r) => [r.report.passed, r.knownRegression === true])).toEqual([
      [true, false],
      [false, true],
    ]);
    for (const r of kept) expect(JSON.parse(r.trace[0]!)).toMatchObject({ t: "genesis" });
    expect(existsSync(join(dir, RUN_FILES.scenarios))).toBe(false);
  });
});
