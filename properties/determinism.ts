import { HOLDS, type Property, violated } from "../src/harness/property.js";
import { scenarioFromData } from "../src/scenario/load.js";
import { buildSimulation, stopConditionOf } from "../src/scenario/simulate.js";

/**
 * always-determinism: the session, as the scenario document a counterexample writes, loaded and replayed from
 * scratch (its own world, app host and genesis), gives the same trace hash as the live run. Checked once, at the
 * end of the run (the replay covers every command). The document is loaded as data: that its YAML text loads to
 * the same scenario is a property of the serializer, checked over generated sessions by
 * src/harness/session.test.ts, not once per run here.
 */
export const determinism: Property = {
  name: "determinism",
  statement: "always: replaying the recorded commands gives the same trace hash",
  kind: "end",
  catches: ["nondeterministic-genesis"],
  check(s) {
    const loaded = scenarioFromData("replay.yaml", s.document());
    if (!loaded.ok)
      return violated(
        `the recorded scenario does not load: ${loaded.error.map((e) => `${e.path}: ${e.message}`).join("; ")}`,
      );
    const built = buildSimulation(loaded.value, {});
    if (!built.ok) return violated(built.error);
    built.value.run(stopConditionOf(loaded.value));
    const replayed = built.value.traceHash();
    const live = s.sim.traceHash();
    if (replayed !== live)
      return violated(`replay trace ${replayed.slice(0, 16)} differs from the live run ${live.slice(0, 16)}`);
    return HOLDS;
  },
};
