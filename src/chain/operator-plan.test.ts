import { describe, expect, it } from "vitest";
import type { CosmovisorOperator, ManualOperator, OperatorConfig } from "../app/operator.js";
import { OperatorDraws } from "./operator-draws.js";
import { planEarly, planFix, planRecovery, recoveryStartMs, sampleDuration } from "./operator-plan.js";

const MIN = 60_000;
const HALT = Date.UTC(2026, 0, 5, 10, 0); // a Monday, 11:00 in Berlin
const input = { haltMs: HALT, episode: 1000, binary: "v2", oldBinary: "v1" };
const draws = new OperatorDraws(1, "val1");

const visor = (o: Partial<CosmovisorOperator> = {}): CosmovisorOperator => ({
  pollIntervalMs: 300,
  restartAfterUpgrade: true,
  shutdownGraceMs: 0,
  restartDelayMs: 0,
  unsafeSkipBackup: false,
  backup: { kind: "fixed", ms: 0 },
  preUpgradeExitCodes: [1],
  preUpgradeDuration: { kind: "fixed", ms: 0 },
  preUpgradeMaxRetries: 0,
  onFailure: "stall",
  ...o,
});
const person = (o: Partial<ManualOperator> = {}): ManualOperator => ({
  reaction: { kind: "fixed", ms: 30 * MIN },
  absentProbability: 0,
  wrongBinaryProbability: 0,
  ...o,
});
const op = (o: Partial<OperatorConfig>): OperatorConfig => ({ binaries: new Map(), ...o });
const phases = (c: OperatorConfig) => planRecovery(c, input, draws, true).steps?.map((s) => s.phase);

describe("cosmovisor's sequence (process.go)", () => {
  it("detects, stops, waits, backs up, downloads, switches, runs pre-upgrade, restarts, in that order", () => {
    const c = op({
      cosmovisor: visor({
        shutdownGraceMs: 10_000,
        restartDelayMs: MIN,
        backup: { kind: "fixed", ms: 40 * MIN },
        autoDownload: { duration: { kind: "fixed", ms: 20 * MIN }, failureProbability: 0 },
      }),
    });
    expect(phases(c)).toEqual([
      "detect",
      "stop",
      "restart-delay",
      "backup",
      "download",
      "switch",
      "pre-upgrade",
      "restart",
    ]);
    const p = planRecovery(c, input, draws, false);
    const detect = planRecovery(c, input, draws, true).steps?.[0]?.atMs ?? 0;
    expect(detect - HALT).toBeGreaterThanOrEqual(0);
    expect(detect - HALT).toBeLessThan(300);
    expect(p.restartMs - detect).toBe(10_000 + MIN + 40 * MIN + 20 * MIN);
    expect(p.steps).toBeUndefined();
  });

  it("skips the backup with unsafeSkipBackup", () => {
    const c = op({ cosmovisor: visor({ unsafeSkipBackup: true, backup: { kind: "fixed", ms: 40 * MIN } }) });
    expect(phases(c)).not.toContain("backup");
    expect(planRecovery(c, input, draws, false).restartMs - HALT).toBeLessThan(300);
  });

  it("pre-upgrade: 31 retries while attempts ≤ maxRetries, then gives up; 30 fails at once; 0, 1 and others go on", () => {
    const retries = (codes: number[], max: number) =>
      phases(op({ cosmovisor: visor({ preUpgradeExitCodes: codes, preUpgradeMaxRetries: max }) }));
    expect(retries([31, 31, 0], 2)?.filter((p) => p === "pre-upgrade")).toHaveLength(3);
    expect(retries([31, 31, 0], 2)?.at(-1)).toBe("restart");
    expect(retries([31, 31, 0], 1)?.at(-1)).toBe("pre-upgrade-failed");
    expect(retries([31, 31, 0], 1)?.filter((p) => p === "pre-upgrade")).toHaveLength(2);
    expect(retries([30], 5)?.slice(-2)).toEqual(["pre-upgrade", "pre-upgrade-failed"]);
    for (const code of [0, 1, 2, 255]) expect(retries([code], 0)?.at(-1)).toBe("restart");
  });

  it("a failed download falls back to the person, or stalls", () => {
    const failing = visor({ autoDownload: { duration: { kind: "fixed", ms: 20 * MIN }, failureProbability: 1 } });
    const stall = planRecovery(op({ cosmovisor: failing }), input, draws, true);
    expect(stall.restartMs).toBe(Number.POSITIVE_INFINITY);
    expect(stall.steps?.at(-1)?.phase).toBe("download-failed");
    const fallback = planRecovery(
      op({ cosmovisor: { ...failing, onFailure: "manual" }, manual: person() }),
      input,
      draws,
      true,
    );
    const failedAt = fallback.steps?.find((s) => s.phase === "download-failed")?.atMs ?? 0;
    expect(fallback.restartMs).toBe(failedAt + 30 * MIN);
  });

  it("without DAEMON_RESTART_AFTER_UPGRADE cosmovisor exits after the switch", () => {
    const c = op({ cosmovisor: visor({ restartAfterUpgrade: false }) });
    expect(phases(c)?.at(-1)).toBe("exited");
  });
});

