import { HOLDS, type Property, violated } from "../src/harness/property.js";
import { parseScenario } from "../src/scenario/load.js";
import { scenarioToYaml } from "../src/scenario/serialize.js";
import { buildSimulation, stopConditionOf } from "../src/scenario/simulate.js";

/**
 * always-determinism: the session, written as a scenario file (YAML), parsed and replayed from scratch, gives the
 * same trace hash as the live run. Checked once, at the end of the run (the replay covers every command).
 */
export const determinism: Property = {
  name: "determinism",
  statement: "always: replaying the recorded commands gives the same trace hash",
  kind: "end",
  check(s) {
    const yaml = scenarioToYaml(s.document());
    const parsed = parseScenario("replay.yaml", yaml);
    if (!parsed.ok)
      return violated(
        `the recorded scenario does not load: ${parsed.error.map((e) => `${e.path}: ${e.message}`).join("; ")}`,
      );
    const built = buildSimulation(parsed.value, {});
    if (!built.ok) return violated(built.error);
    built.value.run(stopConditionOf(parsed.value));
    const replayed = built.value.traceHash();
    const live = s.sim.traceHash();
    if (replayed !== live)
      return violated(`replay trace ${replayed.slice(0, 16)} differs from the live run ${live.slice(0, 16)}`);
    return HOLDS;
  },
};
