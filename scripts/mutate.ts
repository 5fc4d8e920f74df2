// `npm run mutate`: the mutation score of chainsim's detectors (docs/mutation.md). Runs StrykerJS once per detector
// over the decision logic (mutation/detectors.mjs), then merges the reports into <out>/summary.json and prints a
// table per file and detector. Stryker's own HTML report of each detector is <out>/<detector>/index.html.
//
//   npm run mutate                                   every detector, every file (the full run)
//   npm run mutate -- --ci                           CI's bounded subset: mutation/threshold.json's `ci`,
//                                                    detector → the files it mutates there
//   npm run mutate -- --detectors scenarios --files src/chain/consensus.ts --seed 7
//
// Every run checks the floors of mutation/threshold.json (`survivors`: per file and detector, the most mutants left
// unsettled, src/report/mutation-floors.ts) for the files and detectors it scored. A detector exit that is no
// verdict (a harness crash, an environment failure, a start timeout: src/report/mutation-verdict.ts) is not a kill.
//
// Exit: 0 done (within the floors, and at or above --threshold if given), 1 a floor or the threshold broken, 2 bad
// flags, 3 Stryker failed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Command, CommanderError } from "commander";
import { unitDetectorTests } from "../mutation/related-tests.mjs";
import { floorBreaches, type MutationFloors, parseFloors } from "../src/report/mutation-floors.js";
import {
  DETECTOR_NAMES,
  type DetectorName,
  type DetectorTiming,
  type MutationSummary,
  mutationTable,
  type StrykerReport,
  summarizeMutation,
} from "../src/report/mutation-summary.js";

interface Flags {
  readonly detectors?: string;
  readonly files?: string;
  readonly out: string;
  readonly concurrency?: string;
  readonly threshold?: string;
  readonly ci?: boolean;
  readonly seed?: string;
  readonly timeoutMs?: string;
  readonly prefixShare?: boolean;
}

const program = new Command("mutate")
  .description("mutation score of the campaign, the scenarios and the unit suite over the decision logic")
  .option("--detectors <list>", `comma-separated detectors (default: ${DETECTOR_NAMES.join(",")})`)
  .option(
    "--files <list>",
    "comma-separated files (or file:start-end line ranges) to mutate, or 'ci' for CI's subset (default: the decision logic)",
  )
  .option("--out <dir>", "report folder", "reports/mutation")
  .option("--concurrency <n>", "Stryker workers (default: the cores available)")
  .option("--threshold <percent>", "exit 1 when a detector's score over all files is below this")
  .option("--ci", "CI's bounded run: mutation/threshold.json's `ci` (detector → files)")
  .option("--seed <n>", "the campaign detector's seed (default 20261124)")
  .option("--prefix-share", "the campaign detector with shared command prefixes (check --prefix-share)")
  .option(
    "--timeout-ms <ms>",
    "added to twice the unmutated run's time to make Stryker's timeout (default 20000); raise it on a loaded machine",
  )
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });

function fail(message: string, code: number): never {
  process.stderr.write(`mutate: ${message}\n`);
  process.exit(code);
}

let flags: Flags;
try {
  flags = program.parse(process.argv).opts<Flags>();
} catch (e) {
  if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
  throw e;
}

/** The floors and CI's subset (mutation/threshold.json). */
const floors: MutationFloors = (() => {
  const parsed = parseFloors(readFileSync("mutation/threshold.json", "utf8"));
  if (!parsed.ok) fail(`mutation/threshold.json: ${parsed.error}`, 2);
  return parsed.value;
})();
const detectors = (flags.detectors ?? (flags.ci ? Object.keys(floors.ci) : DETECTOR_NAMES).join(","))
  .split(",")
  .map((d) => d.trim());
for (const d of detectors)
  if (!(DETECTOR_NAMES as readonly string[]).includes(d))
    fail(`--detectors: unknown detector "${d}" (known: ${DETECTOR_NAMES.join(", ")})`, 2);
const asked = flags.files ?? (flags.ci ? "ci" : undefined);
/**
 * The files detector `d` mutates: `--files`; or, for `ci`, the detector's CI files (every CI file when CI does not
 * run that detector); or undefined: the detector's own (mutation/detectors.mjs).
 */
const filesOf = (d: string): string | undefined =>
  asked !== "ci" ? asked : (floors.ci[d] ?? [...new Set(Object.values(floors.ci).flat())]).join(",");
// A file, or `file:start-end` lines of it (Stryker's syntax: the mutants of those lines only).
const fileOf = (f: string) => f.replace(/:\d+-\d+$/, "");
for (const d of detectors)
  for (const f of filesOf(d)?.split(",") ?? [])
    if (!existsSync(fileOf(f))) fail(`--files: no such file "${fileOf(f)}"`, 2);
if (flags.seed !== undefined && !/^(0|[1-9]\d{0,9})$/.test(flags.seed))
  fail(`--seed: expected a non-negative integer, got "${flags.seed}"`, 2);