describe("a person", () => {
  it("reacts after the drawn time; an absent one never comes", () => {
    expect(planRecovery(op({ manual: person() }), input, draws, false).restartMs).toBe(HALT + 30 * MIN);
    const gone = planRecovery(op({ manual: person({ absentProbability: 1 }) }), input, draws, true);
    expect(gone.restartMs).toBe(Number.POSITIVE_INFINITY);
    expect(gone.steps?.map((s) => s.phase)).toEqual(["absent"]);
  });

  it("a wrong binary costs another reaction each time, at most three times", () => {
    const p = planRecovery(op({ manual: person({ wrongBinaryProbability: 1 }) }), input, draws, true);
    expect(p.steps?.filter((s) => s.phase === "wrong-binary")).toHaveLength(3);
    expect(p.restartMs).toBe(HALT + 4 * 30 * MIN);
  });

  it("the reaction clock pauses outside working hours", () => {
    const cal = {
      timeZone: "Europe/Berlin",
      startMinute: 9 * 60,
      endMinute: 17 * 60,
      days: [1, 2, 3, 4, 5],
      onCall: false,
    };
    // 11:00 Berlin on a Monday + 8h of working time: 6h on Monday, 2h on Tuesday from 09:00 → Tuesday 11:00 Berlin.
    const r = planRecovery(
      op({ manual: person({ reaction: { kind: "fixed", ms: 8 * 60 * MIN }, calendar: cal }) }),
      input,
      draws,
      false,
    );
    expect(r.restartMs).toBe(Date.UTC(2026, 0, 6, 10, 0));
  });
});

describe("distributions and draws", () => {
  it("a lognormal has the median and the p90 it was given", () => {
    const d = { kind: "lognormal", medianMs: 20 * MIN, p90Ms: 2 * 60 * MIN } as const;
    const xs = Array.from({ length: 20_001 }, (_, i) => sampleDuration(d, draws.uniform("reaction", i, 0))).sort(
      (a, b) => a - b,
    );
    expect(xs[10_000]! / d.medianMs).toBeCloseTo(1, 1);
    expect(xs[18_000]! / d.p90Ms).toBeCloseTo(1, 1);
  });

  it("draws are counter-based: the same (purpose, episode, attempt) gives the same value, in any order", () => {
    const a = new OperatorDraws(7, "val3");
    const b = new OperatorDraws(7, "val3");
    const first = a.uniform("backup", 1000, 0);
    for (let i = 0; i < 100; i++) b.uniform("reaction", i, 0);
    expect(b.uniform("backup", 1000, 0)).toBe(first);
    expect(new OperatorDraws(8, "val3").uniform("backup", 1000, 0)).not.toBe(first);
    expect(new OperatorDraws(7, "val4").uniform("backup", 1000, 0)).not.toBe(first);
    expect(a.uniform("backup", 1001, 0)).not.toBe(first);
    const mean =
      Array.from({ length: 10_000 }, (_, i) => a.uniform("detect", i, 0)).reduce((p, x) => p + x, 0) / 10_000;
    expect(mean).toBeCloseTo(0.5, 1);
  });
});

