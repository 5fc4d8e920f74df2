import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "./main.js";
import { startServe } from "./serve.js";

// One JSON key convention per command family (docs/commands.md): the simulator commands write camelCase keys, the
// node-style commands proto JSON's snake_case, as the reference's CLI does.
afterEach(() => vi.restoreAllMocks());
const tmp = () => mkdtempSync(join(tmpdir(), "chainsim-keys-"));

/** Runs `chainsim <argv>` in-process; its stdout. */
async function stdout(...argv: string[]): Promise<string> {
  let out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((s) => {
    out += String(s);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  const code = await main(argv);
  vi.restoreAllMocks();
  expect(code).toBe(0);
  return out;
}

/** Every object key of a JSON value, at any depth, except under `skip` (maps keyed by data: names, not fields). */
function keys(v: unknown, skip: ReadonlySet<string>, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) keys(x, skip, out);
  else if (v !== null && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      if (!skip.has(k)) keys(x, skip, out);
    }
  return out;
}

/** Keys whose values are maps keyed by data (node, plan, module, property, region names), not by field names. */
const DATA_MAPS = new Set([
  "applied",
  "moduleVersions",
  "nodes",
  "handlerRuns",
  "classes",
  "lengths",
  "counts",
  "percentages",
  "descriptions",
  "regions",
  "transitions",
  "outcomes",
]);
const camel = /^[a-z][A-Za-z0-9]*$/;
const snake = /^(@type|[a-z][a-z0-9_]*)$/;

describe("JSON keys", () => {
  it("simulator commands (run, check, report, explore, serve): camelCase", async () => {
    const reports = tmp();
    const outputs = [
      await stdout("run", "scenarios/plan-at-current-height-fires-next-block.yaml", "--json"),
      await stdout(
        "check",
        "--property",
        "run-once",
        "--runs",
        "2",
        "--workers",
        "1",
        "--no-page",
        "--json",
        "--report-dir",
        reports,
      ),
      await stdout("report", "--report-dir", reports, "--json"),
      await stdout("explore", "cancel-window", "--runs", "20", "--json"),
    ];
    const lines: string[] = [];
    writeFileSync(
      join(reports, "app.toml"),
      '[api]\nenable = true\naddress = "tcp://127.0.0.1:0"\n[grpc]\naddress = "127.0.0.1:0"\n',
    );
    const served = await startServe(
      "scenarios/plan-at-current-height-fires-next-block.yaml",
      { json: true, config: join(reports, "app.toml") },
      { out: (s) => lines.push(s), err: () => {} },
    );
    expect(served.ok).toBe(true);
    if (served.ok) await served.value.close();
    for (const text of [...outputs, ...lines]) {
      const bad = keys(JSON.parse(text), DATA_MAPS).filter((k) => !camel.test(k));
      expect(bad, text.slice(0, 120)).toEqual([]);
    }
  }, 120_000);

  it("node-style commands (init): proto JSON's snake_case", async () => {
    const out = await stdout("init", "--home", join(tmp(), "home"), "--output", "json", "--key-seed", "s");
    const bad = keys(JSON.parse(out), new Set()).filter((k) => !snake.test(k));
    expect(bad).toEqual([]);
  });
});
