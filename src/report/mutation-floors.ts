import type { MutationSummary } from "./mutation-summary.js";

/**
 * Mutation floors as survivor counts (mutation/threshold.json): per file and per detector, the most mutants that may
 * be left unsettled (survived, or no verdict: mutation-verdict.ts). Counts, not percentages, so that a new mutant the
 * detectors kill cannot make room for a new survivor. Contract: pure.
 */
export interface MutationFloors {
  /**
   * What `npm run mutate -- --ci` runs: detector → the files it mutates there. Every file of it has a floor for that
   * detector (parseFloors refuses one without), so each detector CI runs is held to a floor.
   */
  readonly ci: Readonly<Record<string, readonly string[]>>;
  /** file → detector → the most unsettled mutants allowed. */
  readonly survivors: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** The floors of a threshold.json text, or what is wrong with it. */
export function parseFloors(text: string): { ok: true; value: MutationFloors } | { ok: false; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON: ${(e as Error).message}` };
  }
  const o = v as { ci?: unknown; survivors?: unknown };
  const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === "string");
  if (typeof o !== "object" || o === null || typeof o.ci !== "object" || o.ci === null || Array.isArray(o.ci))
    return { ok: false, error: "ci: expected {detector: [files...]}" };
  if (typeof o.survivors !== "object" || o.survivors === null)
    return { ok: false, error: "survivors: expected an object" };
  const survivors = o.survivors as Record<string, unknown>;
  for (const [file, byDetector] of Object.entries(survivors)) {
    if (typeof byDetector !== "object" || byDetector === null)
      return { ok: false, error: `survivors.${file}: expected detector → count` };
    for (const [d, n] of Object.entries(byDetector))
      if (!Number.isSafeInteger(n) || (n as number) < 0)
        return { ok: false, error: `survivors.${file}.${d}: expected a count ≥ 0, got ${JSON.stringify(n)}` };
  }
  for (const [d, files] of Object.entries(o.ci)) {
    if (!strings(files) || files.length === 0)
      return { ok: false, error: `ci.${d}: expected a non-empty list of files` };
    for (const f of files)
      if ((survivors[f] as Record<string, unknown> | undefined)?.[d] === undefined)
        return { ok: false, error: `ci.${d}: ${f} has no ${d} floor in survivors, so CI would check nothing` };
  }
  return {
    ok: true,
    value: {
      ci: o.ci as Record<string, string[]>,
      survivors: o.survivors as Record<string, Record<string, number>>,
    },
  };
}

/**
 * The floors a run breaks: for every file and detector the run scored that has a floor, one line when more mutants
 * are unsettled than the floor allows. Files and detectors the run did not cover are not checked.
 */
export function floorBreaches(s: MutationSummary, floors: MutationFloors): string[] {
  const out: string[] = [];
  for (const [file, byDetector] of Object.entries(floors.survivors)) {
    for (const [detector, most] of Object.entries(byDetector)) {
      const row = s.files[file]?.[detector];
      if (row === undefined || row.unsettled <= most) continue;
      const nv = row.unsettled - row.survived;
      out.push(
        `${file} ${detector}: ${row.unsettled} unsettled (${row.survived} survived${nv > 0 ? `, ${nv} no verdict` : ""}), floor ${most}`,
      );
    }
  }
  return out;
}