describe("ahead of the upgrade (planEarly) and the fix (planFix)", () => {
  const expectedHaltMs = HALT + 2 * 60 * MIN;
  const early = { nowMs: HALT, expectedHaltMs, planName: "v2", planHeight: 1000, binary: "v2", oldBinary: "v1" };
  const lead = (ms: number, probability = 1) => ({ probability, lead: { kind: "fixed", ms } as const });

  it("a person installs the plan's binary `lead` before the expected halt, or at once when that is past", () => {
    const at = (ms: number) => planEarly(op({ manual: person({ early: lead(ms) }) }), early, draws);
    expect(at(30 * MIN)).toEqual([
      {
        atMs: expectedHaltMs - 30 * MIN,
        phase: "restart-early",
        detail: "the operator installs v2 ahead of the upgrade at 1000 and restarts the node",
        binary: "v2",
      },
    ]);
    expect(at(5 * 60 * MIN)[0]?.atMs).toBe(HALT);
    expect(planEarly(op({ manual: person({ early: lead(30 * MIN, 0) }) }), early, draws)).toEqual([]);
    expect(planEarly(op({ manual: person() }), early, draws)).toEqual([]);
  });

  it("the early draw is per plan: a probability of one half acts for about half the plans", () => {
    const c = op({ manual: person({ early: lead(30 * MIN, 0.5) }) });
    const acted = Array.from({ length: 2000 }, (_, i) => planEarly(c, { ...early, planHeight: 1000 + i }, draws));
    const share = acted.filter((s) => s.length > 0).length / 2000;
    expect(share).toBeGreaterThan(0.45);
    expect(share).toBeLessThan(0.55);
  });

  it("a staged upgrade: add-upgrade, then cosmovisor's sequence from its next poll, ending in an early restart", () => {
    const c = op({
      cosmovisor: visor({
        shutdownGraceMs: 10_000,
        backup: { kind: "fixed", ms: 5 * MIN },
        addUpgrade: lead(20 * MIN),
      }),
    });
    const steps = planEarly(c, early, draws);
    expect(steps.map((s) => s.phase)).toEqual([
      "stage",
      "detect",
      "stop",
      "backup",
      "switch",
      "pre-upgrade",
      "restart-early",
    ]);
    const stageMs = expectedHaltMs - 20 * MIN;
    expect(steps[0]).toEqual({
      atMs: stageMs,
      phase: "stage",
      detail: "cosmovisor add-upgrade v2 --upgrade-height 1000: upgrade-info.json written",
    });
    const detect = steps[1]?.atMs ?? 0;
    expect(detect - stageMs).toBeGreaterThanOrEqual(0);
    expect(detect - stageMs).toBeLessThan(300);
    // The node is running: it exits on SIGINT at once, so the grace costs nothing.
    expect(steps[2]?.detail).toBe("SIGINT: the running node exits");
    expect(steps.at(-1)).toMatchObject({ atMs: detect + 5 * MIN, binary: "v2" });
    // Its draws are a stream of their own: the halt's recovery at the same height draws anew.
    const halt = planRecovery(c, { ...input, haltMs: stageMs }, draws, true).steps?.[0]?.atMs;
    expect(halt).not.toBe(detect);
  });

  it("a staged upgrade cosmovisor gives up on is handed to the person, who goes back to the old binary", () => {
    const failing = visor({
      autoDownload: { duration: { kind: "fixed", ms: 20 * MIN }, failureProbability: 1 },
      addUpgrade: lead(60 * MIN),
    });
    const stall = planEarly(op({ cosmovisor: { ...failing, onFailure: "stall" }, manual: person() }), early, draws);
    expect(stall.at(-1)?.phase).toBe("download-failed");
    const handed = planEarly(op({ cosmovisor: { ...failing, onFailure: "manual" }, manual: person() }), early, draws);
    const failedAt = handed.find((s) => s.phase === "download-failed")?.atMs ?? 0;
    expect(handed.slice(-2)).toEqual([
      { atMs: failedAt, phase: "wait-operator", detail: "waiting for the operator (reaction 30m0s of working time)" },
      {
        atMs: failedAt + 30 * MIN,
        phase: "downgrade",
        detail: "the operator goes back to v1 and restarts the node",
        binary: "v1",
      },
    ]);
  });

  it("cosmovisor without add-upgrade leaves the early action to the person", () => {
    const c = op({ cosmovisor: visor(), manual: person({ early: lead(30 * MIN) }) });
    expect(planEarly(c, early, draws).map((s) => s.phase)).toEqual(["restart-early"]);
    expect(planEarly(op({ cosmovisor: visor() }), early, draws)).toEqual([]);
  });

  it("the fix waits for the person's working time", () => {
    const cal = {
      timeZone: "Europe/Berlin",
      startMinute: 9 * 60,
      endMinute: 17 * 60,
      days: [1, 2, 3, 4, 5],
      onCall: false,
    };
    // Monday 16:30 Berlin + 1h of working time: 30m on Monday, 30m from Tuesday 09:00.
    const from = Date.UTC(2026, 0, 5, 15, 30);
    const fix = planFix(person({ reaction: { kind: "fixed", ms: 60 * MIN }, calendar: cal }), from, 700, "v1", draws);
    expect(fix.map((s) => [s.phase, s.atMs])).toEqual([
      ["wait-operator", from],
      ["downgrade", Date.UTC(2026, 0, 6, 8, 30)],
    ]);
  });

  it("each step that starts a binary names it: the wrong one is the old binary, the restart the plan's", () => {
    const p = planRecovery(op({ manual: person({ wrongBinaryProbability: 1 }) }), input, draws, true);
    const starts = p.steps?.filter((s) => s.binary !== undefined).map((s) => [s.phase, s.binary]);
    expect(starts).toEqual([
      ["wrong-binary", "v1"],
      ["wrong-binary", "v1"],
      ["wrong-binary", "v1"],
      ["restart", "v2"],
    ]);
    const c = planRecovery(op({ cosmovisor: visor() }), input, draws, true);
    expect(c.steps?.filter((s) => s.binary !== undefined).map((s) => [s.phase, s.binary])).toEqual([["restart", "v2"]]);
  });
});

