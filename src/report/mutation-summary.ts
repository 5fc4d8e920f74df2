/**
 * The mutation score of chainsim's detectors, from StrykerJS's JSON reports (mutation-testing-report-schema).
 *
 * Contract: pure. One report per detector, all over the same mutated files; a mutant is identified across reports
 * by file, span, mutator and replacement (Stryker numbers mutants per run). Per file and per detector it counts
 * mutants, killed, survived (including "no coverage"), timeout and the score = (killed + timeout) / valid, where
 * valid excludes ignored (disabled by a `// Stryker disable` directive: documented equivalents) and compile or
 * runtime errors of the mutated program itself. The combined row "campaign+scenarios" kills a mutant that either
 * kills. Time to kill is the campaign's seconds from start to its first failing run, median and p90 over the
 * mutants it killed.
 *
 * A detector exit that is no verdict on the mutant (mutation-verdict.ts: a harness crash, an environment failure, a
 * timeout of the detector's own start) is not a kill, whatever Stryker's status: given the detector's timings it is
 * counted apart (`noVerdict`), outside the score, and counts against a floor like a survivor (`unsettled`).
 */
import { KILLING_VERDICTS, NO_VERDICT, type NoVerdict } from "./mutation-verdict.js";

export const DETECTOR_NAMES = ["campaign", "scenarios", "units", "devnet"] as const;
export type DetectorName = (typeof DETECTOR_NAMES)[number];

/** The part of a Stryker mutant this summary reads. */
export interface StrykerMutant {
  readonly id: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly location: {
    readonly start: { readonly line: number; readonly column: number };
    readonly end?: { readonly line: number; readonly column: number };
  };
  readonly status: string;
  /** How many tests ran against the mutant (Stryker's vitest runner: 0 when no test file of the run loaded). */
  readonly testsCompleted?: number;
}
export interface StrykerReport {
  readonly files: Readonly<Record<string, { readonly mutants: readonly StrykerMutant[] }>>;
}

/** One line of a detector's timings file: which mutant ran, how long the detector took, how it exited. */
export interface DetectorTiming {
  readonly mutant: string | null;
  readonly ms: number;
  /**
   * CPU time (user + system) the detector used over the same span. Absent in timings written before it was recorded.
   * Unlike `ms`, it does not grow with the machine's load, so time-to-kill figures taken on a busy machine compare.
   */
  readonly cpuMs?: number;
  /** The campaign's own time until it stopped (the units that ran; under `--bail`, up to the first failing run). */
  readonly searchMs?: number;
  readonly exitCode: number;
  /** The detector's verdict (mutation-verdict.ts); absent in timings written before verdicts were recorded. */
  readonly verdict?: string;
  /** `"loaded"`: a mark written once the sources loaded, before the command ran (no exit code yet). */
  readonly phase?: "loaded";
}

/**
 * The campaign's time to kill over the mutants it killed: the detector's wall seconds (process work after the sources
 * load, report included), its CPU seconds, and the search seconds until the first failing run, where recorded.
 */
export interface TimeToKill {
  readonly killed: number;
  readonly medianS: number;
  readonly p90S: number;
  /** Over the kills whose timing recorded CPU time; null when none did. */
  readonly cpu: { readonly medianS: number; readonly p90S: number } | null;
  /** Over the kills whose timing recorded the campaign's search time; null when none did. */
  readonly search: { readonly medianS: number; readonly p90S: number } | null;
}

export interface ScoreRow {
  readonly mutants: number;
  readonly killed: number;
  readonly survived: number;
  readonly timeout: number;
  readonly ignored: number;
  readonly errors: number;
  /** Exits that are no verdict on the mutant, by kind: neither kills nor survivors, outside the score. */
  readonly noVerdict: Readonly<Record<NoVerdict, number>>;
  /** Survivors plus no-verdict mutants: what a floor counts (a mutant not known to be killed). */
  readonly unsettled: number;
  /** Percent of valid mutants killed or timed out; null when no mutant is valid. */
  readonly score: number | null;
}

export interface Survivor {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly mutator: string;
  readonly replacement: string;
}

export interface MutationSummary {
  readonly detectors: readonly string[];
  /** file → detector (or "campaign+scenarios") → score row; the file "all" sums every file. */
  readonly files: Readonly<Record<string, Readonly<Record<string, ScoreRow>>>>;
  /** Mutants neither the campaign nor the scenarios kill, in file and position order. */
  readonly survivors: readonly Survivor[];
  readonly campaignTimeToKillS: TimeToKill | null;
}

const KILLED = new Set(["Killed"]);
/** The recorded verdicts that are kills (mutation-verdict.ts). */
const KILLS: ReadonlySet<string> = KILLING_VERDICTS;
const TIMEOUT = new Set(["Timeout"]);
const SURVIVED = new Set(["Survived", "NoCoverage"]);
const IGNORED = new Set(["Ignored", "Pending"]);

