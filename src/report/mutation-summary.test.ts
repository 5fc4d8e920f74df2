import { describe, expect, it } from "vitest";
import { type StrykerMutant, summarizeMutation } from "./mutation-summary.js";

const mutant = (id: string, line: number, status: string, mutatorName = "EqualityOperator"): StrykerMutant => ({
  id,
  mutatorName,
  replacement: `r${line}`,
  location: { start: { line, column: 3 } },
  status,
});
const report = (file: string, ms: StrykerMutant[]) => ({ files: { [file]: { mutants: ms } } });

describe("summarizeMutation", () => {
  it("scores each detector and the campaign+scenarios union; ignored equivalents and errors are not valid", () => {
    const s = summarizeMutation({
      campaign: report("a.ts", [
        mutant("0", 1, "Killed"),
        mutant("1", 2, "Survived"),
        mutant("2", 3, "Survived"),
        mutant("3", 4, "Ignored"),
      ]),
      // Stryker numbers mutants per run: the same mutant may carry another id in another detector's report.
      scenarios: report("a.ts", [
        mutant("9", 1, "Survived"),
        mutant("8", 2, "Timeout"),
        mutant("7", 3, "NoCoverage"),
        mutant("6", 4, "Ignored"),
      ]),
    });
    expect(s.detectors).toEqual(["campaign", "scenarios", "campaign+scenarios"]);
    expect(s.files["a.ts"]?.campaign).toMatchObject({ mutants: 4, killed: 1, survived: 2, ignored: 1, score: 33.33 });
    expect(s.files["a.ts"]?.scenarios).toMatchObject({ killed: 0, timeout: 1, survived: 2, score: 33.33 });
    expect(s.files["a.ts"]?.["campaign+scenarios"]).toMatchObject({ killed: 1, timeout: 1, survived: 1, score: 66.67 });
    expect(s.survivors).toEqual([{ file: "a.ts", line: 3, column: 3, mutator: "EqualityOperator", replacement: "r3" }]);
    expect(s.files.all?.campaign?.mutants).toBe(4);
  });

  it("tells apart mutants that start at the same place but span different code", () => {
    const wide = { ...mutant("0", 1, "Killed", "ConditionalExpression"), replacement: "true" };
    const narrow = {
      ...wide,
      id: "1",
      status: "Survived",
      location: { ...wide.location, end: { line: 1, column: 9 } },
    };
    const s = summarizeMutation({ units: report("a.ts", [wide, narrow]) });
    expect(s.files.all?.units).toMatchObject({ mutants: 2, killed: 1, survived: 1 });
  });

  it("sums every file into 'all', listed last", () => {
    const s = summarizeMutation({
      units: {
        files: { "b.ts": { mutants: [mutant("0", 1, "Killed")] }, "a.ts": { mutants: [mutant("1", 1, "Survived")] } },
      },
    });
    expect(Object.keys(s.files)).toEqual(["a.ts", "b.ts", "all"]);
    expect(s.files.all?.units).toMatchObject({ killed: 1, survived: 1, score: 50 });
    expect(s.survivors).toEqual([]);
  });

  it("gives the campaign's time to kill over the mutants it killed (the dry run and survivors excluded)", () => {
    const s = summarizeMutation({ campaign: report("a.ts", [mutant("0", 1, "Killed")]) }, [
      { mutant: null, ms: 9000, exitCode: 0 },
      { mutant: "0", ms: 400, exitCode: 1 },
      { mutant: "1", ms: 1200, exitCode: 1 },
      { mutant: "2", ms: 800, exitCode: 3 },
      { mutant: "3", ms: 20_000, exitCode: 0 },
    ]);
    expect(s.campaignTimeToKillS).toEqual({ killed: 3, medianS: 0.8, p90S: 1.2, cpu: null, search: null });
  });

  it("gives the CPU time to kill beside the wall time, so that a busy machine's figures compare", () => {
    const s = summarizeMutation({ campaign: report("a.ts", [mutant("0", 1, "Killed")]) }, [
      { mutant: "0", ms: 4000, cpuMs: 500, searchMs: 300, exitCode: 1 },
      { mutant: "1", ms: 9000, cpuMs: 900, searchMs: 700, exitCode: 1 },
      { mutant: "2", ms: 2000, exitCode: 1 },
      { mutant: "3", ms: 30_000, cpuMs: 20_000, searchMs: 19_000, exitCode: 0 },
    ]);
    expect(s.campaignTimeToKillS).toEqual({
      killed: 3,
      medianS: 4,
      p90S: 9,
      cpu: { medianS: 0.5, p90S: 0.9 },
      search: { medianS: 0.3, p90S: 0.7 },
    });
  });

  it("reports no score, not 0%, when every mutant is an ignored equivalent", () => {
    const s = summarizeMutation({ units: report("a.ts", [mutant("0", 1, "Ignored")]) });
    expect(s.files["a.ts"]?.units?.score).toBeNull();
  });
});

describe("detector exits that are no verdict on the mutant", () => {
  const t = (mutant: string, verdict: string | undefined, exitCode = 1) =>
    verdict === undefined
      ? { mutant, ms: 0, exitCode: 0, phase: "loaded" as const }
      : { mutant, ms: 1000, exitCode, verdict };
  it("are counted apart by kind, never as kills, and count against a floor as survivors do", () => {
    const campaign = report("a.ts", [
      mutant("0", 1, "Killed"),
      mutant("1", 2, "Killed"),
      mutant("2", 3, "Killed"),
      mutant("3", 4, "Timeout"),
      mutant("4", 5, "Timeout"),
      mutant("5", 6, "Survived"),
    ]);
    const timings = [
      t("0", undefined),
      t("0", "property"),
      t("1", undefined),
      t("1", "harnessCrash", 1),
      t("2", "environment", 1),
      t("3", undefined), // loaded, then Stryker stopped it: an endless loop, a kill
      // mutant 4 never marked its sources loaded: the detector's start timed out
      t("5", undefined),
      t("5", "survived", 0),
    ];
    const s = summarizeMutation({ campaign }, timings, { campaign: timings });
    expect(s.files["a.ts"]?.campaign).toMatchObject({
      mutants: 6,
      killed: 1,
      timeout: 1,
      survived: 1,
      noVerdict: { harnessCrash: 1, environment: 1, startTimeout: 1 },
      unsettled: 4,
      score: 66.67,
    });
    // the campaign's time to kill counts its real kill only
    expect(s.campaignTimeToKillS?.killed).toBe(1);
  });
  it("a survivor against which no test ran (its module did not load) is an environment failure, not a survivor", () => {
    const units = report("a.ts", [
      { ...mutant("0", 1, "Survived"), testsCompleted: 0 },
      { ...mutant("1", 2, "Survived"), testsCompleted: 12 },
      { ...mutant("2", 3, "NoCoverage"), testsCompleted: 0 },
      { ...mutant("3", 4, "Killed"), testsCompleted: 1 },
    ]);
    expect(summarizeMutation({ units }, []).files["a.ts"]?.units).toMatchObject({
      killed: 1,
      survived: 2,
      noVerdict: { harnessCrash: 0, environment: 1, startTimeout: 0 },
      unsettled: 3,
      score: 33.33,
    });
  });
});
