/**
 * Fixtures for the report's tests: a replayed scenario with a deposit period, voting, a cancel, halts, sidecar swaps
 * and an applied upgrade; the same scenario failing; and a campaign summary with one counterexample (from a fake
 * property runner, so no chain runs).
 */
import { machineTransitions } from "../../models/coverage.js";
import { runCampaign } from "../../src/harness/campaign.js";
import { HOLDS, type Property, Violation } from "../../src/harness/property.js";
import type { PropertyOutcome, PropertyRunOptions } from "../../src/harness/run-property.js";
import { type CheckSummary, checkSummary } from "../../src/harness/summary.js";
import type { ReportInput, ScenarioRecord } from "../../src/report/types.js";
import { parseScenario } from "../../src/scenario/load.js";
import { runScenario } from "../../src/scenario/runner.js";

export const SAMPLE_SCENARIO = `
name: sample-upgrade
chain:
  validators:
    - { name: val1, power: 100 }
    - { name: val2, power: 100 }
    - { name: val3, power: 100 }
    - { name: val4, power: 100 }
  gov: { maxDepositPeriod: 1h, votingPeriod: 1h, expeditedVotingPeriod: 30m }
binaries:
  v1: {}
  v2:
    upgrades:
      v2: { handler: migrate }
nodes:
  default:
    sidecar: { enabled: true, delay: 5m }
steps:
  - at: 2
    submitProposal:
      id: upgrade
      proposer: val1
      deposit: 100000stake
      messages:
        - softwareUpgrade: { name: v2, height: 1000 }
  - at: 10
    submitProposal:
      id: cancel
      proposer: val2
      messages:
        - cancelUpgrade: {}
  - at: 11
    vote: { proposal: cancel, votes: { val1: yes, val2: yes, val3: yes } }
  - at: 20
    deposit: { proposal: upgrade, from: val3, amount: 9900000stake }
  - at: 21
    vote: { proposal: upgrade, votes: { val1: yes, val2: yes, val3: yes } }
expect:
  applied: { v2: 1000 }
`;

/** The sample scenario replayed with its trace; `failing` adds an expectation it does not meet. */
export function sampleRecord(o: { readonly failing?: boolean; readonly file?: string } = {}): ScenarioRecord {
  const text = o.failing === true ? `${SAMPLE_SCENARIO}  height: 999999\n` : SAMPLE_SCENARIO;
  const named = o.failing === true ? text.replace("name: sample-upgrade", "name: sample-failing") : text;
  const parsed = parseScenario(o.file ?? "scenarios/sample.yaml", named);
  if (!parsed.ok) throw new Error(`sample scenario: ${JSON.stringify(parsed.error)}`);
  const { report, sim } = runScenario(parsed.value, { keepTrace: true });
  return { report, trace: sim.traceLines() };
}

/** A property stub: the campaign machinery under test never runs its check. */
const stub = (name: string): Property => ({
  name,
  statement: `always: ${name} holds`,
  kind: "always",
  catches: [],
  check: () => HOLDS,
});

const fakeRun = (o: PropertyRunOptions): PropertyOutcome => {
  const base = { property: o.property.name, interrupted: false, fired: new Set(["NODE_STOPPED.stop"]), commandsRun: 4 };
  if (o.property.name !== "cancel-effective") return { ...base, runs: o.numRuns, passed: true };
  return {
    ...base,
    runs: 3,
    passed: false,
    counterexample: {
      property: "cancel-effective",
      violation: new Violation("cancel-effective", 'plan "v2" ran after a cancel <cleared> it').detail,
      world: { seed: o.seed, sidecars: { val2: 60_000 } },
      commands: [
        { kind: "emergency-upgrade", name: "v2", offset: 7 },
        { kind: "advance", blocks: 2 },
      ],
      document: { name: "x", binaries: { v1: {} }, chain: { validators: [{ name: "v", power: 1 }] } },
      seed: o.seed,
      path: "3:0",
      numShrinks: 5,
    },
  };
};

/** A summary of a two-property campaign where `cancel-effective` failed; `counts` fills the transition counts. */
export function sampleSummary(counts: Readonly<Record<string, number>> = {}): CheckSummary {
  let t = 0;
  const r = runCampaign(
    { seed: 42, properties: [stub("run-once"), stub("cancel-effective")], runsPerProperty: 20, generationSamples: 10 },
    { clock: () => (t += 50), runProperty: fakeRun },
  );
  const s = checkSummary(r, {
    runId: "all-20260101-000000-42",
    command: "all",
    startedAt: "2026-01-01T00:00:00.000Z",
    commit: "abc1234",
    regressionFiles: new Map([["cancel-effective", "scenarios/regressions/cancel-effective-0badc0de.yaml"]]),
  });
  const all = Object.fromEntries(machineTransitions().map((x) => [x.id, counts[x.id] ?? 0]));
  return { ...s, coverage: { ...s.coverage, counts: all } };
}

/** A complete report input: the summary, a passing and a failing scenario, no exploration. */
export function sampleInput(): ReportInput {
  return {
    summary: sampleSummary({ "NODE_STOPPED.stop": 12, "progressing.BLOCK.commit": 3400 }),
    scenarios: [sampleRecord(), sampleRecord({ failing: true })],
    exploration: null,
    transitions: machineTransitions(),
  };
}

/** A summary without what measures the machine (wall times, rates), the run's name and where it was written. */
export function comparableSummary(s: CheckSummary): unknown {
  return {
    ...s,
    runId: undefined,
    startedAt: undefined,
    wallMs: undefined,
    runsPerS: undefined,
    summaryPath: undefined,
    pagePath: undefined,
    simulated: { ...s.simulated, chainMsPerWallMs: undefined },
    properties: s.properties.map((p) => ({
      ...p,
      wallMs: undefined,
      runsPerS: undefined,
      units: p.units.map((u) => ({ ...u, wallMs: undefined })),
    })),
  };
}
