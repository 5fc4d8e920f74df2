import { describe, expect, it } from "vitest";
import type { DriftBlockTime } from "../chain/block-time-drift.js";
import { parseScenario } from "../scenario/load.js";
import { buildSimulation } from "../scenario/simulate.js";
import { inWindow, parseWindow } from "./daily-window.js";
import {
  bandAt,
  blockAndPrevious,
  CENTRE_RUNS_MAX,
  haltTimes,
  heightsAt,
  type PlanClock,
  planHeight,
  quantile,
  recommendedHeight,
  runSeed,
} from "./plan-height.js";

const GENESIS = Date.UTC(2026, 0, 1);
function window(text: string) {
  const w = parseWindow(text);
  if (!w.ok) throw new Error(w.error);
  return w.value;
}
const DRIFT_DOC = {
  drift: {
    mean: "6s",
    segmentBlocks: 100,
    persistence: 0.9,
    wander: 0.05,
    daily: { amplitude: 0.05, peak: "14:00" },
    shifts: { rate: 0.02, size: 0.1 },
    outages: { rate: 0.002, mean: "1m" },
    jitter: 0.2,
  },
};

/** The same model with a fit's sampling uncertainty: each seed draws its own level, persistence and wander. */
const UNCERTAIN_DOC = { drift: { ...DRIFT_DOC.drift, uncertainty: { level: 0.05, persistence: 0.8, wander: 0.2 } } };

/** A scenario on the drift model anchored at genesis, run to height `h` with `seed`: the time of block h. */
function engineTimeOf(h: number, seed: number, doc: object = DRIFT_DOC): number {
  const text = JSON.stringify({ name: "drift", chain: { blockTime: doc }, binaries: { v1: {} } });
  const sc = parseScenario("drift.json", text);
  if (!sc.ok) throw new Error(JSON.stringify(sc.error));
  const sim = buildSimulation(sc.value, { seed });
  if (!sim.ok) throw new Error(sim.error);
  sim.value.run({ untilHeight: h });
  expect(sim.value.height).toBe(h);
  return sim.value.lastBlockTimeMs;
}

function genesisClock(doc: object = DRIFT_DOC): PlanClock {
  const sc = parseScenario("d.json", JSON.stringify({ name: "d", chain: { blockTime: doc }, binaries: { v1: {} } }));
  if (!sc.ok) throw new Error("bad scenario");
  return { height: 0, timeMs: GENESIS, blockTime: sc.value.chain.blockTime };
}

describe("the planner draws what the engine commits", () => {
  it("an engine run with seed + i commits block H at exactly the planner's time for run i", () => {
    const clock = genesisClock();
    const H = 3000;
    const runs = 4;
    const planned = [...haltTimes(clock, H, runs, 40)];
    const engine = Array.from({ length: runs }, (_, i) => engineTimeOf(H, runSeed(40, i))).sort((a, b) => a - b);
    expect(planned).toEqual(engine);
  });

  it("heightsAt and haltTimes agree: P(halt(h) ≤ T) = P(height at T ≥ h)", () => {
    const clock: PlanClock = { ...genesisClock(), height: 20_000_000 };
    const m = clock.blockTime as DriftBlockTime;
    const anchored: PlanClock = {
      ...clock,
      blockTime: { ...m, anchor: { height: 20_000_000, timeMs: GENESIS, rateMs: 7000 } },
    };
    const target = GENESIS + 2 * 86_400_000;
    const heights = heightsAt(anchored, target, 200, 3);
    const h = recommendedHeight(heights);
    const times = haltTimes(anchored, h, 200, 3);
    const below = times.filter((t) => t <= target).length;
    const reached = heights.filter((x) => x >= h).length;
    expect(below).toBe(reached);
    // Within a block of the target, and a block may be a stall (mean 1 min).
    expect(Math.abs(quantile(times, 0.5) - target)).toBeLessThan(300_000);
  });
});

