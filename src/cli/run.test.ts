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
