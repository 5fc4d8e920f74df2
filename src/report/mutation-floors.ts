import type { MutationSummary } from "./mutation-summary.js";

/**
 * Mutation floors as survivor counts (mutation/threshold.json): per file and per detector, the most mutants that may
 * be left unsettled (survived, or no verdict: mutation-verdict.ts). Counts, not percentages, so that a new mutant the
 * detectors kill cannot make room for a new survivor. Contract: pure.
 */
export interface MutationFloors {
  /** What `npm run mutate -- --ci` runs: these files, these detectors. */
  readonly ci: { readonly files: readonly string[]; readonly detectors: readonly string[] };
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
  const o = v as { ci?: { files?: unknown; detectors?: unknown }; survivors?: unknown };
  const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === "string");
  if (typeof o !== "object" || o === null || !strings(o.ci?.files) || !strings(o.ci?.detectors))
    return { ok: false, error: "ci: expected {files: [...], detectors: [...]}" };
  if (typeof o.survivors !== "object" || o.survivors === null)
    return { ok: false, error: "survivors: expected an object" };
  for (const [file, byDetector] of Object.entries(o.survivors)) {
    if (typeof byDetector !== "object" || byDetector === null)
      return { ok: false, error: `survivors.${file}: expected detector → count` };
    for (const [d, n] of Object.entries(byDetector))
      if (!Number.isSafeInteger(n) || (n as number) < 0)
        return { ok: false, error: `survivors.${file}.${d}: expected a count ≥ 0, got ${JSON.stringify(n)}` };
  }
  return {
    ok: true,
    value: {
      ci: { files: o.ci!.files as string[], detectors: o.ci!.detectors as string[] },
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
