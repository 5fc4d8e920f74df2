import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { preflight } from "../explore/preflight.js";
import { type PreflightFlags, preflightInput } from "./preflight.js";

const REHEARSAL = "test/fixtures/profiles/rehearsal.profile.yaml";
const QUIET = "test/fixtures/profiles/quiet.profile.yaml";

function check(f: PreflightFlags) {
  const input = preflightInput({ runs: "50", ...f });
  if (!input.ok) throw new Error(input.error);
  return preflight(input.value).findings;
}
const kinds = (fs: readonly { kind: string }[]) => fs.map((f) => f.kind);
const GOOD_INFO = JSON.stringify({
  binaries: { "linux/amd64": `https://example.com/v2.tgz?checksum=sha256:${"ab".repeat(32)}` },
});

describe("chainsim preflight", () => {
  it("flags a plan inside the voting period, naming it", () => {
    const fs = check({ profile: QUIET, name: "v2", height: "20000" });
    const timing = fs.find((f) => f.kind === "timing");
    expect(timing?.message).toContain("voting period (48h0m0s)");
    expect(timing?.rule).toContain("upgrade cannot be scheduled in the past");
  });

  it("flags a plan that would replace the pending one, naming it", () => {
    const fs = check({ profile: REHEARSAL, name: "v3", height: "400000" });
    expect(fs.map((f) => f.message)).toContain(
      'the chain holds plan "v2" at height 150000: this plan would replace it when it passes',
    );
  });

  it("finds nothing wrong with a plan far enough ahead on a quiet chain", () => {
    expect(check({ profile: QUIET, name: "v2", height: "200000", info: GOOD_INFO })).toEqual([]);
  });

  it("an expedited plan past its expedited end but before the fallback end is flagged with the fallback", () => {
    // 24 h of 5–7 s blocks is 12,343–17,280 blocks; 48 h at least 24,686.
    const fs = check({ profile: QUIET, name: "v2", height: "23000", expedited: true });
    expect(fs.find((f) => f.kind === "timing")?.message).toContain("expedited-to-regular fallback");
  });

  it("a short deposit puts the deposit period in front of voting", () => {
    // past 48 h (at most 34,560 blocks of 5 s) but inside 96 h (at least 49,371 of 7 s)
    const fs = check({ profile: QUIET, name: "v2", height: "45000" });
    expect(fs.find((f) => f.kind === "timing")?.message).toContain("when the deposit is short");
  });

  it("the cancel window: less than 2 × (voting + deposit) + safety ahead", () => {
    const fs = check({ profile: QUIET, name: "v2", height: "120000" });
    expect(kinds(fs)).toEqual(["cancel-window"]);
    expect(fs[0]?.message).toMatch(/schedule at height \d+ or later/);
  });

  it("a name already done, and another pending proposal's plan", () => {
    expect(check({ profile: QUIET, name: "v1", height: "200000" }).map((f) => f.message)).toContain(
      'plan "v1" was already applied at height 40: upgrade with name v1 has already been completed',
    );
    const sample = check({ profile: "test/fixtures/profiles/sample.profile.yaml", name: "v9", height: "400000" });
    expect(sample.map((f) => f.message).join("\n")).toContain("proposal 3 (voting period");
  });

  it("info: invalid JSON, a bad platform key, a URL without checksum, a short hex", () => {
    expect(kinds(check({ profile: QUIET, name: "v2", height: "200000", info: "{not json" }))).toEqual(["info"]);
    const bad = JSON.stringify({
      binaries: {
        linux: "https://example.com/a?checksum=sha256:" + "ab".repeat(32),
        "darwin/arm64": "https://example.com/b",
        any: "https://example.com/c?checksum=sha256:abc",
      },
    });
    const msgs = check({ profile: QUIET, name: "v2", height: "200000", info: bad }).map((f) => f.message);
    expect(msgs).toEqual([
      'invalid os/arch format in key "linux"',
      'invalid url "https://example.com/b" in binaries[darwin/arm64]: missing checksum query parameter',
      'invalid url "https://example.com/c?checksum=sha256:abc" in binaries[any]: checksum "sha256:abc": sha256 needs 64 hex digits',
    ]);
  });

  it("the window: a halt band outside it is flagged, inside it is not", () => {
    // Fixed 6 s blocks: height 150000 is 30,000 blocks (50 h) after 2026-01-09T08:00Z = 2026-01-11T10:00Z.
    const at = { profile: REHEARSAL, name: "v3", height: "260000" };
    const halt = check({ ...at, window: "00:00-23:59" }).filter((f) => f.kind === "window");
    expect(halt).toEqual([]);
    const out = check({ ...at, window: "01:00-02:00@+02:00" }).filter((f) => f.kind === "window");
    expect(out[0]?.message).toContain("not inside the window 01:00-02:00@+02:00");
  });

  it("a named zone's summer time is honoured: the same halt at 01:20Z is 02:20 in Berlin in January, 03:20 in July", () => {
    // The rehearsal profile moved six months on: every date 2026-01-… becomes 2026-07-….
    const july = join(mkdtempSync(join(tmpdir(), "chainsim-preflight-")), "july.profile.yaml");
    writeFileSync(july, readFileSync(REHEARSAL, "utf8").replaceAll("2026-01-", "2026-07-"));
    const windowFindings = (profile: string, window: string) =>
      kinds(check({ profile, name: "v3", height: "260000", window }).filter((f) => f.kind === "window"));
    expect(windowFindings(REHEARSAL, "02:00-03:00@Europe/Berlin")).toEqual([]);
    expect(windowFindings(REHEARSAL, "03:00-04:00@Europe/Berlin")).toEqual(["window"]);
    expect(windowFindings(july, "02:00-03:00@Europe/Berlin")).toEqual(["window"]);
    expect(windowFindings(july, "03:00-04:00@Europe/Berlin")).toEqual([]);
  });

  it("bad input is one line", () => {
    expect(preflightInput({ profile: QUIET, name: "v2" })).toEqual({ ok: false, error: "--height is required" });
    const missing = preflightInput({ profile: "no/such.yaml", name: "v2", height: "9" });
    expect(missing.ok ? "" : missing.error).toMatch(/^--profile no\/such.yaml: /);
    const w = preflightInput({ profile: QUIET, name: "v2", height: "9", window: "9-10" });
    expect(w.ok ? "" : w.error).toBe('--window: expected HH:MM-HH:MM or HH:MM-HH:MM@<time zone>, got "9-10"');
    const zone = preflightInput({ profile: QUIET, name: "v2", height: "9", window: "09:00-17:00@Mars/Olympus" });
    expect(zone.ok ? "" : zone.error).toBe('--window: unknown time zone "Mars/Olympus"');
  });
});
