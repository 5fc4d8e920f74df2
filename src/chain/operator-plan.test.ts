import { describe, expect, it } from "vitest";
import type { CosmovisorOperator, ManualOperator, OperatorConfig } from "../app/operator.js";
import { OperatorDraws } from "./operator-draws.js";
import { planRecovery, sampleDuration } from "./operator-plan.js";

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