const keyOf = (file: string, m: StrykerMutant): string => {
  const { start, end } = m.location;
  return `${file}:${start.line}:${start.column}-${end?.line}:${end?.column}:${m.mutatorName}:${m.replacement ?? ""}`;
};

type Outcome = "killed" | "timeout" | "survived" | "ignored" | "error" | NoVerdict;
const outcomeOf = (status: string): Outcome =>
  KILLED.has(status)
    ? "killed"
    : TIMEOUT.has(status)
      ? "timeout"
      : SURVIVED.has(status)
        ? "survived"
        : IGNORED.has(status)
          ? "ignored"
          : "error";

function row(outcomes: readonly Outcome[]): ScoreRow {
  const count = (o: Outcome) => outcomes.filter((x) => x === o).length;
  const killed = count("killed");
  const timeout = count("timeout");
  const survived = count("survived");
  const valid = killed + timeout + survived;
  const noVerdict = Object.fromEntries(NO_VERDICT.map((k) => [k, count(k)])) as Record<NoVerdict, number>;
  return {
    mutants: outcomes.length,
    killed,
    survived,
    timeout,
    ignored: count("ignored"),
    errors: count("error"),
    noVerdict,
    unsettled: survived + NO_VERDICT.reduce((n, k) => n + noVerdict[k], 0),
    score: valid === 0 ? null : Math.round((10_000 * (killed + timeout)) / valid) / 100,
  };
}

/** The value below which a share `q` of the sorted values lies (nearest rank). */
function quantile(sorted: readonly number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] ?? 0;
}

/**
 * The mutants (by Stryker id) of one detector's timings whose run was no verdict. A mutant Stryker timed out is a
 * start timeout when its detector never marked its sources loaded (`timedOut` lists Stryker's Timeout ids).
 */
export function noVerdictsOf(
  timings: readonly DetectorTiming[],
  timedOut: readonly string[] = [],
): ReadonlyMap<string, NoVerdict> {
  const out = new Map<string, NoVerdict>();
  const loaded = new Set<string>();
  for (const t of timings) {
    if (t.mutant === null) continue;
    if (t.phase === "loaded") loaded.add(t.mutant);
    else if (t.verdict === "harnessCrash" || t.verdict === "environment") out.set(t.mutant, t.verdict);
    else out.delete(t.mutant);
  }
  for (const id of timedOut) if (!loaded.has(id)) out.set(id, "startTimeout");
  return out;
}

/**
 * A mutant Stryker calls survived though no test ran against it: the vitest runner collects no test from a file
 * that fails to load (e.g. a mutant that makes its module throw when it loads, `+` on a bigint literal), so the
 * detector never judged it: an environment failure, no verdict. A mutant no test covers is `NoCoverage`, not this.
 */
const noTestRan = (m: StrykerMutant): boolean => m.status === "Survived" && m.testsCompleted === 0;

/** One mutant across the detectors' reports: its file, Stryker's record (from the first report) and each outcome. */
interface MutantOutcomes {
  readonly file: string;
  readonly m: StrykerMutant;
  readonly by: Partial<Record<DetectorName, Outcome>>;
}

/**
 * Every mutant (by `keyOf`) with its outcome per detector; a kill or timeout the detector's timings show to be no
 * verdict counts as that no-verdict kind.
 */
function mutantOutcomes(
  reports: Readonly<Partial<Record<DetectorName, StrykerReport>>>,
  detectors: readonly DetectorName[],
  timingsByDetector: Readonly<Partial<Record<DetectorName, readonly DetectorTiming[]>>>,
): ReadonlyMap<string, MutantOutcomes> {
  const mutants = new Map<string, MutantOutcomes>();
  for (const d of detectors) {
    const report = reports[d];
    if (report === undefined) continue;
    const timings = timingsByDetector[d];
    const timedOut = Object.values(report.files).flatMap((f) => f.mutants.filter((m) => TIMEOUT.has(m.status)));
    const none =
      timings === undefined
        ? new Map<string, NoVerdict>()
        : noVerdictsOf(
            timings,
            timedOut.map((m) => m.id),
          );
    for (const [file, { mutants: ms }] of Object.entries(report.files)) {
      for (const m of ms) {
        const k = keyOf(file, m);
        const entry = mutants.get(k) ?? { file, m, by: {} };
        const o = outcomeOf(m.status);
        entry.by[d] = o === "killed" || o === "timeout" ? (none.get(m.id) ?? o) : noTestRan(m) ? "environment" : o;
        mutants.set(k, entry);
      }
    }
  }
  return mutants;
}

/** The combined detector's outcome: killed if either kills, else timeout if either timed out, else survived, .... */
const eitherKills = (c: Outcome | undefined, s: Outcome | undefined): Outcome =>
  c === "killed" || s === "killed"
    ? "killed"
    : c === "timeout" || s === "timeout"
      ? "timeout"
      : c === "survived" || s === "survived"
        ? "survived"
        : (c ?? s ?? "error");

/**
 * The score rows per file (and "all") and column (each detector, and "campaign+scenarios" when both ran), and the
 * mutants the combination leaves alive, in file and position order.
 */
