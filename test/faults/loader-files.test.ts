/**
 * Hostile scenario files and folders (issue: "a loader that never crashes"): every one ends with exit 2 and one line
 * per error of the form `<file>: [<path>: ]<message>`, never an internal error (exit 3), within bounded time. Most
 * cases drive the CLI's `run` command in-process; a few go through the real CLI process (stack size, FIFO, exit code
 * as a user sees them).
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCommand } from "../../src/cli/run.js";
import { REPORTED_ERRORS_MAX } from "../../src/scenario/errors.js";

const dir = mkdtempSync(join(tmpdir(), "chainsim-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BIN = join(import.meta.dirname, "../../bin/chainsim.js");
const valid = readFileSync(join(import.meta.dirname, "../../scenarios/cancel-proposal-by-proposer.yaml"), "utf8");

function file(name: string, text: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** Runs `chainsim run <paths>` in-process: exit code, stdout and stderr lines, wall time. */
function run(...paths: string[]): { code: number; out: string[]; err: string[]; ms: number } {
  const out: string[] = [];
  const err: string[] = [];
  const t = performance.now();
  const code = runCommand(
    paths,
    {},
    (s) => out.push(s),
    (s) => err.push(s),
  );
  return { code, out, err, ms: performance.now() - t };
}

/** Every stderr line names the file and says what is wrong on one line. */
function expectCleanErrors(err: readonly string[], path: string): void {
  expect(err.length).toBeGreaterThan(0);
  for (const line of err) {
    expect(line.startsWith(`${path}: `), line).toBe(true);
    expect(line).not.toMatch(/\n|internal error| {4}at /);
  }
}

const deepJson = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;

describe("hostile documents end with exit 2 and `file: path: message`", () => {
  const cases: [string, string | Buffer, RegExp][] = [
    ["deep.json", deepJson(10_000), /nested or indented deeper than 256 levels at line 1$/],
    ["deep-map.json", `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`, /deeper than 256 levels at line 1$/],
    ["deep.yaml", deepJson(10_000), /deeper than 256 levels at line 1$/],
    ["deep-block.yaml", Array.from({ length: 200 }, (_, i) => `${"  ".repeat(i)}k:`).join("\n"), /at line 130$/],
    ["compact.yaml", `${"- ".repeat(5000)}x`, /deeper than 256 levels at line 1$/],
    // Under the text bound, over the data bound: refused before any pass walks it.
    ["deep-100.json", deepJson(100), /nested deeper than 64 levels/],
    [
      "bomb.yaml",
      `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n`,
      /alias/i,
    ],
    ["dup.yaml", `${valid}\nname: again\n`, /duplicate key "name"/],
    ["dup.json", `{"name": "a", "name": "b"}`, /duplicate key "name"/],
    // A list or map as a key: yaml would stringify it (and warn on stderr); it is an error naming the place.
    [
      "seq-key.yaml",
      `${valid}\n? [a, b]\n: 1\n`,
      /a map key must be a plain value, not a list, a map or an alias at line \d+, column \d+/,
    ],
    ["garbage.yaml", Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)), /./],
    ["garbage.json", Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22, 0xc3]), /JSON syntax error/],
    ["empty.yaml", "", /./],
    ["empty.json", "", /JSON syntax error/],
    ["nul.yaml", "\u0000\u0000\u0000", /./],
    // JSON.parse quotes the text around a bad token, newline and NUL included: still one line.
    ["ctrl.json", `\n\u0000{"name": "x"}`, /JSON syntax error: .*\\u0000/],
    ["blocktime.yaml", valid.replace("chain:\n", "chain:\n  blockTime: 2562047h\n"), /chain\.blockTime: .*9999-12-31/],
    ["genesis-far.yaml", valid.replace("chain:\n", "chain:\n  genesisTime: 9999-12-31T23:59:59Z\n"), /blockTime/],
  ];
  for (const [name, text, message] of cases) {
    it(name, () => {
      const p = file(name, text);
      const r = run(p);
      expect(r.code).toBe(2);
      expectCleanErrors(r.err, p);
      expect(r.err.join("\n")).toMatch(message);
      // Generous: the point is "no hang", never a timing assertion about speed.
      expect(r.ms).toBeLessThan(20_000);
    });
  }

  it("8,000 unknown sibling keys: the first errors in document order, then a count of the rest", () => {
    const doc: Record<string, unknown> = {};
    for (let i = 0; i < 8000; i++) doc[`k${i}`] = 1;
    const p = file("keys.json", JSON.stringify(doc));
    const r = run(p);
    expect(r.code).toBe(2);
    expectCleanErrors(r.err, p);
    expect(r.err.length).toBe(REPORTED_ERRORS_MAX + 1);
    expect(r.err[0]).toBe(`${p}: k0: unknown key "k0"`);
    expect(r.err.at(-1)).toMatch(/^.*: \d+ more errors not shown$/);
  });
});

