import { describe, expect, it } from "vitest";
import { type BlockTimeModel, BlockTimeSource, meanInterval } from "./block-time.js";
import { type DriftBlockTime, DriftPath } from "./block-time-drift.js";

const HOUR_MS = 3_600_000;
const T0 = Date.UTC(2026, 0, 9, 8);

/** A drift model anchored at a live chain's height, every component on. */
function model(o: Partial<DriftBlockTime> = {}): DriftBlockTime {
  return {
    kind: "drift",
    meanMs: 6000,
    anchor: { height: 20_000_000, timeMs: T0, rateMs: 6600 },
    segmentBlocks: 600,
    persistence: 0.95,
    wander: 0.02,
    daily: { amplitude: 0.05, peakMs: 14 * HOUR_MS },
    shifts: { rate: 0.01, size: 0.05 },
    outages: { rate: 0.0002, meanMs: 120_000 },
    jitter: 0.15,
    ...o,
  };
}

const A = 20_000_000;

describe("drift BlockTimeSource: interval(h) depends only on (seed, model, h)", () => {
  it("gives the same interval whatever was asked before: out of order, far ahead first, fresh sources", () => {
    const m = model();
    const inOrder = new BlockTimeSource(7, m);
    const want = Array.from({ length: 5000 }, (_, i) => inOrder.interval(A + 1 + i));
    const jumpy = new BlockTimeSource(7, m);
    jumpy.interval(A + 4_000);
    const got = Array.from({ length: 5000 }, (_, i) => 4999 - i).map((i) => [i, jumpy.interval(A + 1 + i)] as const);
    for (const [i, v] of got) expect(v).toBe(want[i]);
  });

  it("idleTimes equals adding interval(h) one by one, stopping below the limit", () => {
    const m = model();
    const src = new BlockTimeSource(3, m);
    const from = A + 250;
    const out = new Float64Array(3000);
    const n = src.idleTimes(from, from + 3000, T0, T0 + 2000 * 6000, out, 0);
    let t = T0;
    let k = 0;
    for (let h = from; h < from + 3000; h++) {
      t += new BlockTimeSource(3, m).interval(h);
      if (t >= T0 + 2000 * 6000) break;
      expect(out[k]).toBe(t);
      k++;
    }
    expect(n).toBe(k);
    expect(n).toBeGreaterThan(1000);
  });

  it("differs between seeds and gives whole milliseconds ≥ 1", () => {
    const a = new BlockTimeSource(1, model());
    const b = new BlockTimeSource(2, model());
    let same = 0;
    for (let h = A + 1; h <= A + 1000; h++) {
      const x = a.interval(h);
      expect(Number.isInteger(x) && x >= 1).toBe(true);
      if (x === b.interval(h)) same++;
    }
    expect(same).toBeLessThan(50);
  });

  it("is anchored: the first hours run at the anchor's rate, then the mean returns to the long-run mean", () => {
    const m = model({
      wander: 0,
      shifts: { rate: 0, size: 0 },
      daily: { amplitude: 0, peakMs: 0 },
      outages: { rate: 0, meanMs: 0 },
    });
    const p = new DriftPath(11, m);
    expect(p.meanOf(0)).toBeCloseTo(6000 * (6600 / 6000) ** 0.95, 6);
    expect(p.meanOf(200)).toBeCloseTo(6000, 0);
    // Heights at or below the anchor read segment 0: nothing is computed from height 1.
    expect(p.segmentOf(1)).toBe(0);
    expect(p.segmentOf(A + 600)).toBe(0);
    expect(p.segmentOf(A + 601)).toBe(1);
  });

  it("reproduces its long-run mean and its drift: hour-to-hour spread of the local mean as the AR(1) implies", () => {
    const m = model({
      anchor: { height: A, timeMs: T0, rateMs: 6000 },
      shifts: { rate: 0, size: 0 },
      outages: { rate: 0, meanMs: 0 },
      daily: { amplitude: 0, peakMs: 0 },
      wander: 0.03,
      persistence: 0.9,
    });
    const src = new BlockTimeSource(5, m);
    const segments = 2000;
    const logs: number[] = [];
    let total = 0;
    for (let s = 0; s < segments; s++) {
      let sum = 0;
      for (let h = A + 1 + s * 600; h <= A + (s + 1) * 600; h++) sum += src.interval(h);
      total += sum;
      logs.push(Math.log(sum / 600));
    }
    expect(total / (segments * 600) / 6000).toBeGreaterThan(0.98);
    expect(total / (segments * 600) / 6000).toBeLessThan(1.02);
    const mu = logs.reduce((a, b) => a + b) / logs.length;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mu) ** 2, 0) / logs.length);
    const stationary = 0.03 / Math.sqrt(1 - 0.81);
    expect(sd / stationary).toBeGreaterThan(0.8);
    expect(sd / stationary).toBeLessThan(1.2);
  });

  it("has a daily cycle: the hour at the peak is slower than the hour 12 h away", () => {
    const m = model({
      anchor: { height: 0, timeMs: T0, rateMs: 6000 },
      wander: 0,
      shifts: { rate: 0, size: 0 },
      outages: { rate: 0, meanMs: 0 },
    });
    const p = new DriftPath(9, m);
    // T0 is 08:00 UTC; segment s starts about s hours later: 14:00 is s ≈ 6, 02:00 s ≈ 18.
    expect(p.meanOf(6) / p.meanOf(18)).toBeGreaterThan(Math.exp(0.09));
  });

  it("counts outages into its mean interval", () => {
    expect(meanInterval(model() as BlockTimeModel)).toBeCloseTo(6000 + 0.0002 * 120_000, 6);
  });

  it("draws its parameters per seed from their uncertainty: the same seed the same path, the long-run level spread as stated, and the start at the anchor's rate", () => {
    const still = { wander: 0, shifts: { rate: 0, size: 0 }, daily: { amplitude: 0, peakMs: 0 } };
    const u = model({
      ...still,
      outages: { rate: 0, meanMs: 0 },
      uncertainty: { level: 0.1, persistence: 0, wander: 0 },
    });
    expect(new DriftPath(4, u).meanOf(300)).toBe(new DriftPath(4, u).meanOf(300));
    const logs = Array.from({ length: 400 }, (_, seed) => Math.log(new DriftPath(seed, u).meanOf(300) / 6000));
    const mu = logs.reduce((a, b) => a + b) / logs.length;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mu) ** 2, 0) / logs.length);
    expect(Math.abs(mu)).toBeLessThan(0.02);
    expect(sd).toBeGreaterThan(0.085);
    expect(sd).toBeLessThan(0.115);
    // Segment 0 has faded only one step from the measured rate, whatever level the seed drew.
    for (let seed = 0; seed < 20; seed++) {
      const first = new DriftPath(seed, u).meanOf(0);
      expect(Math.abs(Math.log(first / 6600))).toBeLessThan(0.05 * (Math.log(6600 / 6000) + 3 * 0.1));
    }
  });

  it("keeps the point model's draws when it has no uncertainty, and its block draws when it has", () => {
    const m = model();
    const u = model({ uncertainty: { level: 0.05, persistence: 0.01, wander: 0.05 } });
    const a = new BlockTimeSource(8, m);
    const b = new BlockTimeSource(8, u);
    const pa = new DriftPath(8, m);
    const pb = new DriftPath(8, u);
    // The per-block word is the same: the same jitter and stalls around a different local mean.
    for (let h = A + 1; h <= A + 50; h++) {
      const ra = a.interval(h) / pa.meanOf(pa.segmentOf(h));
      const rb = b.interval(h) / pb.meanOf(pb.segmentOf(h));
      if (ra < 5 && rb < 5) expect(Math.abs(ra - rb)).toBeLessThan(1e-3);
    }
    expect(pb.meanOf(100)).not.toBe(pa.meanOf(100));
  });
});
