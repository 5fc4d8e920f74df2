import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { machineTransitions } from "../../models/coverage.js";
import { err, ok, type Result } from "../core/errors.js";
import { buildReport } from "../report/build.js";
import { parseExploration, parseScenariosFile, parseSummary, scenariosFile } from "../report/load.js";
import { mergeJunit, mergeSummaries } from "../report/merge.js";
import type { MutationSummary } from "../report/mutation-summary.js";
import type { ReportInput, ScenarioRecord, SvgRenderer } from "../report/types.js";
import { ExitCode } from "./exit.js";
import { renderSvg } from "./explore.js";
import { LATEST, latestNote, latestRunId, pointLatest } from "./latest.js";

/** The files of a run directory `<report-dir>/<run-id>/` the report reads and writes. */
export const RUN_FILES = {
  summary: "summary.json",
  scenarios: "scenarios.json",
  exploration: "exploration.json",
  html: "index.html",
  screenshot: "screenshot.png",
} as const;

/** Writes `scenarios.json` (each replayed scenario's run report and trace lines) into a run directory. */
export function saveScenarios(runDir: string, runId: string, records: readonly ScenarioRecord[]): string {
  const path = join(runDir, RUN_FILES.scenarios);
  writeFileSync(path, `${JSON.stringify(scenariosFile(runId, records))}\n`);
  return path;
}

const read = (path: string): Result<string, string> => {
  try {
    return ok(readFileSync(path, "utf8"));
  } catch (e) {
    return err(`${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
};

/** Where the exploration of a run comes from: `--exploration`, the run's snapshot, or the latest exploration. */
function explorationSource(reportDir: string, runDir: string, explicit: string | undefined): string | undefined {
  if (explicit !== undefined) return explicit;
  const snapshot = join(runDir, RUN_FILES.exploration);
  if (existsSync(snapshot)) return snapshot;
  // `chainsim explore` writes reports/explore/latest.json (its DEFAULT_OUT), i.e. <report-dir>/explore/latest.json.
  const latest = join(reportDir, "explore", "latest.json");
  return existsSync(latest) ? latest : undefined;
}

/**
 * Rebuilds `<report-dir>/<run-id>/index.html` from the run's saved data: summary.json (required), scenarios.json
 * (when the run replayed scenarios) and an exploration. The exploration used is snapshotted into the run directory
 * (exploration.json), so a later rebuild shows the same one unless `exploration` names another file. Returns the
 * page's path.
 */
export async function writeRunReport(o: {
  readonly reportDir: string;
  readonly runId: string;
  readonly exploration?: string;
  readonly render?: SvgRenderer;
}): Promise<Result<string, string>> {
  const runDir = join(o.reportDir, o.runId);
  const summaryPath = join(runDir, RUN_FILES.summary);
  const summaryText = read(summaryPath);
  if (!summaryText.ok) return err(`no run ${o.runId} in ${o.reportDir}: ${summaryText.error}`);
  const summary = parseSummary(summaryPath, summaryText.value);
  if (!summary.ok) return summary;

  let scenarios: ReportInput["scenarios"] = null;
  const scenariosPath = join(runDir, RUN_FILES.scenarios);
  if (existsSync(scenariosPath)) {
    const text = read(scenariosPath);
    if (!text.ok) return text;
    const f = parseScenariosFile(scenariosPath, text.value);
    if (!f.ok) return f;
    scenarios = f.value.scenarios;
  }

  let exploration: ReportInput["exploration"] = null;
  const source = explorationSource(o.reportDir, runDir, o.exploration);
  if (source !== undefined) {
    const text = read(source);
    if (!text.ok) return text;
    const x = parseExploration(source, text.value);
    if (!x.ok) return x;
    const snapshot = join(runDir, RUN_FILES.exploration);
    if (source !== snapshot) writeFileSync(snapshot, text.value);
    exploration = { data: x.value, source: snapshot };
  }

  let mutation: ReportInput["mutation"] = null;
  const mutationPath = join(o.reportDir, "mutation", "summary.json");
  if (existsSync(mutationPath)) {
    const text = read(mutationPath);
    if (!text.ok) return text;
    try {
      mutation = { summary: JSON.parse(text.value) as MutationSummary, dir: "../mutation" };
    } catch (e) {
      return err(`${mutationPath}: not JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  const html = await buildReport(
    { summary: summary.value, scenarios, exploration, transitions: machineTransitions(), mutation },
    o.render ?? renderSvg,
  );
  const path = join(runDir, RUN_FILES.html);
  writeFileSync(path, html);
  return ok(path);
}

interface ReportFlags {
  readonly runId?: string;
  readonly reportDir: string;
  readonly exploration?: string;
  readonly json?: boolean;
  readonly merge?: readonly string[];
}

/** The check runs (`check-*` folders with a summary) directly under `dir`, by name. */
function checkRunsIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name.startsWith("check-") && existsSync(join(dir, e.name, RUN_FILES.summary)))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * When `dir` is a report folder (its runs below it) rather than a run, what to pass instead: its `check-*` run
 * folders. Undefined when `dir` holds a summary, or holds no check run (the read then says what is missing).
 */
function reportFolderHint(dir: string): string | undefined {
  if (existsSync(join(dir, RUN_FILES.summary))) return undefined;
  const runs = checkRunsIn(dir);
  if (runs.length === 0) return undefined;
  const shown = runs.slice(0, 3).map((r) => join(dir, r));
  return (
    `${dir} is a report folder, not a run: --merge takes the run folders of the shards, its check-* folders ` +
    `(${runs.length} here: ${shown.join(" ")}${runs.length > 3 ? " ..." : ""})`
  );
}

/**
 * `--merge <dir>...`: the run directories of a campaign's shards (each with summary.json and junit.xml) merged into
 * one run `<report-dir>/<run-id>/` (src/report/merge.ts); it becomes the latest once its page is written. Returns the
 * run id.
 */
function mergeRuns(dirs: readonly string[], reportDir: string, runId: string | undefined): Result<string, string> {
  const summaries = [];
  const junits = [];
  for (const dir of dirs) {
    const summaryPath = join(dir, RUN_FILES.summary);
    const notRun = reportFolderHint(dir);
    if (notRun !== undefined) return err(notRun);
    const text = read(summaryPath);
    if (!text.ok) return text;
    const summary = parseSummary(summaryPath, text.value);
    if (!summary.ok) return summary;
    summaries.push({ source: summaryPath, summary: summary.value });
    const junitPath = join(dir, "junit.xml");
    const junit = read(junitPath);
    if (!junit.ok) return junit;
    junits.push({ source: junitPath, text: junit.value });
  }
  const merged = mergeSummaries(summaries);
  if (!merged.ok) return merged;
  const junit = mergeJunit(junits);
  if (!junit.ok) return junit;
  const id = runId ?? merged.value.runId;
  const out = join(reportDir, id);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, RUN_FILES.summary), `${JSON.stringify({ ...merged.value, runId: id }, null, 2)}\n`);
  writeFileSync(join(out, "junit.xml"), junit.value);
  return ok(id);
}

