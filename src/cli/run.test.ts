import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ExitCode } from "./exit.js";
import { runCommand } from "./run.js";

const SCENARIO = "scenarios/veto-exactly-threshold-not-vetoed.yaml";
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "chainsim-run-"));
  dirs.push(d);
  return d;
};
function run(paths: string[], trace: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runCommand(
    paths,
    { json: true, trace },
    (s) => out.push(s),
    (s) => err.push(s),
  );
  return { code, out, err };
}

describe("run --trace", () => {
  it("names traces by file: two scenarios with the same name: keep both traces", () => {
    const d = tmp();
    mkdirSync(join(d, "in"));
    copyFileSync(SCENARIO, join(d, "in", "a.yaml"));
    copyFileSync(SCENARIO, join(d, "in", "b.yaml"));
    const r = run([join(d, "in")], join(d, "traces"));
    expect(r.code).toBe(ExitCode.ok);
    const a = readFileSync(join(d, "traces", "a.jsonl"), "utf8");
    const b = readFileSync(join(d, "traces", "b.jsonl"), "utf8");
    expect(a.length).toBeGreaterThan(0);
    expect(b).toBe(a);
  });

  it("refuses two files with the same file name in different folders, before anything runs", () => {
    const d = tmp();
    mkdirSync(join(d, "x"));
    mkdirSync(join(d, "y"));
    copyFileSync(SCENARIO, join(d, "x", "s.yaml"));
    copyFileSync(SCENARIO, join(d, "y", "s.yaml"));
    const r = run([join(d, "x"), join(d, "y")], join(d, "t"));
    expect(r.code).toBe(ExitCode.usage);
    expect(r.err).toEqual([
      `Error: --trace ${join(d, "t")}: ${join(d, "x", "s.yaml")} and ${join(d, "y", "s.yaml")} would both write ${join(d, "t", "s.jsonl")}`,
    ]);
    expect(r.out).toEqual([]);
  });

  it("creates the folder of a single trace file; a path under a file is one line naming it, exit 2", () => {
    const d = tmp();
    const r = run([SCENARIO], join(d, "missing-dir", "x.jsonl"));
    expect(r.code).toBe(ExitCode.ok);
    expect(existsSync(join(d, "missing-dir", "x.jsonl"))).toBe(true);
    writeFileSync(join(d, "file"), "");
    const bad = run([SCENARIO], join(d, "file", "x.jsonl"));
    expect(bad.code).toBe(ExitCode.usage);
    expect(bad.err).toEqual([`Error: --trace ${join(d, "file")}: not a directory`]);
  });
});

describe("run --bail", () => {
  const lines = (paths: string[], o: { json?: boolean; bail?: boolean }) => {
    const out: string[] = [];
    const code = runCommand(
      paths,
      o,
      (s) => out.push(s),
      () => undefined,
    );
    return { code, out };
  };
  /** A copy of a library scenario whose expectation no chain meets (the applied height is off by one). */
  const failing = () => {
    const d = tmp();
    const f = join(d, "a-fails.yaml");
    const text = readFileSync("scenarios/upgrade-with-sidecars.yaml", "utf8").replace(
      "applied: { v2: 1000 }",
      "applied: { v2: 1001 }",
    );
    expect(text).toContain("v2: 1001");
    writeFileSync(f, text);
    return f;
  };

  it("stops at the first failing scenario and says how many were not run; the exit code is the same", () => {
    const f = failing();
    const all = lines([f, SCENARIO], {});
    const bailed = lines([f, SCENARIO], { bail: true });
    expect(all.code).toBe(ExitCode.failed);
    expect(bailed.code).toBe(ExitCode.failed);
    expect(all.out.at(-1)).toBe("1 passed, 1 failed");
    expect(bailed.out).toContain("stopped at the first failure (--bail): 1 scenario(s) not run");
    expect(bailed.out.at(-1)).toBe("0 passed, 1 failed");
    expect(bailed.out.some((l) => l.includes(SCENARIO))).toBe(false);
  });

  it("with --json prints the reports up to the failing one", () => {
    const f = failing();
    const bailed = lines([f, SCENARIO], { bail: true, json: true });
    expect(bailed.code).toBe(ExitCode.failed);
    expect(bailed.out).toHaveLength(1);
    expect(JSON.parse(bailed.out[0]!).passed).toBe(false);
  });

  it("runs everything when nothing fails", () => {
    const r = lines([SCENARIO, "scenarios/upgrade-with-sidecars.yaml"], { bail: true });
    expect(r.code).toBe(ExitCode.ok);
    expect(r.out.at(-1)).toBe("2 passed, 0 failed");
  });
});
