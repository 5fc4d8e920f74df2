import { expect, it } from "vitest";
import type { Fault } from "../../src/app/faults.js";
import type { Property } from "../../src/harness/property.js";
import { runProperty } from "../../src/harness/run-property.js";
import { parseScenario } from "../../src/scenario/load.js";
import { runScenario } from "../../src/scenario/runner.js";
import { scenarioToYaml } from "../../src/scenario/serialize.js";
import { CI_RUNS, CI_SEED, PLANTED_BUG_RUNS, SHRUNK_COMMANDS_MAX } from "./budget.js";

/**
 * The two tests every property gets: it holds on the real chain for the CI budget of runs, and it catches its
 * planted bug (src/app/faults.ts) within a bounded number of runs, shrinking the failure to a few commands. When
 * the oracle can see the bug, the counterexample written as a scenario replays to a failure with `chainsim run`.
 */
export function propertySuite(property: Property, fault: Fault, opts: { replayFails: boolean }): void {
  it(`${property.statement} — holds for ${CI_RUNS} runs`, () => {
    const r = runProperty({ property, seed: CI_SEED, numRuns: CI_RUNS });
    expect(r.error).toBeUndefined();
    expect(r.counterexample?.violation).toBeUndefined();
    expect(r.passed).toBe(true);
    expect(r.runs).toBe(CI_RUNS);
  });

  it(`catches the planted bug "${fault}" within ${PLANTED_BUG_RUNS} runs and shrinks it`, () => {
    const r = runProperty({ property, seed: 1, numRuns: PLANTED_BUG_RUNS, faults: [fault] });
    expect(r.error).toBeUndefined();
    expect(r.passed).toBe(false);
    const cx = r.counterexample!;
    expect(cx.property).toBe(property.name);
    expect(cx.commands.length).toBeLessThanOrEqual(SHRUNK_COMMANDS_MAX);
    // The counterexample is a scenario file that loads; with the planted fault it fails its expectations.
    const parsed = parseScenario(`${property.name}.yaml`, scenarioToYaml(cx.document));
    expect(parsed.ok ? [] : parsed.error).toEqual([]);
    if (!parsed.ok) return;
    expect(parsed.value.options.faults).toEqual([fault]);
    const replay = runScenario(parsed.value).report;
    expect(replay.passed).toBe(!opts.replayFails);
  });
}
