import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { VALIDATORS } from "../src/harness/world.js";
import { parseScenario, scenarioFromData } from "../src/scenario/load.js";
import { buildSimulation, stopConditionOf } from "../src/scenario/simulate.js";
import { propertySuite } from "../test/kit/property-suite.js";
import { checkTrace, operatorLiveness, population } from "./operator-liveness.js";

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
  ])("holds on %s", (file) => expect(traceOf(file)).toEqual({ holds: true }));

  it("counts nodes that skip the plan height as able to commit it (x/upgrade's skip-upgrade heights)", () => {
    // 300 of 400 power restarted with height 3 among their skip heights: block 3 commits without any handler.
    expect(traceOf("test/fixtures/skip-heights-pass-the-plan.yaml")).toEqual({ holds: true });
  });

  it("still refuses a block committed at the plan height by nodes that neither have the handler nor skip it", () => {
    const r = parseScenario(
      "test/fixtures/skip-heights-pass-the-plan.yaml",
      readFileSync("test/fixtures/skip-heights-pass-the-plan.yaml", "utf8"),
    );
    if (!r.ok) throw new Error(r.error.map((e) => e.message).join("\n"));
    const built = buildSimulation(r.value, { engine: { keepTrace: true } });
    if (!built.ok) throw new Error(built.error);
    built.value.run(stopConditionOf(r.value));
    // The same trace with the skip heights forgotten: as if the nodes had passed height 3 on v1 unprepared.
    const forgotten = built.value.traceEvents().map((e) => (e.kind === "start" ? { ...e, skip: [] } : e));
    const handlers = new Map([...r.value.binaries].map(([n, b]) => [n, new Set(b.upgrades.keys())] as const));
    const v = checkTrace(forgotten, handlers);
    expect(v.holds ? "" : v.detail).toMatch(/block 3 committed while nodes running a binary with the "v2" handler/);
  });

  /** A fixture's trace with the property's operator population in place of its sidecars, three days on. */
  const underOperators = (file: string) => {
    const doc = parse(readFileSync(file, "utf8"));
    const ops = population(doc.seed);
    doc.nodes = Object.fromEntries(
      VALIDATORS.map((v) => [v, { sidecar: { enabled: false, binaries: { v2: "v2", v3: "v3" } }, operator: ops[v] }]),
    );
    doc.run = { untilTime: "2026-01-04T00:00:00Z" };
    const loaded = scenarioFromData(file, doc);
    if (!loaded.ok) throw new Error(loaded.error.map((e) => e.message).join("\n"));
    const built = buildSimulation(loaded.value, { engine: { keepTrace: true } });
    if (!built.ok) throw new Error(built.error);
    built.value.run(stopConditionOf(loaded.value));
    const handlers = new Map([...loaded.value.binaries].map(([n, b]) => [n, new Set(b.upgrades.keys())] as const));
    return { events: built.value.traceEvents(), handlers };
  };

  it("does not count an operator who answers a halt the chain has passed as ready for the next one", () => {
    // v2 halts the chain at 4, v3 at 5. val3's person installs v2 after the chain has passed 4 (a stale answer),
    // halts at 5 for v3, and only its later restart with v3 answers that halt.
    const { events, handlers } = underOperators("test/fixtures/two-plans-back-to-back.yaml");
    const block4 = events.findIndex((e) => e.kind === "block" && e.height === 4);
    const stale = events.findIndex(
      (e, i) => i > block4 && e.kind === "start" && e.node === "val3" && e.binary === "v2",
    );
    expect(block4 > 0 && stale > block4, "the trace has val3 restarted with v2 after block 4").toBe(true);
    expect(checkTrace(events, handlers)).toEqual({ holds: true });
    expect(events.some((e) => e.kind === "block" && e.height === 5)).toBe(true);
  });

  it("ends an operator's claim when a scenario step swaps the node back by hand", () => {
    // val2's cosmovisor restarts it with v2; a step then swaps it back to v1: it halts again and no longer counts.
    const { events, handlers } = underOperators("test/fixtures/hand-swap-back-after-halt.yaml");
    const swap = events.findIndex((e) => e.kind === "step" && e.action === "swapBinary");
    expect(events[swap + 2]).toMatchObject({ kind: "start", node: "val2", binary: "v1" });
    expect(checkTrace(events, handlers)).toEqual({ holds: true });
  });

  it("is violated when the node restarts on its old binary after a failed download", () => {
    const v = traceOf("scenarios/operator-failed-download-manual-fallback.yaml", ["no-switch-after-failed-download"]);
    expect(v.holds).toBe(false);
    expect(v.holds ? "" : v.detail).toMatch(
      /operators holding 300 of 400 power had restarted their nodes for height 1000/,
    );
  });
});
