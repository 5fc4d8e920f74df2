/**
 * The planner against a chain started `from:` a profile: the engine's run of seed `seed + i` commits block H at
 * exactly the time `haltTimes` gives run i, for every block-time kind (a drift model read at absolute heights from
 * its anchor, a uniform one shifted to the chain's first block), and the trace of such a run reads back for
 * `chainsim report`.
 */
import { describe, expect, it } from "vitest";
import { renderTraceEvent } from "../chain/trace-events.js";
import { err, ok } from "../core/errors.js";
import { readTraceLines } from "../report/trace-read.js";
import { formatScenarioError } from "../scenario/errors.js";
import { parseScenario } from "../scenario/load.js";
import type { Scenario } from "../scenario/model.js";
import { buildSimulation } from "../scenario/simulate.js";
import { haltTimes, heightsAt, type PlanClock, runSeed } from "./plan-height.js";

const AT_HEIGHT = 7_400_000;
const AT_TIME = "2026-03-02T21:30:00Z";
const AT_MS = Date.parse(AT_TIME);

/** A drift model anchored at the imported block, as `chainsim import` writes it. */
const DRIFT = [
  `{drift: {mean: 6.2s, anchor: {height: ${AT_HEIGHT}, time: "${AT_TIME}", rate: 5.9s}, segmentBlocks: 300,`,
  `persistence: 0.95, wander: 0.05, daily: {amplitude: 0.08, peak: "14:00"}, shifts: {rate: 0.01, size: 0.1},`,
  `outages: {rate: 0.002, mean: 40s}, jitter: 0.2}}`,
].join(" ");

const profile = (blockTime: string) => `profile: 1
source: {namespace: chain, chainId: far-1}
at: {height: ${AT_HEIGHT}, time: "${AT_TIME}"}
chain:
  chainId: far-1
  blockTime: ${blockTime}
  validators: [{name: alice, power: 10}, {name: bob, power: 5}]
  modules: {bank: 1, gov: 1, upgrade: 1}
plan: null
`;

function fromScenario(blockTime: string, chain = ""): Scenario {
  const files = { "p.yaml": profile(blockTime) };
  const read = (p: string) => (p in files ? ok(files[p as keyof typeof files]) : err("no such file"));
  const r = parseScenario("s.yaml", `from: p.yaml\nname: s\nbinaries: {v1: {}}\n${chain}`, read);
  if (!r.ok) throw new Error(r.error.map(formatScenarioError).join("\n"));
  return r.value;
}

/** The engine's time of block h for a run with `seed`, and its trace lines. */
function engineRun(s: Scenario, h: number, seed: number): { timeMs: number; trace: string[] } {
  const sim = buildSimulation(s, { seed, engine: { keepTrace: true } });
  if (!sim.ok) throw new Error(sim.error);
  sim.value.run({ untilHeight: h });
  expect(sim.value.height).toBe(h);
  return { timeMs: sim.value.lastBlockTimeMs, trace: [...sim.value.traceLines()] };
}

const clockOf = (s: Scenario): PlanClock => ({ height: AT_HEIGHT, timeMs: AT_MS, blockTime: s.chain.blockTime });
const byNumber = (a: number, b: number) => a - b;

describe("the planner draws what a from: chain commits", () => {
  it("drift anchored at the imported height: block H at exactly haltTimes' time, run by run", () => {
    const s = fromScenario(DRIFT);
    expect(s.chain.blockTime.kind).toBe("drift");
    const H = AT_HEIGHT + 2500;
    const runs = 3;
    const planned = [...haltTimes(clockOf(s), H, runs, 90)];
    const engine = Array.from({ length: runs }, (_, i) => engineRun(s, H, runSeed(90, i)).timeMs).sort(byNumber);
    expect(planned).toEqual(engine);
    // the times move with the seed: the equality is not of constants
    expect(new Set(planned).size).toBe(runs);
  });

  it("heightsAt agrees: the engine at the planned P50 time of H stands at H in about half the runs", () => {
    const s = fromScenario(DRIFT);
    const H = AT_HEIGHT + 1200;
    const t = engineRun(s, H, runSeed(5, 0)).timeMs;
    expect(heightsAt(clockOf(s), t, 1, 5)[0]).toBe(H);
  });

  it("a uniform model is shifted as the engine shifts it: block base + k draws k", () => {
    const s = fromScenario("{min: 5s, max: 7s}");
    const H = AT_HEIGHT + 800;
    const planned = [...haltTimes(clockOf(s), H, 2, 11)];
    const engine = [0, 1].map((i) => engineRun(s, H, runSeed(11, i)).timeMs).sort(byNumber);
    expect(planned).toEqual(engine);
  });

  it("a drift model without an anchor in a from: scenario is anchored at the profile's height and time", () => {
    const s = fromScenario("6s", "chain: {blockTime: {drift: {mean: 6s, wander: 0.1}}}");
    const m = s.chain.blockTime;
    expect(m.kind === "drift" && m.anchor).toEqual({ height: AT_HEIGHT, timeMs: AT_MS, rateMs: 6000 });
  });

  it("the trace of a from: run on the drift model reads back, line for line", () => {
    const { trace } = engineRun(fromScenario(DRIFT), AT_HEIGHT + 50, 3);
    const read = readTraceLines(trace);
    if (!read.ok) throw new Error(read.error);
    expect(read.value.map(renderTraceEvent)).toEqual(trace);
    const genesis = read.value[0];
    expect(genesis?.kind === "genesis" && genesis.blockTime.kind).toBe("drift");
    expect(genesis?.kind === "genesis" && genesis.initialHeight).toBe(AT_HEIGHT + 1);
  });
});
