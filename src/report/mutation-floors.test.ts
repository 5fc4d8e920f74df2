import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { floorBreaches, parseFloors } from "./mutation-floors.js";
import { type StrykerMutant, summarizeMutation } from "./mutation-summary.js";

const mutant = (id: string, line: number, status: string): StrykerMutant => ({
  id,
  mutatorName: "EqualityOperator",
  replacement: `r${line}`,
  location: { start: { line, column: 3 } },
  status,
});
const floors = (most: number) => ({
  ci: { scenarios: ["a.ts"] },
  survivors: { "a.ts": { scenarios: most } },
});

describe("mutation floors as survivor counts", () => {
  it("a new killed mutant makes no room for a new survivor, as a percentage floor would", () => {
    // before: 8 of 10 killed (80%), 2 survivors; after: 2 new mutants, both killed, and one more survivor: 10 of 13
    // (76.9%) would pass an 76% floor, but the count floor of 2 survivors breaks.
    const before = Array.from({ length: 10 }, (_, i) => mutant(String(i), i + 1, i < 8 ? "Killed" : "Survived"));
    const after = [...before, mutant("10", 11, "Killed"), mutant("11", 12, "Killed"), mutant("12", 13, "Survived")];
    const run = (ms: StrykerMutant[]) => summarizeMutation({ scenarios: { files: { "a.ts": { mutants: ms } } } });
    expect(floorBreaches(run(before), floors(2))).toEqual([]);
    expect(floorBreaches(run(after), floors(2))).toEqual(["a.ts scenarios: 3 unsettled (3 survived), floor 2"]);
  });

  it("counts a no-verdict exit against the floor: an environment failure cannot pass for a kill", () => {
    const s = summarizeMutation(
      { scenarios: { files: { "a.ts": { mutants: [mutant("0", 1, "Killed"), mutant("1", 2, "Survived")] } } } },
      [],
      { scenarios: [{ mutant: "0", ms: 1, exitCode: 1, verdict: "environment" }] },
    );
    expect(floorBreaches(s, floors(1))).toEqual(["a.ts scenarios: 2 unsettled (1 survived, 1 no verdict), floor 1"]);
  });

  it("checks only what the run scored, and reads the repository's threshold file", () => {
    const s = summarizeMutation({ campaign: { files: { "b.ts": { mutants: [mutant("0", 1, "Survived")] } } } });
    expect(floorBreaches(s, floors(0))).toEqual([]);
    const repo = parseFloors(readFileSync("mutation/threshold.json", "utf8"));
    expect(repo.ok && repo.value.ci).toEqual({
      scenarios: ["src/upgrade/preblocker.ts"],
      campaign: ["src/chain/consensus.ts"],
    });
    expect(parseFloors('{"ci":{"scenarios":["a.ts"]},"survivors":{"a.ts":{"campaign":-1}}}')).toEqual({
      ok: false,
      error: "survivors.a.ts.campaign: expected a count ≥ 0, got -1",
    });
  });

  it("refuses a CI detector without a floor for its file: CI would run it and check nothing", () => {
    expect(parseFloors('{"ci":{"campaign":["a.ts"]},"survivors":{"a.ts":{"scenarios":3}}}')).toEqual({
      ok: false,
      error: "ci.campaign: a.ts has no campaign floor in survivors, so CI would check nothing",
    });
    expect(parseFloors('{"ci":{"campaign":[]},"survivors":{}}')).toEqual({
      ok: false,
      error: "ci.campaign: expected a non-empty list of files",
    });
    expect(parseFloors('{"ci":{"campaign":["a.ts"]},"survivors":{"a.ts":{"campaign":0}}}').ok).toBe(true);
  });
});
