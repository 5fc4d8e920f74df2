import { describe, expect, it } from "vitest";
import { drawTimes, importerSamples } from "../../test/kit/history.js";
import type { DriftBlockTime } from "./block-time-drift.js";
import { fitBlockTimes } from "./block-time-fit.js";

const HOUR_MS = 3_600_000;
const T0 = Date.UTC(2026, 0, 2, 8);
const WEEK_BLOCKS = 100_800;
const START = 19_900_000;

function truth(o: Partial<DriftBlockTime> = {}): DriftBlockTime {
  return {
    kind: "drift",
    meanMs: 6000,
    anchor: { height: START - 1, timeMs: T0, rateMs: 6000 },
    segmentBlocks: 600,
    persistence: 0.95,
    wander: 0.02,
    daily: { amplitude: 0.05, peakMs: 14 * HOUR_MS },
    shifts: { rate: 0, size: 0 },
    outages: { rate: 0.001, meanMs: 60_000 },
    jitter: 0.15,
    ...o,
  };
}

function fitted(seed: number, m: DriftBlockTime) {
  const times = drawTimes(seed, m, START, WEEK_BLOCKS, T0);
  const samples = importerSamples(times, START);
  const r = fitBlockTimes(samples);
  if (!r.ok) throw new Error(r.error);
  const f = r.value;
  if (f.model.kind !== "drift") throw new Error("not a drift model");
  const actualMs = ((times[WEEK_BLOCKS - 1] as number) - T0) / WEEK_BLOCKS;
  return { fit: f, model: f.model, actualMs, samples: samples.length };
}