function scoreRows(
  mutants: ReadonlyMap<string, MutantOutcomes>,
  detectors: readonly DetectorName[],
  combined: boolean,
): Pick<MutationSummary, "files" | "survivors"> {
  const outcomes = new Map<string, Map<string, Outcome[]>>();
  const push = (file: string, column: string, o: Outcome) => {
    for (const f of [file, "all"]) {
      const byCol = outcomes.get(f) ?? new Map<string, Outcome[]>();
      outcomes.set(f, byCol);
      const list = byCol.get(column) ?? [];
      byCol.set(column, list);
      list.push(o);
    }
  };
  const survivors: Survivor[] = [];
  for (const { file, m, by } of mutants.values()) {
    for (const d of detectors) {
      const o = by[d];
      if (o !== undefined) push(file, d, o);
    }
    if (!combined) continue;
    const both = eitherKills(by.campaign, by.scenarios);
    push(file, "campaign+scenarios", both);
    if (both === "survived")
      survivors.push({
        file,
        line: m.location.start.line,
        column: m.location.start.column,
        mutator: m.mutatorName,
        replacement: m.replacement ?? "",
      });
  }
  survivors.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  const files: Record<string, Record<string, ScoreRow>> = {};
  for (const f of [...outcomes.keys()].sort((a, b) => (a === "all" ? 1 : b === "all" ? -1 : a.localeCompare(b)))) {
    const cols: Record<string, ScoreRow> = {};
    for (const [col, os] of outcomes.get(f) ?? []) cols[col] = row(os);
    files[f] = cols;
  }
  return { files, survivors };
}

/** The campaign's time to kill over its timings of kills (a failing exit whose verdict, if recorded, is a kill). */
function timeToKill(campaignTimings: readonly DetectorTiming[]): TimeToKill | null {
  const killTimings = campaignTimings.filter(
    (t) =>
      t.mutant !== null &&
      t.phase === undefined &&
      t.exitCode !== 0 &&
      (t.verdict === undefined || KILLS.has(t.verdict)),
  );
  const seconds = (ms: readonly number[]): number[] => ms.map((v) => v / 1000).sort((a, b) => a - b);
  const kills = seconds(killTimings.map((t) => t.ms));
  const cpuKills = seconds(killTimings.flatMap((t) => (t.cpuMs === undefined ? [] : [t.cpuMs])));
  const searchKills = seconds(killTimings.flatMap((t) => (t.searchMs === undefined ? [] : [t.searchMs])));
  const round2 = (v: number): number => Math.round(v * 100) / 100;
  const spread = (sorted: readonly number[]) => ({
    medianS: round2(quantile(sorted, 0.5)),
    p90S: round2(quantile(sorted, 0.9)),
  });
  if (kills.length === 0) return null;
  return {
    killed: kills.length,
    ...spread(kills),
    cpu: cpuKills.length === 0 ? null : spread(cpuKills),
    search: searchKills.length === 0 ? null : spread(searchKills),
  };
}

/**
 * The summary of the detectors' reports (the file header's contract).
 *
 * 1. Each mutant's outcome per detector, across reports (`mutantOutcomes`).
 * 2. The score rows and the survivors of the combination (`scoreRows`).
 * 3. The campaign's time to kill (`timeToKill`).
 */
export function summarizeMutation(
  reports: Readonly<Partial<Record<DetectorName, StrykerReport>>>,
  campaignTimings: readonly DetectorTiming[] = [],
  timingsByDetector: Readonly<Partial<Record<DetectorName, readonly DetectorTiming[]>>> = {},
): MutationSummary {
  const detectors = DETECTOR_NAMES.filter((d) => reports[d] !== undefined);
  const combined = detectors.includes("campaign") && detectors.includes("scenarios");
  const { files, survivors } = scoreRows(mutantOutcomes(reports, detectors, timingsByDetector), detectors, combined);
  return {
    detectors: [...detectors, ...(combined ? ["campaign+scenarios"] : [])],
    files,
    survivors,
    campaignTimeToKillS: timeToKill(campaignTimings),
  };
}

/** The summary as a fixed-width table, one line per file (score % per detector, mutants in brackets). */
export function mutationTable(s: MutationSummary): string[] {
  const width = Math.max(4, ...Object.keys(s.files).map((f) => f.length));
  const head = ["file".padEnd(width), ...s.detectors.map((d) => d.padStart(20))].join("  ");
  const lines = [head];
  for (const [f, cols] of Object.entries(s.files)) {
    const cells = s.detectors.map((d) => {
      const r = cols[d];
      if (r === undefined) return "-".padStart(20);
      const valid = r.killed + r.timeout + r.survived;
      return `${r.score === null ? "n/a" : `${r.score.toFixed(1)}%`} (${r.killed + r.timeout}/${valid})`.padStart(20);
    });
    lines.push([f.padEnd(width), ...cells].join("  "));
  }
  return lines;
}
