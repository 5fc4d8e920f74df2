import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { TraceEvent, TraceEventOf } from "../src/chain/trace-events.js";
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
    "scenarios/operator-early-install-binary-too-early.yaml",
    "scenarios/operator-staged-upgrade-switches-early.yaml",
    "scenarios/operator-early-start-store-upgrades-not-applied.yaml",
    "scenarios/operator-early-release-drops-previous-handler.yaml",
  ])("holds on %s", (file) => expect(traceOf(file)).toEqual({ holds: true }));

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

  it("ends an operator's claim when cosmovisor stops the node again after a wrong binary", () => {
    // val4's person starts v2 (no v3 handler): it halts at 29 again, cosmovisor stops it, backs up, fails its
    // download, and only the person's later v3 restart brings it back.
    const { events, handlers } = underOperators("test/fixtures/wrong-binary-then-cosmovisor-stops.yaml");
    expect(
      events.some((e) => e.kind === "operator" && e.node === "val4" && e.phase === "stop"),
      "cosmovisor stops val4 after its wrong binary",
    ).toBe(true);
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

describe("operator-liveness at a coordinated skip", () => {
  // Four validators of 100 halt for "v2" at height 3; `skippers` of them restart v1 with 3 among their skip heights
  // (x/upgrade abci.go: they skip the plan without its handler) and block 3 commits, skipping it.
  const trace = (skippers: number): TraceEvent[] => {
    const names = ["val1", "val2", "val3", "val4"];
    const events: TraceEvent[] = [
      {
        kind: "genesis",
        chainId: "c",
        seed: 1,
        timeMs: 0,
        appHash: "",
        blockTime: { kind: "fixed", intervalMs: 5000 } as TraceEventOf<"genesis">["blockTime"],
        nodes: names.map((name) => ({ name, power: 100, binary: "v1", skip: [] })),
      },
      { kind: "blocks", from: 1, to: 2, timeFromMs: 0, timeToMs: 5000, appHash: "" },
      ...names.map(
        (node): TraceEvent => ({
          kind: "halt",
          node,
          height: 3,
          haltKind: "upgrade-needed",
          message: 'UPGRADE "v2" NEEDED at height: 3: ',
          timeMs: 10_000,
        }),
      ),
    ];
    for (const node of names.slice(0, skippers))
      events.push({ kind: "start", node, binary: "v1", skip: [3], timeMs: 20_000 });
    events.push({
      kind: "block",
      height: 3,
      timeMs: 20_000,
      appHash: "",
      txs: [],
      gov: [],
      applied: undefined,
      skipped: "v2",
      committers: names.slice(0, skippers),
    });
    return events;
  };
  const handlers = new Map([
    ["v1", new Set<string>()],
    ["v2", new Set(["v2"])],
  ]);

  it("holds when validators holding more than 2/3 skip the plan's height", () => {
    expect(checkTrace(trace(3), handlers)).toEqual({ holds: true });
    expect(checkTrace(trace(4), handlers)).toEqual({ holds: true });
  });

  it("is violated when the block skips the plan with 2/3 or less skipping", () => {
    const v = checkTrace(trace(2), handlers);
    expect(v.holds ? "" : v.detail).toBe(
      'block 3 skipped "v2" while nodes with 3 among their skip heights hold only 200 of 400',
    );
  });
});
