import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/** `npm run mutate`'s driver, with the flags given; it stops at the first bad flag, before Stryker starts. */
const mutate = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "scripts/mutate.ts", ...args], { encoding: "utf8" });

describe("npm run mutate: flags", () => {
  it.each([
    [["--timeout-ms", "0"], 'mutate: --timeout-ms: expected a positive integer of milliseconds, got "0"'],
    [["--timeout-ms", "2s"], 'mutate: --timeout-ms: expected a positive integer of milliseconds, got "2s"'],
    [["--concurrency", "two"], 'mutate: --concurrency: expected a positive integer, got "two"'],
  ])("%j is refused in one line, exit 2", (args, line) => {
    const r = mutate(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`${line}\n`);
  });

  it("--timeout-ms reaches Stryker's timeoutMS; without it the limit is 20 s over twice the unmutated run", async () => {
    const load = async (env: string | undefined) => {
      if (env === undefined) delete process.env.MUTATE_TIMEOUT_MS;
      else process.env.MUTATE_TIMEOUT_MS = env;
      const url = new URL(`../mutation/stryker.config.mjs?timeout=${env}`, import.meta.url).href;
      return ((await import(url)) as { default: { timeoutMS: number; timeoutFactor: number } }).default;
    };
    try {
      expect(await load("90000")).toMatchObject({ timeoutMS: 90_000, timeoutFactor: 2 });
      expect(await load(undefined)).toMatchObject({ timeoutMS: 20_000, timeoutFactor: 2 });
    } finally {
      delete process.env.MUTATE_TIMEOUT_MS;
    }
  });

  it("--prefix-share runs the campaign detector with check --prefix-share, at the seed asked or the default", async () => {
    const load = async (share: string | undefined, seed: string | undefined) => {
      const set = (k: string, v: string | undefined) =>
        v === undefined ? delete process.env[k] : (process.env[k] = v);
      set("MUTATE_DETECTOR", "campaign");
      set("MUTATE_PREFIX_SHARE", share);
      set("MUTATE_SEED", seed);
      const url = new URL(`../mutation/stryker.config.mjs?share=${share}&seed=${seed}`, import.meta.url).href;
      return ((await import(url)) as { default: { commandRunner: { command: string } } }).default.commandRunner.command;
    };
    try {
      expect(await load("1", "3")).toMatch(/ check --seed 3 .* --prefix-share$/);
      expect(await load("1", undefined)).toMatch(/ check --seed 20261124 .* --prefix-share$/);
      expect(await load(undefined, "3")).not.toContain("--prefix-share");
    } finally {
      for (const k of ["MUTATE_DETECTOR", "MUTATE_PREFIX_SHARE", "MUTATE_SEED"]) delete process.env[k];
    }
  });
});
