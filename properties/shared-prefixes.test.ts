import { describe, expect, it } from "vitest";
import { FAULTS } from "../src/faults/index.js";
import { runProperty } from "../src/harness/run-property.js";
import { SHARED_PREFIX_DEFAULTS } from "../src/harness/shared-prefix.js";
import { parseScenario } from "../src/scenario/load.js";
import { runScenario } from "../src/scenario/runner.js";
import { scenarioToYaml } from "../src/scenario/serialize.js";
import { PLANTED_BUG_RUNS, SHRUNK_COMMANDS_MAX } from "../test/kit/budget.js";
import { PROPERTIES } from "./index.js";

/**
 * Runs that share their command prefixes (`check --prefix-share`, src/harness/shared-prefix.ts) explore other runs for
 * a seed than independent runs: every planted fault is still caught, by each property that declares it, within the
 * same budget as its suite (test/kit/property-suite.ts) and shrunk as far, and the counterexample replays as a
 * scenario. With the default sharing: families drawn from the campaign seed 1.
 */
describe("with shared prefixes", () => {
  for (const property of PROPERTIES)
    for (const fault of FAULTS.filter((f) => property.catches.includes(f.name)))
      it(`${property.name} catches "${fault.name}" within ${PLANTED_BUG_RUNS} runs and shrinks it`, () => {
        const r = runProperty({
          property,
          seed: 1,
          numRuns: PLANTED_BUG_RUNS,
          faults: [fault.name],
          sharedPrefixes: { ...SHARED_PREFIX_DEFAULTS, campaignSeed: 1 },
        });
        expect(r.error).toBeUndefined();
        expect(r.passed).toBe(false);
        const cx = r.counterexample!;
        expect(cx.commands.length).toBeLessThanOrEqual(SHRUNK_COMMANDS_MAX);
        const parsed = parseScenario(`${property.name}.yaml`, scenarioToYaml(cx.document));
        expect(parsed.ok ? [] : parsed.error).toEqual([]);
        if (parsed.ok) expect(runScenario(parsed.value).report.passed).toBe(!fault.replayFails);
      });
});
