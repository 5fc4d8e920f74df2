import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { drawTimes, importerSamples } from "../../test/kit/history.js";
import type { DriftBlockTime } from "../chain/block-time-drift.js";
import { fitBlockTimes } from "../chain/block-time-fit.js";
import { formatRfc3339 } from "../core/go/time.js";
import { profileToYaml } from "../scenario/profile.js";
import { upgradeHeightCommand } from "./explore-height.js";

const dir = mkdtempSync(join(tmpdir(), "upgrade-height-"));
const SAMPLE = "test/fixtures/profiles/sample.profile.yaml";

async function run(flags: Record<string, string | boolean>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await upgradeHeightCommand(flags, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join("\n"), err };
}

const T0 = Date.UTC(2026, 0, 2, 8);
const START = 19_900_000;
const WEEK = 100_800;

/** A chain drawn for 9 days; the profile is what import would write after day 7. */
function chain(): { file: string; times: Float64Array; atHeight: number } {
  const m: DriftBlockTime = {
    kind: "drift",
    meanMs: 6000,
    anchor: { height: START - 1, timeMs: T0, rateMs: 6300 },
    segmentBlocks: 600,
    persistence: 0.97,
    wander: 0.015,
    daily: { amplitude: 0.04, peakMs: 15 * 3_600_000 },
    shifts: { rate: 0, size: 0 },
    outages: { rate: 0.0003, meanMs: 60_000 },
    jitter: 0.12,
  };
  const times = drawTimes(21, m, START, WEEK + 45_000, T0);
  const samples = importerSamples(times.subarray(0, WEEK), START);
  const f = fitBlockTimes(samples);
  if (!f.ok) throw new Error(f.error);
  const last = samples[samples.length - 1];
  if (last === undefined) throw new Error("no samples");
  const profile = {
    profile: 1 as const,
    source: { namespace: "chain" as const, chainId: "c-1" },
    at: { height: last.height, time: formatRfc3339(last.timeMs) },
    chain: {
      chainId: "c-1",
      blockTime: f.value.document as never,
      gov: { votingPeriod: "48h", maxDepositPeriod: "48h" },
    },
    plan: null,
  };
  const file = join(dir, "drift.profile.yaml");
  writeFileSync(file, profileToYaml(profile));
  return { file, times, atHeight: last.height };
}

describe("chainsim explore upgrade-height", () => {
  it("lands within 3% of the truth for a target 48 h ahead, with a band that holds it", async () => {
    const c = chain();
    const r = await run({ profile: c.file, target: "+48h", runs: "300", json: true });
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const x = JSON.parse(r.out);
    const actual = c.times[x.recommendedHeight - START] as number;

    const target = Date.parse(x.target);
    const atMs = c.times[c.atHeight - START] as number;
    expect(Math.abs(actual - target) / (target - atMs)).toBeLessThan(0.03);
    expect(actual).toBeGreaterThanOrEqual(x.haltMs.p5);
    expect(actual).toBeLessThanOrEqual(x.haltMs.p95);
    expect(x.cancel.submitByDepositMet < x.halt.p5).toBe(true);
  });

  it("prints the report in text, with the window in a named time zone, and writes the chart", async () => {
    const chart = join(dir, "h.svg");
    const r = await run({
      profile: SAMPLE,
      target: "2026-01-12T08:00:00Z",
      runs: "50",
      window: "14:00-18:00@Europe/Berlin",
      chart,
    });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/recommended height: 163200 /);
    expect(r.out).toMatch(/P\(halt inside 14:00-18:00@Europe\/Berlin\): 0\.0%/);
    expect(r.out).toMatch(/naive estimate/);
    expect(r.out).toMatch(/submit by 2026-01-10T07:59:54Z with the deposit met/);
    expect(readFileSync(chart, "utf8")).toMatch(/^<svg/);
  });

  it("refuses bad input in one line, exit 2", async () => {
    const cases: [Record<string, string | boolean>, RegExp][] = [
      [{ target: "+1h" }, /--profile: required/],
      [{ profile: SAMPLE }, /--target: required/],
      [{ profile: join(dir, "none.yaml"), target: "+1h" }, /--profile: cannot read .*ENOENT/],
      [{ profile: SAMPLE, target: "tomorrow" }, /--target: expected an RFC 3339 time or "\+<duration>"/],
      [{ profile: SAMPLE, target: "2020-01-01T00:00:00Z" }, /--target: must be after the profile's at.time/],
      [
        { profile: SAMPLE, target: "+1h", window: "9-17" },
        /--window: expected HH:MM-HH:MM or HH:MM-HH:MM@<time zone>, got "9-17"/,
      ],
      [
        { profile: SAMPLE, target: "+1h", window: "09:00-17:00@Mars/Olympus" },
        /--window: unknown time zone "Mars\/Olympus"/,
      ],
      [{ profile: SAMPLE, target: "+1h", runs: "0" }, /--runs: expected an integer/],
      [{ profile: SAMPLE, target: "+1h", chart: "x.png" }, /--chart: expected a .svg file/],
    ];
    for (const [flags, msg] of cases) {
      const r = await run(flags);
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(/^explore upgrade-height: /);
      expect(r.err[0]).toMatch(msg);
    }
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, "profile: 1\nat: {height: 0}\n");
    const r = await run({ profile: bad, target: "+1h" });
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/--profile: .*bad\.yaml/);
  });
});