describe("the recovery's start after an early action (explore halt-recovery)", () => {
  const early = (leadMs: number) => ({ probability: 1, lead: { kind: "fixed", ms: leadMs } as const });

  it("is the halt when nothing happens early, or when the person went back to the old binary before it", () => {
    expect(recoveryStartMs(op({ manual: person() }), HALT, 1000, draws)).toBe(HALT);
    expect(recoveryStartMs(op({ manual: person({ early: early(60 * MIN) }) }), HALT, 1000, draws)).toBe(HALT);
  });

  it("is the person's fix when it comes after the halt: the node catches up and halts then", () => {
    // Installed 10m before the halt, noticed 30m later: 20m after the halt.
    expect(recoveryStartMs(op({ manual: person({ early: early(10 * MIN) }) }), HALT, 1000, draws)).toBe(
      HALT + 20 * MIN,
    );
  });

  it("is never when nobody goes back: a staged cosmovisor without a person, or one that stalls", () => {
    const staged = visor({ addUpgrade: early(60 * MIN) });
    expect(recoveryStartMs(op({ cosmovisor: staged }), HALT, 1000, draws)).toBe(Number.POSITIVE_INFINITY);
    const failing = {
      ...staged,
      autoDownload: { duration: { kind: "fixed", ms: 0 } as const, failureProbability: 1 },
    };
    expect(recoveryStartMs(op({ cosmovisor: failing }), HALT, 1000, draws)).toBe(Number.POSITIVE_INFINITY);
    // Handed to the person when it gives up: back on the old binary 30m after the failure, before the halt.
    const handed = op({ cosmovisor: { ...failing, onFailure: "manual" }, manual: person() });
    expect(recoveryStartMs(handed, HALT, 1000, draws)).toBe(HALT);
    // A staged switch with a person behind it: the restart halts at once, the fix comes 30m later.
    const fixed = op({ cosmovisor: visor({ addUpgrade: early(10 * MIN) }), manual: person() });
    const start = recoveryStartMs(fixed, HALT, 1000, draws);
    expect(start - HALT).toBeGreaterThanOrEqual(20 * MIN);
    expect(start - HALT).toBeLessThan(20 * MIN + 300);
  });
});
