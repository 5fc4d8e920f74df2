import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startUntilFirstBlock } from "../../test/kit/devnet.js";
import { initNode } from "./init.js";

// CometBFT v0.38: the genesis doc hash stored at the first start guards every later start; EnsureDir(dir, 0700).
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

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

    expect(await startUntilFirstBlock(home)).toEqual({ code: 0, err: [] });
    expect(await startUntilFirstBlock(home)).toEqual({ code: 0, err: [] });
    const genesis = join(home, "config", "genesis.json");
    const text = readFileSync(genesis, "utf8");
    writeFileSync(genesis, text.replace('"chainId": "g"', '"chainId": "other"'));
    expect(readFileSync(genesis, "utf8")).not.toBe(text);
    expect(await startUntilFirstBlock(home)).toEqual({
      code: 1,
      err: ["Error: genesis doc hash in db does not match loaded genesis doc"],
    });
    writeFileSync(genesis, text); // the original genesis starts again
    expect((await startUntilFirstBlock(home)).code).toBe(0);
  });
});
