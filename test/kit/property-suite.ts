import { expect, it } from "vitest";
import { FAULTS, type Fault } from "../../src/faults/index.js";
import type { Property } from "../../src/harness/property.js";
import { runProperty } from "../../src/harness/run-property.js";
import { parseScenario } from "../../src/scenario/load.js";
import { runScenario } from "../../src/scenario/runner.js";
import { scenarioToYaml } from "../../src/scenario/serialize.js";
import { CI_RUNS, CI_SEED, PLANTED_BUG_RUNS, SHRUNK_COMMANDS_MAX } from "./budget.js";

/**
 * The tests every property gets: it holds on the real chain for the CI budget of runs, and it catches each planted
 * fault it declares (`catches`, faults of the catalog src/faults/), within a bounded number of runs, shrinking the failure to
 * a few commands. When the oracle can see the fault, the counterexample written as a scenario replays to a
 * failure with `chainsim run`. `only` restricts the faults (a property with several is split across files, so
 * `vitest --shard` spreads them).
 */
export function propertySuite(property: Property, only?: readonly Fault[]): void {
  it(`${property.statement} — holds for ${CI_RUNS} runs`, () => {
    const r = runProperty({ property, seed: CI_SEED, numRuns: CI_RUNS });
    expect(r.error).toBeUndefined();
    expect(r.counterexample?.violation).toBeUndefined();
    expect(r.passed).toBe(true);
    expect(r.runs).toBe(CI_RUNS);
  });

  // In catalog order, so a property's tests run its faults in the same order whatever order it declares them in.
  const faults = FAULTS.filter((f) => property.catches.includes(f.name) && (only?.includes(f.name) ?? true));
  it("is declared the catcher of at least one planted fault", () => expect(faults.length).toBeGreaterThan(0));
  for (const fault of faults) {
    it(`catches the planted bug "${fault.name}" within ${PLANTED_BUG_RUNS} runs and shrinks it`, () => {
      const r = runProperty({ property, seed: 1, numRuns: PLANTED_BUG_RUNS, faults: [fault.name] });
      expect(r.error).toBeUndefined();
      expect(r.passed).toBe(false);
      const cx = r.counterexample!;
      expect(cx.property).toBe(property.name);
      expect(cx.commands.length).toBeLessThanOrEqual(SHRUNK_COMMANDS_MAX);
      // The counterexample is a scenario file that loads; with the planted fault it fails its expectations.
      const parsed = parseScenario(`${property.name}.yaml`, scenarioToYaml(cx.document));
      expect(parsed.ok ? [] : parsed.error).toEqual([]);
      if (!parsed.ok) return;
      expect(parsed.value.options.faults).toEqual([fault.name]);
      const replay = runScenario(parsed.value).report;
      expect(replay.passed).toBe(!fault.replayFails);
    });
  }
}
