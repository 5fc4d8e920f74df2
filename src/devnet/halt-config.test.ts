import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openTestChain } from "../../test/kit/devnet.js";
import { configuredHalt, runNode } from "./node.js";

// BaseApp.checkHalt (Cosmos SDK v0.50): FinalizeBlock refuses the block after halt-height (or the first block later
// than halt-time) with `halt per configuration height H time T`; CometBFT logs CONSENSUS FAILURE and stops.
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("halt-height and halt-time", () => {
  it("refuses the block after halt-height, and the first block later than halt-time", () => {
    const app = { haltHeight: 5, haltTime: 0 };
    expect(configuredHalt(5, 0, app)).toBeUndefined();
    expect(configuredHalt(6, 0, app)).toBe("halt per configuration height 5 time 0");
    const timed = { haltHeight: 0, haltTime: 1_800_000_000 };
    expect(configuredHalt(9, 1_800_000_000_999, timed)).toBeUndefined();
    expect(configuredHalt(9, 1_800_000_001_000, timed)).toBe("halt per configuration height 0 time 1800000000");
    expect(configuredHalt(1_000_000, 4e12, { haltHeight: 0, haltTime: 0 })).toBeUndefined();
  });

  it("a devnet node with halt-height = 3 commits block 3, logs the consensus failure for 4 and stops producing", async () => {
    const { home, chain } = await openTestChain("halt", dirs);
    await chain.close();
    const appToml = join(home, "config", "app.toml");
    const text = readFileSync(appToml, "utf8");
    // Port 0 everywhere: the machine is shared.
    writeFileSync(
      appToml,
      text
        .replace(/^halt-height = 0$/m, "halt-height = 3")
        .replace("tcp://127.0.0.1:1317", "tcp://127.0.0.1:0")
        .replace("127.0.0.1:9090", "127.0.0.1:0"),
    );
    const configToml = join(home, "config", "config.toml");
    writeFileSync(
      configToml,
      readFileSync(configToml, "utf8").replace(/^laddr = "tcp:\/\/127\.0\.0\.1:26657"$/m, 'laddr = ""'),
    );
    const out: string[] = [];
    const err: string[] = [];
    const abort = new AbortController();
    const done = runNode({
      home,
      binary: "v1",
      skipHeights: [],
      blockTimeMs: 20,
      out: (l) => out.push(l),
      err: (l) => {
        err.push(l);
        if (l.includes("CONSENSUS FAILURE")) setTimeout(() => abort.abort(), 100);
      },
      signal: abort.signal,
      sync: false,
    });
    expect(await done).toBe(0);
    expect(err).toContain(
      'ERR CONSENSUS FAILURE!!! err="failed to apply block; error halt per configuration height 3 time 0" height=4',
    );
    const committed = out.filter((l) => l.startsWith("INF committed block")).map((l) => /height=(\d+)/.exec(l)![1]);
    expect(committed).toEqual(["1", "2", "3"]);
    expect(out.at(-1)).toBe("INF stopping node height=3");
    expect(out.some((l) => l.includes("CometBFT RPC"))).toBe(false);
  });
});
