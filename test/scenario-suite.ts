import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { EngineOptions } from "../src/chain/records.js";
import { err, ok, type Result } from "../src/core/errors.js";
import { FAULT_NAMES, type Fault } from "../src/faults/index.js";
import { checkExpectations } from "../src/scenario/expect.js";
import { parseScenario, type Scenario } from "../src/scenario/index.js";
import { reportOf, runScenario } from "../src/scenario/runner.js";
import { buildSimulation, type Simulation, stopConditionOf } from "../src/scenario/simulate.js";

/**
 * Every scenario file under `scenarios/` (recursively), sorted, excluding the JSON Schema and
 * `scenarios/regressions/`: counterexamples written by `chainsim check` replay a failure until the bug is fixed,
 * and `chainsim all` reports them separately.
 */
export function scenarioFiles(dir = "scenarios"): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (p !== join("scenarios", "regressions")) out.push(...scenarioFiles(p));
      continue;
    }
    if (/\.(ya?ml|json)$/.test(name) && name !== "schema.json") out.push(p);
  }
  return out;
}

export function loadScenario(file: string): Scenario {
  const r = parseScenario(file, readFileSync(file, "utf8"), readProfile);
  if (!r.ok) throw new Error(r.error.map((e) => `${e.file}: ${e.path}: ${e.message}`).join("\n"));
  return r.value;
}

/** The profile reader of scenarios `from:` a profile (the library's read its fixture under test/fixtures/profiles). */
export function readProfile(path: string): Result<string, string> {
  try {
    return ok(readFileSync(path, "utf8"));
  } catch (e) {
    return err(e instanceof Error ? e.message : String(e));
  }
}

export const GOLDEN_FILE = "test/golden/trace-hashes.json";

/** Trace hash of every scenario, keyed by file path. */
export function traceHashes(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of scenarioFiles()) out[f] = runScenario(loadScenario(f)).report.traceHash;
  return out;
}

/**
 * Under a fault a chain may never settle (e.g. `missed-halt` keeps a due plan stored, so no block is idle); the
 * fault runs of an equivalence test stop after this many blocks, past every plan height of the library.
 */
export const FAULT_BLOCKS_MAX = 1500;

/**
 * The library under the planted faults, for equivalence tests (an optimisation or a snapshot must be invisible
 * under every fault): each fault over every third scenario (rotating), so that every scenario meets three faults or
 * so. By default `nondeterministic-genesis` is left out: two builds of one scenario differ under it by design (a
 * process-global counter), which a test comparing two builds cannot allow; a fork shares its original's build.
 */
export function libraryUnderFaults(
  files: readonly string[],
  exclude: readonly Fault[] = ["nondeterministic-genesis"],
): { readonly fault: Fault; readonly files: string[]; readonly scenarios: () => Scenario[] }[] {
  return FAULT_NAMES.filter((f) => !exclude.includes(f)).map((fault, i) => {
    const underFault = files.filter((_, j) => j % 3 === i % 3);
    return { fault, files: underFault, scenarios: () => underFault.map((file) => scenarioUnder(file, fault)) };
  });
}

/** The scenario of `file`, with `fault` planted when given (the shape `libraryUnderFaults` gives). */
export function scenarioUnder(file: string, fault: Fault | undefined): Scenario {
  const base = loadScenario(file);
  return fault === undefined
    ? base
    : { ...base, options: { ...base.options, faults: [...base.options.faults, fault] } };
}

/**
 * What an equivalence test compares at the end of a simulation of `s`: the trace hash, the run report (without the
 * wall time), every node's final state down to its store's history (the execution key pins it), the chain's clock,
 * stall and pending work, its last block, and the scenario's own expectations checked against it.
 */
export function simulationEnd(s: Scenario, sim: Simulation) {
  const { wallMs: _wallMs, ...report } = reportOf(s, sim, [], s.seed, 0);
  const nodes = sim.nodeNames().map((name) => {
    const state = sim.nodeState(name);
    if (state === undefined) throw new Error(`no state for node ${name}`);
    return {
      name,
      status: sim.nodeStatus(name),
      storeKey: state.store.executionKey(),
      latest: state.store.latestVersion(),
      earliest: state.store.earliestVersion(),
      appHash: sim.host.lastAppHash(state),
      committed: sim.host.readCommitted(state),
      upgradeInfo: sim.host.readUpgradeInfo(state),
    };
  });
  // The log lines are in no report or trace: compared here so that every equivalence test covers them.
  const logs = { blocks: [...sim.blockLogs], halts: sim.halts.map((h) => h.logs) };
  const chain = {
    nowMs: sim.nowMs,
    lastBlockTimeMs: sim.lastBlockTimeMs,
    stalled: sim.stalled,
    pending: sim.pending,
    lastBlock: sim.blocks.meta(sim.height),
    expect: s.expect === undefined ? [] : checkExpectations("expect", s.expect, sim),
  };
  return { traceHash: sim.traceHash(), report, nodes, logs, ...chain };
}

/**
 * `simulationEnd` of `s` built with `engine` options and run to its own stop condition (capped at `maxBlocks` when
 * given): what an engine shortcut's on/off equivalence test compares.
 */
export function runEnd(s: Scenario, engine: EngineOptions, maxBlocks?: number) {
  const built = buildSimulation(s, { engine });
  if (!built.ok) throw new Error(`${s.file}: ${built.error}`);
  const sim = built.value;
  const stop = stopConditionOf(s);
  sim.run(maxBlocks === undefined ? stop : { ...stop, maxBlocks: Math.min(stop.maxBlocks ?? maxBlocks, maxBlocks) });
  return simulationEnd(s, sim);
}
