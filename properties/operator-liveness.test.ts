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

  it("answers a later plan's halt with a recovery for that plan after a hand swap overtook the last one", () => {
    // val4's cosmovisor is backing up for v2 when a step swaps it to v2 by hand; at v3's height it halts again. Its
    // operator starts over for v3 (detect, ..., a restart with v3): no step of the v2 recovery answers that halt.
    const { events, handlers } = underOperators("test/fixtures/hand-swap-overtakes-recovery.yaml");
    const v3Halt = events.findIndex((e) => e.kind === "halt" && e.node === "val4" && e.message.includes('"v3"'));
    const after = events.slice(v3Halt).filter((e) => e.kind === "operator" && e.node === "val4");
    expect(v3Halt > 0 && after[0]?.kind === "operator" && after[0].phase).toBe("detect");
    const starts = events.slice(v3Halt).filter((e) => e.kind === "start" && e.node === "val4");
    expect(starts.every((e) => e.kind === "start" && e.binary === "v3")).toBe(true);
    expect(checkTrace(events, handlers)).toEqual({ holds: true });
  });

  it("ends an operator's claim when cosmovisor stops the node", () => {
    // val1 and val2 restart with v2 for height 3; val3's restart halts at 3 again (it keeps counting: its operator
    // said it switched), then cosmovisor stops val3. Two of four restarted: block 3 is not yet owed.
    const restart = (node: string, timeMs: number): TraceEvent[] => [
      { kind: "operator", node, phase: "restart", detail: "", timeMs },
      { kind: "stop", node, timeMs },
      { kind: "start", node, binary: "v2", skip: [], timeMs },
    ];
    const events: TraceEvent[] = [
      ...haltAt3(["val1", "val2", "val3", "val4"]),
      ...restart("val1", 20_000),
      ...restart("val2", 20_000),
      ...restart("val3", 20_000),
      v2Halt("val3", 20_000),
      { kind: "operator", node: "val3", phase: "stop", detail: "SIGKILL", timeMs: 20_000 },
      { kind: "stall", height: 3, timeMs: 30_000 },
    ];
    expect(checkTrace(events, V2_HANDLERS)).toEqual({ holds: true });
    const without = events.filter((e) => !(e.kind === "operator" && e.phase === "stop"));
    expect(checkTrace(without, V2_HANDLERS).holds).toBe(false);
  });

  it("is violated when the node restarts on its old binary after a failed download", () => {
    const v = traceOf("scenarios/operator-failed-download-manual-fallback.yaml", ["no-switch-after-failed-download"]);
    expect(v.holds).toBe(false);
    expect(v.holds ? "" : v.detail).toMatch(
      /operators holding 300 of 400 power had restarted their nodes for height 1000/,
    );
  });
});

/** Four validators of 100 on v1 (5 s blocks, heights 1-2 committed), then `nodes` halting for v2 at 3. */
function haltAt3(nodes: readonly string[]): TraceEvent[] {
  return [
    {
      kind: "genesis",
      chainId: "c",
      seed: 1,
      timeMs: 0,
      appHash: "",
      blockTime: { kind: "fixed", intervalMs: 5000 } as TraceEventOf<"genesis">["blockTime"],
      nodes: ["val1", "val2", "val3", "val4"].map((name) => ({ name, power: 100, binary: "v1", skip: [] })),
    },
    { kind: "blocks", from: 1, to: 2, timeFromMs: 0, timeToMs: 5000, appHash: "" },
    ...nodes.map((node) => v2Halt(node, 10_000)),
  ];
}
const v2Halt = (node: string, timeMs: number): TraceEvent => ({
  kind: "halt",
  node,
  height: 3,
  haltKind: "upgrade-needed",
  message: 'UPGRADE "v2" NEEDED at height: 3: ',
  timeMs,
});
const V2_HANDLERS = new Map([
  ["v1", new Set<string>()],
  ["v2", new Set(["v2"])],
]);

describe("operator-liveness at a coordinated skip", () => {
  // Four validators of 100 halt for "v2" at height 3; `skippers` of them restart v1 with 3 among their skip heights
  // (x/upgrade abci.go: they skip the plan without its handler) and block 3 commits, skipping it.
  const trace = (skippers: number): TraceEvent[] => {
    const names = ["val1", "val2", "val3", "val4"];
    const events = haltAt3(names);
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
  const handlers = V2_HANDLERS;

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