export function registerReport(
  program: Command,
  io: { out: (s: string) => void; err: (s: string) => void },
  setExit: (c: number) => void,
): void {
  program
    .command("report")
    .description(
      "rebuild a run's HTML report (<report-dir>/<run-id>/index.html) from its saved summary.json, scenarios.json and exploration; prints its path, and without --run-id which run it rebuilt (exit 0, 2 no such run or bad files)",
    )
    .option("--run-id <id>", "the run to rebuild (default: the newest, <report-dir>/latest)")
    .option("--report-dir <dir>", "the reports directory", "reports")
    .option(
      "--exploration <file>",
      "the cancel-window exploration to show (default: the run's exploration.json, else the latest exploration)",
    )
    .option(
      "--merge <dir...>",
      "merge the run directories of a sharded campaign (chainsim check --shard i/N) into one run and rebuild its report",
    )
    .option("--json", 'print {"runId","path"} as one JSON object instead of the path')
    .action(async (f: ReportFlags) => {
      let runId = f.runId ?? latestRunId(f.reportDir);
      if (f.merge !== undefined) {
        const merged = mergeRuns(f.merge, f.reportDir, f.runId);
        if (!merged.ok) {
          io.err(`Error: ${merged.error}`);
          setExit(ExitCode.usage);
          return;
        }
        runId = merged.value;
      }
      if (runId === undefined) {
        io.err(`Error: no run in ${f.reportDir} (no ${join(f.reportDir, LATEST)}); run npm start first`);
        setExit(ExitCode.usage);
        return;
      }
      const r = await writeRunReport({
        reportDir: f.reportDir,
        runId,
        ...(f.exploration === undefined ? {} : { exploration: f.exploration }),
      });
      if (!r.ok) {
        io.err(`Error: ${r.error}`);
        setExit(ExitCode.usage);
        return;
      }
      if (f.merge !== undefined) {
        const note = latestNote(f.reportDir, pointLatest(f.reportDir, runId));
        if (note !== undefined) io.err(note);
      }
      // Without --run-id (and --merge, which names the run it makes), say which run was rebuilt.
      const named = f.runId !== undefined || f.merge !== undefined;
      io.out(
        f.json === true
          ? JSON.stringify({ runId, path: r.value })
          : named
            ? r.value
            : `rebuilt the newest run ${runId}: ${r.value}`,
      );
      setExit(ExitCode.ok);
    });
}
