// `npm run mutate`: the mutation score of chainsim's detectors (docs/mutation.md). Runs StrykerJS once per detector
// over the decision logic (mutation/detectors.mjs), then merges the reports into <out>/summary.json and prints a
// table per file and detector. Stryker's own HTML report of each detector is <out>/<detector>/index.html.
//
//   npm run mutate                                   every detector, every file (the full run)
//   npm run mutate -- --ci                           CI's bounded subset: the PreBlocker, the detectors named in
//                                                    mutation/threshold.json, failing below their floors
//   npm run mutate -- --detectors scenarios --files src/chain/consensus.ts
//
// Exit: 0 done (and at or above the threshold, if one applies), 1 a score below the threshold, 2 bad flags,
// 3 Stryker failed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Command, CommanderError } from "commander";
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
}

const program = new Command("mutate")
  .description("mutation score of the campaign, the scenarios and the unit suite over the decision logic")
  .option("--detectors <list>", `comma-separated detectors (default: ${DETECTOR_NAMES.join(",")})`)
  .option("--files <list>", "comma-separated files to mutate, or 'ci' for CI's subset (default: the decision logic)")
  .option("--out <dir>", "report folder", "reports/mutation")
  .option("--concurrency <n>", "Stryker workers (default: the cores available)")
  .option("--threshold <percent>", "exit 1 when a detector's score over all files is below this")
  .option("--ci", "CI's bounded run: --files ci, the detectors and floors of mutation/threshold.json")
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

/** CI's floors: detector → the lowest score CI accepts over CI's subset (mutation/threshold.json). */
const ciFloors = (): ReadonlyMap<string, number> => {
  const t = JSON.parse(readFileSync("mutation/threshold.json", "utf8")) as Record<string, unknown>;
  const floors = new Map<string, number>();
  for (const [d, v] of Object.entries(t)) {
    if (typeof v !== "number") fail(`mutation/threshold.json: ${d}: expected a percentage`, 2);
    floors.set(d, v);
  }
  if (floors.size === 0) fail("mutation/threshold.json: no detector", 2);
  return floors;
};
const floors = flags.ci ? ciFloors() : undefined;
const detectors = (flags.detectors ?? (floors !== undefined ? [...floors.keys()].join(",") : DETECTOR_NAMES.join(",")))
  .split(",")
  .map((d) => d.trim());
for (const d of detectors)
  if (!(DETECTOR_NAMES as readonly string[]).includes(d))
    fail(`--detectors: unknown detector "${d}" (known: ${DETECTOR_NAMES.join(", ")})`, 2);
const files = flags.files ?? (flags.ci ? "ci" : undefined);
if (files !== undefined && files !== "ci")
  for (const f of files.split(",")) if (!existsSync(f)) fail(`--files: no such file "${f}"`, 2);
const threshold = flags.threshold !== undefined ? Number(flags.threshold) : undefined;
if (threshold !== undefined && !(threshold >= 0 && threshold <= 100))
  fail(`--threshold: expected a percentage from 0 to 100, got "${flags.threshold}"`, 2);
if (flags.concurrency !== undefined && !/^[1-9]\d*$/.test(flags.concurrency))
  fail(`--concurrency: expected a positive integer, got "${flags.concurrency}"`, 2);

const out = resolve(flags.out);
const reports: Partial<Record<DetectorName, StrykerReport>> = {};
let campaignTimings: DetectorTiming[] = [];
const started = performance.now();
for (const d of detectors as DetectorName[]) {
  const dir = join(out, d);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const timings = join(dir, "timings.jsonl");
  const t0 = performance.now();
  process.stderr.write(`mutate: ${d} ...\n`);
  const r = spawnSync("npx", ["stryker", "run", "mutation/stryker.config.mjs"], {
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      MUTATE_DETECTOR: d,
      MUTATE_OUT: dir,
      MUTATE_TIMINGS: timings,
      ...(files === undefined ? {} : { MUTATE_FILES: files }),
      ...(flags.concurrency === undefined ? {} : { MUTATE_CONCURRENCY: flags.concurrency }),
    },
  });
  if (r.status !== 0 || !existsSync(join(dir, "mutation.json")))
    fail(`Stryker failed for detector ${d} (exit ${r.status ?? r.signal})`, 3);
  reports[d] = JSON.parse(readFileSync(join(dir, "mutation.json"), "utf8")) as StrykerReport;
  process.stderr.write(`mutate: ${d} done in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  if (d === "campaign" && existsSync(timings))
    campaignTimings = readFileSync(timings, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as DetectorTiming);
}

const summary: MutationSummary & { wallS: number; files_mutated: string } = {
  ...summarizeMutation(reports, campaignTimings),
  wallS: Math.round((performance.now() - started) / 1000),
  files_mutated: files ?? "decision logic",
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
const floorOf = (d: string): number | undefined => threshold ?? floors?.get(d);
const below = detectors.filter((d) => {
  const floor = floorOf(d);
  return floor !== undefined && (summary.files.all?.[d]?.score ?? 0) < floor;
});
if (below.length > 0)
  fail(
    `score below the threshold for: ${below.map((d) => `${d} (${summary.files.all?.[d]?.score ?? 0}% < ${floorOf(d)}%)`).join(", ")}`,
    1,
  );