describe("planHeight: one pass and a checkpoint give what the separate passes give", () => {
  it("equals heightsAt, the lower median and blockAndPrevious, near and far targets", () => {
    const m = genesisClock().blockTime as DriftBlockTime;
    const clock: PlanClock = {
      height: 20_000_000,
      timeMs: GENESIS,
      blockTime: { ...m, anchor: { height: 20_000_000, timeMs: GENESIS, rateMs: 6500 } },
    };
    for (const [target, runs] of [
      [GENESIS + 30_000, 5],
      [GENESIS + 3 * 3_600_000, 40],
      [GENESIS + 3 * 86_400_000, 60],
    ] as const) {
      const p = planHeight(clock, target, runs, 8);
      const heights = heightsAt(clock, target, runs, 8);
      expect([...p.heights]).toEqual([...heights]);
      expect(p.height).toBe(Math.max(20_000_001, recommendedHeight(heights)));
      const b = blockAndPrevious(clock, p.height, runs, 8);
      expect([...p.at]).toEqual([...b.at]);
      expect([...p.previous]).toEqual([...b.previous]);
    }
  });
});

describe("planHeight with the fit's uncertainty: the centre from the point model, the band from the model", () => {
  const uncertain = genesisClock(UNCERTAIN_DOC);
  const point = genesisClock();

  it("equals the separate passes: the point model's lower median and P50, the model's heights and times there", () => {
    const target = GENESIS + 86_400_000;
    for (const runs of [5, CENTRE_RUNS_MAX + 40]) {
      const p = planHeight(uncertain, target, runs, 21);
      const centreRuns = Math.min(runs, CENTRE_RUNS_MAX);
      const h = recommendedHeight(heightsAt(point, target, centreRuns, 21));
      expect(p.height).toBe(h);
      expect(p.p50).toBe(quantile(haltTimes(point, h, centreRuns, 21), 0.5));
      expect([...p.heights]).toEqual([...heightsAt(uncertain, target, runs, 21)]);
      const b = blockAndPrevious(uncertain, h, runs, 21);
      expect([...p.at]).toEqual([...b.at]);
      expect([...p.previous]).toEqual([...b.previous]);
    }
  });

  it("bandAt equals heightsAt and blockAndPrevious, with the height before and after the target", () => {
    const target = GENESIS + 3_600_000;
    for (const h of [1, 200, 600, 900, 70_000]) {
      const b = bandAt(uncertain, h, target, 6, 4);
      expect([...b.heights]).toEqual([...heightsAt(uncertain, target, 6, 4)]);
      const s = blockAndPrevious(uncertain, h, 6, 4);
      expect([...b.at]).toEqual([...s.at]);
      expect([...b.previous]).toEqual([...s.previous]);
    }
  });

  it("an engine run replays either part: seed + i with the point model (the centre), with the model (the band)", () => {
    const H = 2000;
    const runs = 3;
    const centre = [...haltTimes(point, H, runs, 60)];
    const band = [...haltTimes(uncertain, H, runs, 60)];
    const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
    const seeds = Array.from({ length: runs }, (_, i) => runSeed(60, i));
    expect(centre).toEqual(sorted(seeds.map((s) => engineTimeOf(H, s))));
    expect(band).toEqual(sorted(seeds.map((s) => engineTimeOf(H, s, UNCERTAIN_DOC))));
    expect(band).not.toEqual(centre);
  });
});

describe("quantile and the daily window", () => {
  it("interpolates between order statistics", () => {
    const xs = Float64Array.from([1, 2, 3, 4, 5]);
    expect(quantile(xs, 0)).toBe(1);
    expect(quantile(xs, 0.5)).toBe(3);
    expect(quantile(xs, 0.05)).toBeCloseTo(1.2, 10);
    expect(quantile(xs, 1)).toBe(5);
  });

  it("reads a window in local time, wrapping past midnight", () => {
    const utc = window("22:00-02:00");
    expect(inWindow(utc, Date.UTC(2026, 0, 1, 23, 30))).toBe(true);
    expect(inWindow(utc, Date.UTC(2026, 0, 1, 1, 59))).toBe(true);
    expect(inWindow(utc, Date.UTC(2026, 0, 1, 2, 0))).toBe(false);
    const plus2 = window("14:00-16:00@+02:00");
    expect(inWindow(plus2, Date.UTC(2026, 0, 1, 12, 30))).toBe(true);
    expect(inWindow(plus2, Date.UTC(2026, 0, 1, 14, 30))).toBe(false);
  });
});
