import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_CONFIG } from "../explore/model.js";
import { DEFAULT_OUT, parseCancelWindowFlags } from "./explore-flags.js";
import { main } from "./main.js";

/** Runs `chainsim explore cancel-window ...args` in-process; returns exit code and captured output lines. */
async function cli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const capture = (into: string[]) => (chunk: string | Uint8Array) => {
    into.push(
      ...String(chunk)
        .split("\n")
        .filter((l) => l !== ""),
    );
    return true;
  };
  vi.spyOn(process.stdout, "write").mockImplementation(capture(out));
  vi.spyOn(process.stderr, "write").mockImplementation(capture(err));
  const code = await main(["explore", "cancel-window", ...args]);
  vi.restoreAllMocks();
  return { code, out, err };
}

afterEach(() => {
  vi.restoreAllMocks();
});

const SMALL = ["--deposit-period", "1h", "--voting-period", "1h", "--safety-delta", "30m", "--block-time", "6s"];

describe("chainsim explore cancel-window: flag errors", () => {
  it.each([
    [["--deposit-period", "2d"], "--deposit-period", 'unknown unit "d"'],
    [["--deposit-period", "0s"], "--deposit-period", "positive"],
    [["--voting-period", "soon"], "--voting-period", "invalid duration"],
    [["--expedited-voting-period", "48h"], "--expedited-voting-period", "shorter than the voting period"],
    [["--safety-delta", "-1h"], "--safety-delta", "non-negative"],
    [["--block-time", "6s", "--block-time-min", "5s"], "--block-time-min", "cannot be combined"],
    [["--block-time", "0s"], "--block-time", "positive"],
    [["--block-time-min", "5s"], "--block-time-min", "needs --block-time-max"],
    [["--block-time-max", "7s"], "--block-time-max", "needs --block-time-min"],
    [["--block-time-min", "7s", "--block-time-max", "5s"], "--block-time-max", "below --block-time-min"],
    [["--block-time-stddev", "1s"], "--block-time-stddev", "needs --block-time-mean"],
    [["--block-time-mean", "6s"], "--block-time-mean", "needs --block-time-stddev"],
    [["--block-time-mean", "6s", "--block-time-stddev", "x"], "--block-time-stddev", "invalid duration"],
    [["--deposit-delay", "49h"], "--deposit-delay", "outside 0..D"],
    [["--deposit-delay", "10h..5h"], "--deposit-delay", "ends before it starts"],
    [["--deposit-delay", "1h..2h..3h"], "--deposit-delay", "range"],
    [["--cancel-deposit-delay", "later"], "--cancel-deposit-delay", "invalid duration"],
    [["--offset", "0"], "--offset", "integer"],
    [["--offset", "1.5"], "--offset", "integer"],
    [["--offset", "5", "--offset-min", "1"], "--offset", "cannot be combined"],
    [["--offset-min", "10", "--offset-max", "5"], "--offset-max", "below --offset-min"],
    [["--offset-min", "x"], "--offset-min", "integer"],
    [["--strategy", "later"], "--strategy", "after-pass|during-voting"],
    [["--runs", "0"], "--runs", "integer"],
    [["--runs", "many"], "--runs", "integer"],
    [["--seed=-1"], "--seed", "integer"],
    [["--confidence", "1"], "--confidence", "strictly between 0 and 1"],
    [["--confidence", "x"], "--confidence", "probability"],
    [["--format", "xml"], "--format", "text|csv|json"],
    [["--sweep", "offset,runs"], "--sweep", "offset,spread|offset,deposit-delay"],
    [["--sweep-values", "1s"], "--sweep-values", "only applies with --sweep"],
    [["--points", "5"], "--points", "only applies with --sweep"],
    [["--sweep", "offset,spread", "--sweep-values", "7s"], "--sweep-values", "not below the mean block time"],
    [["--sweep", "offset,spread", "--sweep-values", "1s,1s"], "--sweep-values", "twice"],
    [["--sweep", "offset,spread", "--sweep-values", "1x"], "--sweep-values", "unknown unit"],
    [["--sweep", "offset,deposit-delay", "--sweep-values", "49h"], "--sweep-values", "exceeds the deposit period"],
    [["--sweep", "offset,spread", "--offset", "5"], "--offset", "a sweep needs a range"],
    [["--sweep", "offset,spread", "--points", "1"], "--points", "integer"],
    [["--sweep", "offset,spread", "--offset-step", "0"], "--offset-step", "integer"],
    [["--chart", ""], "--chart", "file name"],
    [["--out", " "], "--out", "file name"],
    [["--bogus"], "--bogus", "unknown option"],
    [["--runs"], "--runs", "argument missing"],
  ])("%j → exit 2, one line naming %s", async (args, flag, text) => {
    const r = await cli(...args);
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toContain(flag);
    expect(r.err[0]).toContain(text);
  });
});

