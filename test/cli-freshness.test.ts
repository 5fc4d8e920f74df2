import { execFile } from "node:child_process";
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The CLI never runs stale code: in a copy of the repository with its own pre-built bundle, a user edits a property,
// a model and a scenario-schema file, one at a time; the next run of `chainsim` executes the edited code (from the
// sources, saying so on stderr), and after `npm run build` the bundle does (silently).
const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, "..");
let copy: string;

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), "chainsim-fresh-"));
  for (const d of ["bin", "src", "properties", "models", "scripts", "scenarios"])
    cpSync(join(ROOT, d), join(copy, d), { recursive: true, preserveTimestamps: true });
  for (const f of ["package.json", "tsconfig.json"]) cpSync(join(ROOT, f), join(copy, f), { preserveTimestamps: true });
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const build = () => exec(process.execPath, ["scripts/build-cli.mjs"], { cwd: copy, timeout: 120_000 });

async function chainsim(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(process.execPath, ["bin/chainsim.js", ...args], { cwd: copy, timeout: 120_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

/** Replaces `from` by `to` in the copy's `file` (its modification time becomes now). */
const edit = (file: string, from: string, to: string): void => {
  const path = join(copy, file);
  const text = readFileSync(path, "utf8");
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
};

/** A one-run campaign of one property in this thread. */
const check = (property: string) =>
  [
    "check",
    "--property",
    property,
    "--runs",
    "1",
    "--workers",
    "1",
    "--no-page",
    "--report-dir",
    join(copy, "r"),
  ] as const;

const FALLBACK = (file: string) =>
  `chainsim: running from the sources: ${file} changed after dist/chainsim.mjs was built (npm run build)\n`;

describe("the CLI's choice between the bundle and the sources", () => {
  it("runs the bundle silently while no input changed, and any edited input from the sources", async () => {
    await build();
    const quick = ["run", "scenarios/plan-at-current-height-fires-next-block.yaml"];
    const fresh = await chainsim(...quick);
    expect(fresh).toMatchObject({ code: 0, stderr: "" });

    // A property: loading it now says so (any edit would do; this one is visible from outside).
    edit(
      "properties/run-once.ts",
      "export const runOnce",
      'process.stderr.write("edited property loaded\\n");\nexport const runOnce',
    );
    const prop = await chainsim(...check("run-once"));
    expect(prop.stderr.startsWith(FALLBACK("properties/run-once.ts"))).toBe(true);
    expect(prop.stderr).toContain("edited property loaded");

    // After a build the bundle holds the edit and runs without a word.
    await build();
    const rebuilt = await chainsim(...check("run-once"));
    expect(rebuilt.stderr).not.toContain("running from the sources");
    expect(rebuilt.stderr.startsWith("edited property loaded\n")).toBe(true);

    // A chunk of the bundle gone (a command's code, loaded on use): the sources run, even for a command that would
    // not load it.
    // One this build wrote (dist/ also keeps the previous build's chunks for one more build: scripts/build-cli.mjs).
    const { outputs } = JSON.parse(readFileSync(join(copy, "dist", "chainsim.inputs.json"), "utf8")) as {
      outputs: string[];
    };
    const chunk = outputs.find((f) => f.startsWith("chunk-"))!;
    expect(readdirSync(join(copy, "dist"))).toContain(chunk);
    renameSync(join(copy, "dist", chunk), join(copy, chunk));
    const gone = await chainsim("--version");
    expect(gone).toMatchObject({ code: 0, stdout: "0.1.0\n" });
    expect(gone.stderr).toBe(`chainsim: running from the sources: dist/${chunk} is gone (npm run build)\n`);
    renameSync(join(copy, chunk), join(copy, "dist", chunk));
    expect(await chainsim("--version")).toMatchObject({ code: 0, stderr: "" });
  }, 180_000);

  it("runs an edited model and an edited scenario-schema file, each at the next run", async () => {
    edit("models/gov-tally.ts", "\nexport ", '\nprocess.stderr.write("edited model loaded\\n");\nexport ');
    const model = await chainsim(...check("gov-follows-tally"));
    expect(model.stderr.startsWith(FALLBACK("models/gov-tally.ts"))).toBe(true);
    expect(model.stderr).toContain("edited model loaded");

    await build();
    edit("src/scenario/schema.ts", "} must not be empty`", "} is edited and empty`");
    writeFileSync(
      join(copy, "empty-label.yaml"),
      "name: x\nbinaries: { v1: {} }\nsteps: [{ at: 2, label: '', stop: { node: val1 } }]\n",
    );
    const schema = await chainsim("run", "empty-label.yaml");
    expect(schema.code).toBe(2);
    expect(schema.stderr.startsWith(FALLBACK("src/scenario/schema.ts"))).toBe(true);
    expect(schema.stderr).toContain("step label is edited and empty");
  }, 180_000);
});
