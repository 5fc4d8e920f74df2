import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import { toHex, utf8 } from "../core/bytes.js";
import { parseScenario } from "../scenario/load.js";
import { runScenario } from "../scenario/runner.js";
import { scenarioToYaml } from "../scenario/serialize.js";
import { conformance } from "./conformance.js";
import { HOLDS, type Property, violated } from "./property.js";
import { regressionFile, replayCommand } from "./regression.js";
import { runProperty } from "./run-property.js";

/** The oracle and the chain agree (as properties/model-agreement.ts states it): a real property for real runs. */
const agreement: Property = {
  name: "model-agreement",
  statement: "always: the model and the chain agree",
  kind: "always",
  catches: [],
  check: (s) => (conformance(s).length === 0 ? HOLDS : violated(conformance(s).join("; "))),
};

describe("regressionFile", () => {
  const r = runProperty({ property: agreement, seed: 1, numRuns: 100, faults: ["off-by-one-due-height"] });
  const cx = r.counterexample!;

  it("names the file by property and the sha256 of the YAML body, and says how to replay it", () => {
    const f = regressionFile(cx, { dir: "scenarios/regressions/", commit: "abc1234", campaignSeed: 42 });
    const body = scenarioToYaml(cx.document);
    expect(f.path).toBe(`scenarios/regressions/model-agreement-${toHex(sha256(utf8(body))).slice(0, 8)}.yaml`);
    expect(f.text.endsWith(body)).toBe(true);
    const header = f.text.slice(0, f.text.length - body.length).split("\n");
    expect(header.filter((l) => l !== "").every((l) => l.startsWith("#"))).toBe(true);
    expect(f.text).toContain(`# Replay: ${replayCommand(f.path)}`);
    expect(f.text).toContain(`fast-check seed ${cx.seed}, path "${cx.path}"`);
    expect(f.text).toContain("Campaign seed 42, commit abc1234");
    // Same counterexample, same file.
    expect(regressionFile(cx, { dir: "scenarios/regressions", commit: "other", campaignSeed: 7 }).path).toBe(f.path);
  });

  it("loads as the counterexample's scenario and, with the planted fault, fails its replay", () => {
    const f = regressionFile(cx, { dir: "d", commit: "c", campaignSeed: 1 });
    const parsed = parseScenario(f.path, f.text);
    expect(parsed.ok ? [] : parsed.error).toEqual([]);
    if (!parsed.ok) return;
    expect(parsed.value.options.faults).toEqual(["off-by-one-due-height"]);
    expect(runScenario(parsed.value).report.passed).toBe(false);
  });
});