describe("hostile folders", () => {
  it("a dangling symlink, a symlink loop and a FIFO are reported; the folder's good files still load", () => {
    const d = join(dir, "folder");
    mkdirSync(d);
    writeFileSync(join(d, "good.yaml"), valid);
    symlinkSync(join(d, "nowhere.yaml"), join(d, "dangling.yaml"));
    symlinkSync("loop.yaml", join(d, "loop.yaml"));
    symlinkSync(".", join(d, "self")); // a directory cycle: walked once
    execFileSync("mkfifo", [join(d, "fifo.yaml")]);
    const r = run(d);
    expect(r.code).toBe(2);
    expect(r.err).toEqual([
      `${join(d, "dangling.yaml")}: no such file or directory`,
      `${join(d, "fifo.yaml")}: not a regular file`,
      `${join(d, "loop.yaml")}: too many levels of symbolic links`,
    ]);
  });

  it("a FIFO named on the command line is refused without opening it for a blocking read", () => {
    const p = join(dir, "named-fifo.yaml");
    execFileSync("mkfifo", [p]);
    const r = run(p);
    expect(r.code).toBe(2);
    expect(r.err).toEqual([`${p}: not a regular file`]);
  });
});

/** The real CLI: exit code and stderr as a user sees them. */
function cli(...args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 60_000 }, (e, _stdout, stderr) => {
      resolve({ code: e === null ? 0 : typeof e.code === "number" ? e.code : -1, stderr });
    });
  });
}

describe("through the CLI process", () => {
  it("deep JSON, a far block time, a symlink loop and a FIFO: exit 2, one line each", async () => {
    const d = join(dir, "cli");
    mkdirSync(d);
    writeFileSync(join(d, "deep.json"), deepJson(10_000));
    writeFileSync(join(d, "far.yaml"), valid.replace("chain:\n", "chain:\n  blockTime: 2562047h\n"));
    symlinkSync("self.yaml", join(d, "self.yaml"));
    execFileSync("mkfifo", [join(d, "pipe.yaml")]);
    const r = await cli("run", d);
    expect(r.code).toBe(2);
    // Folder problems first (the walk), then each file's errors.
    // (The launcher's own note about an unbuilt bundle is not the loader's output.)
    const lines = r.stderr
      .trimEnd()
      .split("\n")
      .filter((l) => !l.startsWith("chainsim: dist/"));
    expect(lines).toEqual([
      `${join(d, "pipe.yaml")}: not a regular file`,
      `${join(d, "self.yaml")}: too many levels of symbolic links`,
      `${join(d, "deep.json")}: lists and maps are nested or indented deeper than 256 levels at line 1`,
      `${join(d, "far.yaml")}: chain.blockTime: blocks of 2562047h0m0s would pass 9999-12-31T23:59:59.999Z, the latest time a chain can represent, at height 28 (this run reaches height 212)`,
    ]);
  });
});