const threshold = flags.threshold !== undefined ? Number(flags.threshold) : undefined;
if (threshold !== undefined && !(threshold >= 0 && threshold <= 100))
  fail(`--threshold: expected a percentage from 0 to 100, got "${flags.threshold}"`, 2);
if (flags.concurrency !== undefined && !/^[1-9]\d*$/.test(flags.concurrency))
  fail(`--concurrency: expected a positive integer, got "${flags.concurrency}"`, 2);
if (flags.timeoutMs !== undefined && !/^[1-9]\d{0,7}$/.test(flags.timeoutMs))
  fail(`--timeout-ms: expected a positive integer of milliseconds, got "${flags.timeoutMs}"`, 2);

const out = resolve(flags.out);
const reports: Partial<Record<DetectorName, StrykerReport>> = {};
const timingsByDetector: Partial<Record<DetectorName, DetectorTiming[]>> = {};
const started = performance.now();
for (const d of detectors as DetectorName[]) {
  const dir = join(out, d);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const timings = join(dir, "timings.jsonl");
  const t0 = performance.now();
  process.stderr.write(`mutate: ${d} ...\n`);
  const files = filesOf(d);
  if (d === "units") {
    let tests: string[] = [];
    try {
      tests = unitDetectorTests(files);
    } catch (e) {
      fail(e instanceof Error ? e.message : String(e), 2);
    }
    process.stderr.write(`mutate: units: ${tests.length} related test file(s): ${tests.join(" ")}\n`);
  }
  const r = spawnSync("npx", ["stryker", "run", "mutation/stryker.config.mjs"], {
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      MUTATE_DETECTOR: d,
      MUTATE_OUT: dir,
      MUTATE_TIMINGS: timings,
      ...(files === undefined ? {} : { MUTATE_FILES: files }),
      ...(flags.concurrency === undefined ? {} : { MUTATE_CONCURRENCY: flags.concurrency }),
      ...(flags.seed === undefined ? {} : { MUTATE_SEED: flags.seed }),
      ...(flags.timeoutMs === undefined ? {} : { MUTATE_TIMEOUT_MS: flags.timeoutMs }),
      ...(flags.prefixShare === true ? { MUTATE_PREFIX_SHARE: "1" } : {}),
    },
  });
  if (r.status !== 0 || !existsSync(join(dir, "mutation.json")))
    fail(`Stryker failed for detector ${d} (exit ${r.status ?? r.signal})`, 3);
  reports[d] = JSON.parse(readFileSync(join(dir, "mutation.json"), "utf8")) as StrykerReport;
  process.stderr.write(`mutate: ${d} done in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  if (existsSync(timings))
    timingsByDetector[d] = readFileSync(timings, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as DetectorTiming);
}

const summary: MutationSummary & { wallS: number; filesMutated: string; seed: number; prefixShare: boolean } = {
  ...summarizeMutation(reports, timingsByDetector.campaign ?? [], timingsByDetector),
  wallS: Math.round((performance.now() - started) / 1000),
  filesMutated: detectors.map((d) => `${d}: ${filesOf(d) ?? "its files (mutation/detectors.mjs)"}`).join("; "),
  seed: Number(flags.seed ?? 20261124),
  prefixShare: flags.prefixShare === true,
};
writeFileSync(join(out, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
for (const l of mutationTable(summary)) process.stdout.write(`${l}\n`);
const ttk = summary.campaignTimeToKillS;
if (ttk !== null)
  process.stdout.write(
    `campaign time to kill: median ${ttk.medianS} s, p90 ${ttk.p90S} s${
      ttk.cpu === null ? "" : ` (CPU: median ${ttk.cpu.medianS} s, p90 ${ttk.cpu.p90S} s)`
    }${ttk.search === null ? "" : `; search until the first failing run: median ${ttk.search.medianS} s, p90 ${ttk.search.p90S} s`}\n`,
  );
process.stdout.write(
  detectors.includes("campaign") && detectors.includes("scenarios")
    ? `${summary.survivors.length} survivor(s) of campaign+scenarios; ${join(out, "summary.json")}\n`
    : `survivors of campaign+scenarios need both detectors; ${join(out, "summary.json")}\n`,
);
const all = summary.files.all ?? {};
for (const d of summary.detectors) {
  const nv = all[d]?.noVerdict;
  if (nv !== undefined && nv.harnessCrash + nv.environment + nv.startTimeout > 0)
    process.stdout.write(
      `${d}: no verdict (not kills): ${nv.harnessCrash} harness crash(es), ${nv.environment} environment failure(s), ${nv.startTimeout} start timeout(s)\n`,
    );
}
const broken = floorBreaches(summary, floors);
if (threshold !== undefined)
  for (const d of detectors)
    if ((all[d]?.score ?? 0) < threshold) broken.push(`${d}: score ${all[d]?.score ?? 0}% < ${threshold}%`);
if (broken.length > 0) fail(`below the floors (mutation/threshold.json):\n  ${broken.join("\n  ")}`, 1);
