import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The pre-built CLI as `npm ci` builds it (scripts/build-cli.mjs, the `prepare` script), built here into a folder
// of its own and run as a real process: every bundled dependency loads, the external ones resolve from
// node_modules, and the explorer's and the campaign's worker threads find their bundled workers.
const run = promisify(execFile);
const OUT = ".vitest-reports/bundle-test";

beforeAll(async () => {
  await run(process.execPath, ["scripts/build-cli.mjs", "--outdir", OUT], { timeout: 120_000 });
  // what bin/chainsim.js does with a current bundle
  writeFileSync(
    `${OUT}/run.mjs`,
    'const { main } = await import("./chainsim.mjs");\nprocess.exitCode = await main(process.argv.slice(2));\n',
  );
}, 130_000);
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

const cli = (...args: string[]) => run(process.execPath, [`${OUT}/run.mjs`, ...args], { timeout: 120_000 });

/** The files `file` imports before it runs (static imports, transitively), with itself: what every start parses. */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file) || seen.size > 1000) return seen;
  seen.add(file);
  for (const m of readFileSync(`${OUT}/${file}`, "utf8").matchAll(/^(?:import|export)[^;]*?from "\.\/([^"]+)"/gms))
    staticClosure(m[1]!, seen);
  return seen;
}

describe("the pre-built CLI bundle", () => {
  it("parses at start only commander and the command table: each command's code is a chunk loaded on use", () => {
    const start = staticClosure("chainsim.mjs");
    const bytes = [...start].reduce((n, f) => n + readFileSync(`${OUT}/${f}`).length, 0);
    // about 150 KB (commander is most of it); the whole CLI is over 5 MB
    expect(bytes).toBeLessThan(512 * 1024);
    expect(readFileSync(`${OUT}/chainsim.mjs`, "utf8")).toMatch(/import\("\.\/chunk-[A-Z0-9]+\.mjs"\)/);
  });

  it("prints help and replays a scenario", async () => {
    expect((await cli("--help")).stdout).toContain("Usage: chainsim");
    const { stdout } = await cli("run", "scenarios/veto-exactly-threshold-not-vetoed.yaml", "--json");
    expect(JSON.parse(stdout).passed).toBe(true);
  });

  it("runs the explorer on worker threads with the bundled worker", async () => {
    const { stdout } = await cli(
      "explore",
      "cancel-window",
      "--runs",
      "80",
      "--workers",
      "2",
      "--offset",
      "129694",
      "--format",
      "json",
      "--out",
      `${OUT}/x.json`,
    );
    expect(stdout.length).toBeGreaterThan(0);
  });

  it("runs a property campaign on worker threads with the bundled worker", async () => {
    const { stdout } = await cli(
      "check",
      "--property",
      "run-once,correct-height",
      "--runs",
      "6",
      "--seed",
      "3",
      "--workers",
      "2",
      "--json",
      "--report-dir",
      `${OUT}/reports`,
      "--regressions-dir",
      `${OUT}/regressions`,
    );
    expect(JSON.parse(stdout)).toMatchObject({ verdict: "passed", runs: 12 });
  });
});
