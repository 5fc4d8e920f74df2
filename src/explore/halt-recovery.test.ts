import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseScenario } from "../scenario/load.js";
import { buildSimulation, stopConditionOf } from "../scenario/simulate.js";
import {
  type RecoveryMember,
  type RecoverySetup,
  rankHours,
  runTrials,
  summarize,
  timeOfDay,
} from "./halt-recovery.js";
import { exploreHaltRecovery, haltRecoveryText } from "./halt-recovery-report.js";
import { applyWhatIf } from "./what-if.js";

const MIN = 60_000;
const sidecar = (name: string, delayMin: number, power = 100): RecoveryMember => ({
  name,
  power,
  operator: undefined,
  sidecarDelayMs: delayMin * MIN,
});
const setupOf = (members: readonly RecoveryMember[]): RecoverySetup => ({
  members,
  haltMs: Date.UTC(2026, 0, 1),
  seed: 1,
  binary: "v2",
});

function scenarioSetup(file: string): { setup: RecoverySetup; resumeMs: number | undefined; haltHeight: number } {
  const r = parseScenario(file, readFileSync(file, "utf8"));
  if (!r.ok) throw new Error(r.error.map((e) => e.message).join("\n"));
  const s = r.value;
  const built = buildSimulation(s, { engine: { keepTrace: true } });
  if (!built.ok) throw new Error(built.error);
  built.value.run(stopConditionOf(s));
  const events = built.value.traceEvents();
  const halt = events.find((e) => e.kind === "halt" && e.haltKind === "upgrade-needed");
  if (halt?.kind !== "halt") throw new Error("no halt");
  const block = events.find((e) => e.kind === "block" && e.height === halt.height);
  const members = s.chain.validators.map((v) => ({
    name: v.name,
    power: v.power,
    operator: s.nodes.get(v.name)?.operator,
    sidecarDelayMs: undefined,
  }));
  return {
    setup: { members, haltMs: halt.timeMs, seed: s.seed, binary: "v2" },
    resumeMs: block?.kind === "block" ? block.timeMs : undefined,
    haltHeight: halt.height,
  };
}

describe("halt-recovery trials", () => {
  it("the chain is back when more than 2/3 of the power is: exactly 2/3 is not enough", () => {
    const three = runTrials(setupOf([sidecar("a", 10), sidecar("b", 20), sidecar("c", 30)]), 1);
    expect(three.downtimes[0]).toBe(30 * MIN);
    const four = runTrials(setupOf([sidecar("a", 10), sidecar("b", 20), sidecar("c", 30), sidecar("d", 40)]), 1);
    expect(four.downtimes[0]).toBe(30 * MIN);
    expect([...four.critical]).toEqual([0, 0, 1, 0]);
    const weighted = runTrials(setupOf([sidecar("big", 50, 700), sidecar("small", 1, 300)]), 1);
    expect(weighted.downtimes[0]).toBe(50 * MIN);
  });

  it("a population that can never pass 2/3 is never back", () => {
    const none = { name: "x", power: 100, operator: undefined, sidecarDelayMs: undefined };
    const d = summarize(runTrials(setupOf([sidecar("a", 1), sidecar("b", 1), none]), 10).downtimes);
    expect(d).toMatchObject({ p50Ms: null, never: 1, within4h: 0 });
  });

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
  ])("agrees with the engine on %s (the trial whose episode is the halt height)", (file) => {
    const { setup, resumeMs, haltHeight } = scenarioSetup(file);
    const { downtimes } = runTrials(setup, 1, haltHeight);
    expect(downtimes[0]).toBe(resumeMs === undefined ? Number.POSITIVE_INFINITY : resumeMs - setup.haltMs);
  });

  it("is deterministic, and what-ifs share the baseline's draws", () => {
    const { setup } = scenarioSetup("scenarios/operator-third-never-upgrades.yaml");
    const a = runTrials(setup, 500).downtimes;
    expect(runTrials(setup, 500).downtimes).toEqual(a);
    expect(summarize(a).never).toBe(1);
    const w = applyWhatIf("val5: cosmovisor", setup.members);
    if (!w.ok) throw new Error(w.error);
    const d = summarize(runTrials({ ...setup, members: w.value.members }, 500).downtimes);
    expect(d.never).toBe(0);
    expect(d.p50Ms).toBeLessThan(60 * MIN);
  });

  it("a night-time halt is worst in the Berlin evening and best at the start of its working day", () => {
    const { setup } = scenarioSetup("scenarios/operator-night-time-halt.yaml");
    const ranked = rankHours(timeOfDay(setup, 20));
    expect(ranked[0]?.hourUtc).toBe(8);
    expect(ranked[0]?.downtime.p50Ms).toBe(30 * MIN);
    expect(ranked.at(-1)?.hourUtc).toBe(16);
  });
});

describe("what-ifs", () => {
  const members = [sidecar("val1", 10), { name: "val2", power: 100, operator: undefined, sidecarDelayMs: undefined }];
  it.each([
    ["val9: cosmovisor", 'no validator "val9"'],
    ["val1: fly", 'unknown change "fly"'],
    ["val1:", "no change given"],
    ["backups off", 'expected "no-backups"'],
    ["val2: manual", "val2 has no person"],
  ])("%s is refused", (text, message) => {
    const r = applyWhatIf(text, members);
    expect(r.ok ? "" : r.error).toContain(message);
  });

  it("'all: never' keeps the chain down; 'val2: cosmovisor autoDownload' brings val2 back at once", () => {
    const never = applyWhatIf("all: never", members);
    const visor = applyWhatIf("val2: cosmovisor autoDownload", members);
    if (!never.ok || !visor.ok) throw new Error("what-if refused");
    expect(summarize(runTrials(setupOf(never.value.members), 5).downtimes).never).toBe(1);
    expect(runTrials(setupOf(visor.value.members), 1).downtimes[0]).toBe(10 * MIN);
  });
});

describe("the report", () => {
  it("names the downtime percentiles, the critical validators and the best and worst hours", () => {
    const { setup } = scenarioSetup("scenarios/operator-failed-download-manual-fallback.yaml");
    const x = exploreHaltRecovery({ setup, runs: 200, whatIfs: [], source: "s.yaml", haltFrom: "test" });
    const text = haltRecoveryText(x).join("\n");
    expect(text).toMatch(/as configured +1h5m0s/);
    expect(text).toMatch(/val1 +100 +100\.0%/);
    expect(x.critical.map((c) => c.node)).toEqual(["val1"]);
    expect(text).toContain("best  ");
  });
});
