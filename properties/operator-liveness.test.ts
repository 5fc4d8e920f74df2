import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseScenario } from "../src/scenario/load.js";
import { buildSimulation, stopConditionOf } from "../src/scenario/simulate.js";
import { propertySuite } from "../test/kit/property-suite.js";
import { checkTrace, operatorLiveness } from "./operator-liveness.js";

describe("operator-liveness", () => propertySuite(operatorLiveness));

describe("operator-liveness over the library's operator scenarios", () => {
  const traceOf = (file: string, faults: string[] = []) => {
    const r = parseScenario(file, readFileSync(file, "utf8"));
    if (!r.ok) throw new Error(r.error.map((e) => e.message).join("\n"));
    const s = { ...r.value, options: { ...r.value.options, faults: faults as never } };
    const built = buildSimulation(s, { engine: { keepTrace: true } });
    if (!built.ok) throw new Error(built.error);
    built.value.run(stopConditionOf(s));
    const handlers = new Map([...s.binaries].map(([n, b]) => [n, new Set(b.upgrades.keys())] as const));
    return checkTrace(built.value.traceEvents(), handlers);
  };
  it.each([
    "scenarios/operator-backup-delays-chain.yaml",
    "scenarios/operator-failed-download-manual-fallback.yaml",
    "scenarios/operator-night-time-halt.yaml",
    "scenarios/operator-third-never-upgrades.yaml",
    "scenarios/operator-pre-upgrade-retries-and-wrong-binary.yaml",
    "scenarios/operator-early-install-binary-too-early.yaml",
    "scenarios/operator-staged-upgrade-switches-early.yaml",
    "scenarios/operator-early-start-store-upgrades-not-applied.yaml",
    "scenarios/operator-early-release-drops-previous-handler.yaml",
  ])("holds on %s", (file) => expect(traceOf(file)).toEqual({ holds: true }));

  it("is violated when the node restarts on its old binary after a failed download", () => {
    const v = traceOf("scenarios/operator-failed-download-manual-fallback.yaml", ["no-switch-after-failed-download"]);
    expect(v.holds).toBe(false);
    expect(v.holds ? "" : v.detail).toMatch(
      /operators holding 300 of 400 power had restarted their nodes for height 1000/,
    );
  });
});
