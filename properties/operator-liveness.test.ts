import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { TraceEvent, TraceEventOf } from "../src/chain/trace-events.js";
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
  ])("holds on %s", (file) => expect(traceOf(file)).toEqual({ holds: true }));

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
