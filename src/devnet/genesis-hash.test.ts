import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { initNode } from "./init.js";
import { runNode } from "./node.js";

// CometBFT v0.38: the genesis doc hash stored at the first start guards every later start; EnsureDir(dir, 0700).
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function start(home: string): Promise<{ code: number; err: string[] }> {
  const err: string[] = [];
  const abort = new AbortController();
  const code = await runNode({
    home,
    binary: "v1",
    skipHeights: [],
    blockTimeMs: 20,
    out: (l) => {
      if (l.startsWith("INF committed block")) abort.abort();
    },
    err: (l) => err.push(l),
    signal: abort.signal,
    sync: false,
  });
  return { code, err };
}

describe("a devnet home", () => {
  it("is created private (0700) and refuses to start once its genesis.json changed", async () => {
    const home = join(mkdtempSync(join(tmpdir(), "devnet-genesis-")), "home");
    dirs.push(join(home, ".."));
    const init = await initNode({
      home,
      chainId: "g",
      validators: 1,
      keySeed: "g",
      apiAddress: "tcp://127.0.0.1:0",
      grpcAddress: "127.0.0.1:0",
      rpcAddress: "",
    });
    if (!init.ok) throw new Error(init.error);
    for (const d of [home, join(home, "config"), join(home, "data")]) expect(statSync(d).mode & 0o777).toBe(0o700);

    expect(await start(home)).toEqual({ code: 0, err: [] });
    expect(await start(home)).toEqual({ code: 0, err: [] });
    const genesis = join(home, "config", "genesis.json");
    const text = readFileSync(genesis, "utf8");
    writeFileSync(genesis, text.replace('"chainId": "g"', '"chainId": "other"'));
    expect(readFileSync(genesis, "utf8")).not.toBe(text);
    expect(await start(home)).toEqual({
      code: 1,
      err: ["Error: genesis doc hash in db does not match loaded genesis doc"],
    });
    writeFileSync(genesis, text); // the original genesis starts again
    expect((await start(home)).code).toBe(0);
  });
});
