import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSvg } from "./explore.js";
import { type HaltRecoveryFlags, haltRecoveryCommand } from "./explore-halt-recovery.js";

const dir = mkdtempSync(join(tmpdir(), "halt-recovery-"));
const NIGHT = "scenarios/operator-night-time-halt.yaml";

async function run(target: string | undefined, flags: HaltRecoveryFlags) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await haltRecoveryCommand(target, flags, {
    out: (s) => out.push(s),
    err: (s) => err.push(s),
    renderSvg,
  });
  return { code, out, err };
}

describe("chainsim explore halt-recovery", () => {
  it("prints JSON with the figures, and writes the chart", async () => {
    const chart = join(dir, "recovery.svg");
    const r = await run(NIGHT, { runs: "200", json: true, chart, whatIf: ["all: on-call"] });
    expect(r.code).toBe(0);
    const x = JSON.parse(r.out.join("\n"));
    expect(x).toMatchObject({ kind: "halt-recovery", runs: 200, validators: 4, haltTime: "2026-01-01T01:40:00.000Z" });
    expect(x.baseline.downtime.p50Ms).toBe(6 * 3_600_000 + 50 * 60_000);
    expect(x.whatIfs[0]).toMatchObject({ label: "all: on-call", downtime: { within1h: 1 } });
    expect(readFileSync(chart, "utf8")).toMatch(/^<svg/);
  });

  it("takes the halt from --at, and the operators from a file", async () => {
    const ops = join(dir, "ops.yaml");
    writeFileSync(ops, "operators:\n  default: { manual: { reaction: 1h } }\n  val4: { manual: { reaction: 2h } }\n");
    const r = await run(NIGHT, { runs: "10", operators: ops, at: "+10h", json: true });
    expect(r.code).toBe(0);
    const x = JSON.parse(r.out.join("\n"));
    expect(x.haltTime).toBe("2026-01-01T10:00:00.000Z");
    expect(x.baseline.downtime.p50Ms).toBe(3_600_000);
  });

  it("plans against a profile with an operators file", async () => {
    const ops = join(dir, "ops2.yaml");
    writeFileSync(ops, "operators:\n  default: { cosmovisor: { backup: { duration: 10m } } }\n");
    const r = await run(undefined, {
      profile: "test/fixtures/profiles/sample.profile.yaml",
      operators: ops,
      runs: "10",
      json: true,
    });
    expect(r.err).toEqual([]);
    const x = JSON.parse(r.out.join("\n"));
    // Plan height 150000, 30000 blocks after the profile's height 120000 at its 6.048 s mean: 50h24m after its time.
    expect(x.haltTime).toBe("2026-01-11T10:24:00.000Z");
    expect(x.validators).toBe(2);
  });

  it.each([
    [NIGHT, { runs: "0" }, "--runs must be an integer in 1..1000000"],
    [NIGHT, { at: "+1h", height: "5" }, "give --at or --height, not both"],
    [NIGHT, { whatIf: ["val9: cosmovisor"] }, 'no validator "val9"'],
    [NIGHT, { at: "tomorrow" }, "--at: expected"],
    ["no/such/file.yaml", {}, "no/such/file.yaml: ENOENT"],
    [undefined, { profile: "test/fixtures/profiles/sample.profile.yaml" }, "--profile needs --operators FILE"],
    [undefined, {}, "give a scenario file or --profile FILE"],
  ] as const)("%s %j: one line, exit 2", async (target, flags, message) => {
    const chart = join(dir, "never.svg");
    const r = await run(target, { ...flags, chart });
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toContain(message);
    expect(r.out).toEqual([]);
    expect(existsSync(chart)).toBe(false);
  });

  it("a bad operators file names the key and the file", async () => {
    const ops = join(dir, "bad.yaml");
    writeFileSync(ops, "operators:\n  val1: { manual: { reaction: { lognormal: { median: 1h, p90: 10m } } } }\n");
    const r = await run(NIGHT, { operators: ops });
    expect(r.code).toBe(2);
    expect(r.err).toEqual([
      expect.stringMatching(
        /bad\.yaml.*operators\.val1\.manual\.reaction\.lognormal\.p90: must not be below the median 1h/,
      ),
    ]);
  });
});