describe("fitBlockTimes on a week sampled as the importer samples it (1,000 pages of 20, the last hour whole)", () => {
  const SEEDS = [1, 2, 3, 4, 5];

  it("recovers the mean within 5%, the window mean within 0.5% of the realised one", () => {
    for (const seed of SEEDS) {
      const { fit, model, actualMs, samples } = fitted(seed, truth());
      expect(samples).toBeLessThan(25_000);
      expect(Math.abs(model.meanMs + model.outages.rate * model.outages.meanMs - 6060) / 6060).toBeLessThan(0.05);
      expect(Math.abs(fit.meanBlockTime.windowMs - actualMs) / actualMs).toBeLessThan(0.005);
      expect(fit.hourlyMs.length).toBe(Math.floor((actualMs * WEEK_BLOCKS - actualMs) / HOUR_MS));
    }
  });

  it("recovers the AR(1) (persistence ±0.15 per week, ±0.06 on average; wander ±50%, its stationary spread ±25% on average), the jitter (±15%), the outages (±50%)", () => {
    // A week holds 168 hourly segments: one week's φ estimate is noisy, the average over five is not.
    const fits = SEEDS.map((seed) => fitted(seed, truth()).model);
    for (const model of fits) {
      expect(Math.abs(model.persistence - 0.95)).toBeLessThan(0.15);
      expect(Math.abs(model.wander - 0.02) / 0.02).toBeLessThan(0.5);

      expect(Math.abs(model.jitter - 0.15) / 0.15).toBeLessThan(0.15);
      expect(Math.abs(model.outages.rate - 0.001) / 0.001).toBeLessThan(0.5);
      expect(Math.abs(model.outages.meanMs - 60_000) / 60_000).toBeLessThan(0.5);
    }
    const mean = (f: (m: DriftBlockTime) => number): number => fits.reduce((s, m) => s + f(m), 0) / fits.length;
    expect(Math.abs(mean((m) => m.persistence) - 0.95)).toBeLessThan(0.06);
    // The stationary spread of the hourly mean (a week is ~4 independent looks at a 20-hour memory): on average.
    const target = 0.02 / Math.sqrt(1 - 0.95 ** 2);
    expect(Math.abs(mean((m) => m.wander / Math.sqrt(1 - m.persistence ** 2)) - target) / target).toBeLessThan(0.25);
  });

  it("states its parameters' uncertainty: the true level within 3 stated deviations every week", () => {
    for (const seed of SEEDS) {
      const { model } = fitted(seed, truth());
      const u = model.uncertainty;
      if (u === undefined) throw new Error("no uncertainty");
      // The model's level is the mean without the stalls' share; the truth's is 6000 ms.
      expect(Math.abs(Math.log(model.meanMs / 6000))).toBeLessThan(3 * u.level);
      // The persistence's is the asymptotic deviation of a lag-1 estimate, on ln(1 − φ): at φ = 0.95 over a week,
      // √((1 − φ²)/168)/(1 − φ) ≈ 0.48 (the noise-robust ρ(2)/ρ(1) varies more: docs/block-time-model.md §2).
      expect(u.persistence).toBeGreaterThan(0.1);
      expect(u.persistence).toBeLessThan(1);
      expect(u.wander).toBeCloseTo(Math.sqrt(1 / (2 * 168)), 2);
    }
  });

  it("recovers the daily cycle (amplitude ±0.025, ±0.01 on average; peak ±2 h) and finds none where there is none", () => {
    const amps: number[] = [];
    for (const seed of SEEDS) {
      const { model } = fitted(seed, truth());
      amps.push(model.daily.amplitude);
      expect(Math.abs(model.daily.amplitude - 0.05)).toBeLessThan(0.025);
      const off = Math.abs(model.daily.peakMs - 14 * HOUR_MS);
      expect(Math.min(off, 24 * HOUR_MS - off)).toBeLessThan(2 * HOUR_MS);
      const flat = fitted(seed, truth({ daily: { amplitude: 0, peakMs: 0 } })).model;
      expect(flat.daily.amplitude).toBeLessThan(0.015);
    }
    expect(Math.abs(amps.reduce((s, a) => s + a, 0) / amps.length - 0.05)).toBeLessThan(0.01);
  });

  it("sees a regime shift and takes the level since it: a 15% slowdown two days before the anchor", () => {
    // The history: 5 days at 6 s, then 2 days at 6.9 s (drawn as two anchored models, the second from the first's end).
    for (const seed of SEEDS) {
      const quiet = { wander: 0.01, daily: { amplitude: 0, peakMs: 0 }, outages: { rate: 0, meanMs: 0 } };
      const five = 72_000;
      const a = drawTimes(seed, truth(quiet), START, five, T0);
      const endA = a[five - 1] as number;
      const slow = truth({ ...quiet, meanMs: 6900, anchor: { height: START + five - 1, timeMs: endA, rateMs: 6900 } });
      const b = drawTimes(seed + 100, slow, START + five, 25_000, endA);
      const times = new Float64Array(five + 25_000);
      times.set(a, 0);
      times.set(b, five);
      const r = fitBlockTimes(importerSamples(times, START));
      if (!r.ok || r.value.model.kind !== "drift") throw new Error("fit failed");
      expect(r.value.fit.shiftsSeen).toBeGreaterThanOrEqual(1);
      expect(Math.abs(r.value.model.meanMs - 6900) / 6900).toBeLessThan(0.03);
      expect(r.value.meanBlockTime.windowMs).toBeLessThan(6500);
    }
  });

  it("is anchored at the last sample with the recent rate", () => {
    const m = truth({
      anchor: { height: START - 1, timeMs: T0, rateMs: 7200 },
      persistence: 0.99,
      daily: { amplitude: 0, peakMs: 0 },
    });
    const times = drawTimes(9, m, START, WEEK_BLOCKS, T0);
    const r = fitBlockTimes(importerSamples(times, START));
    if (!r.ok || r.value.model.kind !== "drift") throw new Error("fit failed");
    const f = r.value;
    expect(f.model.kind === "drift" && f.model.anchor.height).toBe(START + WEEK_BLOCKS - 1);
    expect(f.model.kind === "drift" && f.model.anchor.timeMs).toBe(times[WEEK_BLOCKS - 1]);
    expect(f.model.kind === "drift" && f.model.anchor.rateMs).toBeCloseTo(f.meanBlockTime.lastHourMs, -1);
    expect(f.document.drift.anchor).toEqual({
      height: START + WEEK_BLOCKS - 1,
      time: new Date(times[WEEK_BLOCKS - 1] as number).toISOString().replace(".000Z", "Z"),
      rate: expect.stringMatching(/s$/),
    });
  });

  it("fits a short history (the last hour only, or two samples) to a sane model: no cycle, a shift prior of one a week", () => {
    const times = drawTimes(4, truth(), START, WEEK_BLOCKS, T0);
    const hour = importerSamples(times, START).filter((s) => s.timeMs >= (times[WEEK_BLOCKS - 1] as number) - HOUR_MS);
    for (const samples of [hour, [hour[0], hour[hour.length - 1]] as typeof hour]) {
      const r = fitBlockTimes(samples);
      if (!r.ok || r.value.model.kind !== "drift") throw new Error("fit failed");
      const m = r.value.model;
      expect(Math.abs(m.meanMs - r.value.meanBlockTime.windowMs) / r.value.meanBlockTime.windowMs).toBeLessThan(0.05);
      expect(m.daily.amplitude).toBe(0);
      expect(m.shifts.rate).toBeLessThanOrEqual(1 / 168 + 1e-5);
      expect(m.anchor.height).toBe(samples[samples.length - 1]?.height);
    }
  });

  it("refuses samples it cannot fit, in one line", () => {
    expect(fitBlockTimes([{ height: 1, timeMs: 0 }])).toEqual({ ok: false, error: "need at least 2 samples, got 1" });
    const back = fitBlockTimes([
      { height: 5, timeMs: 10 },
      { height: 4, timeMs: 20 },
    ]);
    expect(back.ok ? "" : back.error).toMatch(/heights must increase/);
    const still = fitBlockTimes([
      { height: 5, timeMs: 10 },
      { height: 6, timeMs: 10 },
    ]);
    expect(still.ok ? "" : still.error).toMatch(/span no time/);
  });
});