describe("chainsim explore cancel-window: flags", () => {
  it("defaults to the reference periods, 6s ± 1s blocks, worst-case deposits, after-pass, 200 runs, seed 1", () => {
    const r = parseCancelWindowFlags({});
    expect(r).toEqual({
      ok: true,
      value: {
        config: DEFAULT_CONFIG,
        sweep: undefined,
        format: "text",
        chart: undefined,
        out: DEFAULT_OUT,
        workers: 1,
      },
    });
  });

  it("runs on one worker per core unless --workers says otherwise, and names the flag when it is wrong", () => {
    expect(parseCancelWindowFlags({}, 8)).toMatchObject({ ok: true, value: { workers: 8 } });
    expect(parseCancelWindowFlags({ workers: "3" }, 8)).toMatchObject({ ok: true, value: { workers: 3 } });
    expect(parseCancelWindowFlags({ workers: "0" })).toEqual({
      ok: false,
      error: '--workers: expected an integer in 1..64, got "0"',
    });
    expect(parseCancelWindowFlags({ workers: "two" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^--workers: /),
    });
  });

  it("reads block-time models, delay ranges and offsets", () => {
    const r = parseCancelWindowFlags({
      blockTimeMean: "6s",
      blockTimeStddev: "500ms",
      blockTimeMin: "2s",
      depositDelay: "0s..D",
      cancelDepositDelay: "12h",
      offsetMin: "100",
      expedited: true,
      votingPeriod: "12h",
    });
    if (!r.ok) throw new Error(r.error);
    const c = r.value.config;
    expect(c.blockTime).toEqual({ kind: "normal", meanMs: 6000, stddevMs: 500, minMs: 2000 });
    expect(c.depositDelay).toEqual({ kind: "uniform", minMs: 0, maxMs: 48 * 3_600_000 });
    expect(c.cancelDepositDelay).toEqual({ kind: "fixed", ms: 12 * 3_600_000 });
    // 4 × ceil((2 (48h + 12h) + 24h) / 6s) = 4 × 86,400.
    expect(c.offsets).toEqual({ kind: "range", min: 100, max: 345_600 });
    // The expedited default follows a short voting period: V / 2.
    expect(c.expeditedVotingPeriodMs).toBe(6 * 3_600_000);
    expect(c.expedited).toBe(true);
  });

  it("builds the default sweep values", () => {
    const spread = parseCancelWindowFlags({ sweep: "offset,spread" });
    expect(spread.ok && spread.value.sweep).toEqual({
      axis: "spread",
      valuesMs: [0, 500, 1000, 2000, 3000],
      points: 40,
    });
    const delay = parseCancelWindowFlags({ sweep: "offset,deposit-delay", depositPeriod: "4h", offsetStep: "10" });
    expect(delay.ok && delay.value.sweep).toEqual({
      axis: "deposit-delay",
      valuesMs: [0, 3_600_000, 7_200_000, 10_800_000, 14_400_000],
      points: 40,
      offsetStep: 10,
    });
  });
});

describe("chainsim explore cancel-window: runs", () => {
  const dir = mkdtempSync(join(tmpdir(), "chainsim-explore-"));

  it("prints the table and the recommendation, and writes the JSON", async () => {
    const out = join(dir, "text.json");
    const r = await cli(...SMALL, "--runs", "3", "--out", out);
    expect(r.code).toBe(0);
    expect(r.err).toEqual([]);
    const text = r.out.join("\n");
    expect(text).toMatch(/ 2700 +4h30m0s +0\/3 +0\.000 +\[0\.000, 0\.561\] +rule@mean rule@min/);
    expect(text).toContain(
      "=> schedule at least 2701 blocks ahead (P >= 0.999, all 3 runs landing); the rule of thumb with the mean block time (6s) gives 2700 (0.04% short, 1 block)",
    );
    const json = JSON.parse(readFileSync(out, "utf8"));
    expect(json.recommendation.offset).toBe(2701);
    expect(typeof json.wallMs).toBe("number");
  });

  it("prints JSON or CSV and renders the chart as SVG", async () => {
    const out = join(dir, "x.json");
    const chart = join(dir, "x.svg");
    const json = await cli(...SMALL, "--runs", "2", "--format", "json", "--out", out, "--chart", chart);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out.join("\n")).kind).toBe("cancel-window");
    expect(json.err).toHaveLength(1); // the note goes to stderr, stdout stays parseable
    const svg = readFileSync(chart, "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("rule of thumb, mean block time (2700)");
    const csv = await cli(...SMALL, "--runs", "2", "--format", "csv", "--offset", "2701", "--out", out);
    expect(csv.out).toEqual([
      "offset,time_at_mean_ms,landed,runs,p,ci_lo,ci_hi,marks",
      expect.stringMatching(/^2701,16206000,2,2,1,/),
    ]);
  });

  it("sweeps and charts a heat map", async () => {
    const out = join(dir, "s.json");
    const chart = join(dir, "s.svg");
    const r = await cli(
      ...SMALL,
      "--runs",
      "2",
      "--sweep",
      "offset,deposit-delay",
      "--sweep-values",
      "0s,1h",
      "--points",
      "5",
      "--format",
      "csv",
      "--out",
      out,
      "--chart",
      chart,
    );
    expect(r.code).toBe(0);
    expect(r.out[0]).toBe("axis,value_ms,offset,time_at_mean_ms,landed,runs,p,ci_lo,ci_hi");
    expect(r.out).toHaveLength(1 + 2 * 5);
    expect(
      JSON.parse(readFileSync(out, "utf8")).series.map(
        (s: { recommendation: { offset: number } }) => s.recommendation.offset,
      ),
    ).toEqual([1501, 2701]);
    expect(readFileSync(chart, "utf8")).toContain("<svg");
  });
});
