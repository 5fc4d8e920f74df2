import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

// `chainsim` as a user runs it (bin/chainsim.js in a real process, through bash): no stack trace for a closed pipe
// or a user's mistake, and no raw control character on the terminal.
const sh = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "chainsim-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a bash pipeline; resolves with chainsim's status (PIPESTATUS[0]), its stderr and the pipeline's stdout. */
async function pipeline(cmd: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const script = `${cmd} 2>"${dir}/stderr"; s=\${PIPESTATUS[0]}; cat "${dir}/stderr" >&2; exit $s`;
  try {
    const r = await sh("bash", ["-c", script], { timeout: 120_000 });
    return { status: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { status: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

const CLI = "node bin/chainsim.js";

describe("chainsim in a shell", () => {
  it("ends quietly with status 141 when the reader of a pipe goes away", async () => {
    const run = await pipeline(`${CLI} run scenarios/ | head -1`);
    expect(run).toMatchObject({ status: 141, stderr: "" });
    expect(run.stdout.split("\n")).toHaveLength(2);
    const check = await pipeline(`${CLI} check --runs 2 --property run-once --seed 1 --report-dir ${dir}/r | head -1`);
    expect(check.stderr).not.toMatch(/EPIPE|at .*\.(ts|js|mjs):\d+/);
    expect([0, 141]).toContain(check.status);
    const init = await pipeline(`${CLI} init --home ${dir}/home --key-seed s | head -1`);
    expect(init.stderr).toBe("");
    expect([0, 141]).toContain(init.status);
  }, 180_000);

  it("names the path in one line, exit 2, for an unusable --trace or --report-dir", async () => {
    writeFileSync(join(dir, "a-file"), "");
    const trace = await pipeline(`${CLI} run scenarios/quorum-exactly-met-passes.yaml --trace ${dir}/a-file/x.jsonl`);
    expect(trace).toMatchObject({ status: 2, stderr: `Error: --trace ${dir}/a-file: not a directory\n` });
    const report = await pipeline(`${CLI} check --runs 1 --report-dir ${dir}/a-file`);
    expect(report).toMatchObject({ status: 2, stderr: `Error: --report-dir ${dir}/a-file: not a directory\n` });
  }, 120_000);

  it("never echoes a raw control character, and reports a YAML syntax error once with line and column", async () => {
    const esc = await pipeline(`${CLI} run "${dir}/$(printf '\\033[1;31mred')"`);
    expect(esc.status).toBe(2);
    expect(esc.stderr).not.toContain("\u001b");
    expect(esc.stderr).toContain("\\x1b[1;31mred: no such file or directory");
    writeFileSync(join(dir, "bad.yaml"), "name: x\nchain:\n  validators: [ {name: a\n  bad: 1\n");
    const yaml = await pipeline(`${CLI} run ${dir}/bad.yaml`);
    expect(yaml.status).toBe(2);
    expect(yaml.stderr.trim().split("\n")).toHaveLength(1);
    expect(yaml.stderr).toMatch(/YAML syntax error: .* at line \d+, column \d+/);
  }, 120_000);

  it("runs `check` with V8's pool cut to cores − 1 on a machine of 4 cores or fewer, and passes a signal on", async () => {
    const cli = spawn(
      process.execPath,
      [
        "bin/chainsim.js",
        "check",
        "--runs",
        "200",
        "--seed",
        "1",
        "--no-page",
        "--report-dir",
        `${dir}/sig`,
        "--regressions-dir",
        `${dir}/sig`,
      ],
      { stdio: "ignore" },
    );
    await new Promise((r) => setTimeout(r, 1500));
    const childrenFile = `/proc/${cli.pid}/task/${cli.pid}/children`;
    const children = existsSync(childrenFile)
      ? readFileSync(childrenFile, "utf8").trim().split(" ").filter(Boolean)
      : [];
    const cmdlines = children.map((c) => readFileSync(`/proc/${c}/cmdline`, "utf8").split("\0"));
    const size = Math.max(1, availableParallelism() - 1);
    if (!existsSync("/proc")) expect(children).toEqual([]);
    else if (size < 4) expect(cmdlines).toEqual([expect.arrayContaining([`--v8-pool-size=${size}`, "check"])]);
    else expect(cmdlines).toEqual([]);
    cli.kill("SIGTERM");
    const [code, signal] = await once(cli, "exit");
    expect({ code, signal }).toEqual({ code: null, signal: "SIGTERM" });
    for (const c of children)
      expect(existsSync(`/proc/${c}/cmdline`) && readFileSync(`/proc/${c}/cmdline`, "utf8")).toBeFalsy();
  }, 60_000);
});
