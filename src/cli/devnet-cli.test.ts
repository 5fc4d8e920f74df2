import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type DevnetCommand, nodeUrl, runCommand } from "./devnet-common.js";
import { parseCobra } from "./devnet-flags.js";
import { initCommand } from "./devnet-init.js";
import { parseSkipHeights } from "./devnet-start.js";
import {
  bech32AuthorityError,
  cancelUpgradeCommand,
  depositCommand,
  softwareUpgradeCommand,
  voteCommand,
} from "./devnet-tx.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function run(c: DevnetCommand, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommand(c, argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}
const errorOf = async (c: DevnetCommand, argv: string[]) => (await run(c, argv)).err;

describe("cobra-style parsing (docs/node-api.md §6.1)", () => {
  const spec = {
    args: { exact: 1 },
    flags: [
      { name: "title", kind: "string", required: true },
      { name: "upgrade-height", kind: "int64" },
      { name: "no-validate", kind: "bool" },
      { name: "skip", kind: "list" },
    ],
  } as const;
  const fail = (argv: string[]) => {
    const r = parseCobra(argv, spec);
    return r.ok ? "ok" : r.error;
  };

  it("reports flag errors first, then arity, then required flags, with the reference texts", () => {
    expect(fail(["--expedited"])).toBe("unknown flag: --expedited");
    expect(fail(["v2", "--title", "t", "--upgrade-height"])).toBe("flag needs an argument: --upgrade-height");
    expect(fail(["--upgrade-height", "abc"])).toBe(
      'invalid argument "abc" for "--upgrade-height" flag: strconv.ParseInt: parsing "abc": invalid syntax',
    );
    expect(fail(["--no-validate=maybe"])).toBe(
      'invalid argument "maybe" for "--no-validate" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
    expect(fail([])).toBe("accepts 1 arg(s), received 0");
    expect(fail(["a", "b", "--title", "t"])).toBe("accepts 1 arg(s), received 2");
    expect(fail(["v2"])).toBe('required flag(s) "title" not set');
    expect(fail(["-x"])).toBe("unknown shorthand flag: 'x' in -x");
  });

  it("accepts Go int syntax, bool forms, repeated list flags and stops at --", () => {
    const r = parseCobra(
      ["v2", "--title=t", "--upgrade-height", "0x10", "--no-validate", "--skip", "1,2", "--skip=3", "--", "--x"],
      spec,
    );
    expect(r.ok && [...r.value.values]).toEqual([
      ["title", "t"],
      ["upgrade-height", "0x10"],
      ["no-validate", "true"],
      ["skip", "1,2,3"],
    ]);
    expect(r.ok && r.value.rest).toEqual(["--x"]);
    expect(parseSkipHeights("1, 2,3")).toEqual({ ok: true, value: [1, 2, 3] });
    expect(parseSkipHeights("x").ok).toBe(false);
  });
});

describe("tx commands fail before broadcasting, in the reference order (docs/node-api.md §6.3)", () => {
  it("software-upgrade: deposit, then upgrade-info validation, then authority", async () => {
    const base = ["v2", "--title", "t", "--upgrade-height", "50", "--from", "val1"];
    expect(await errorOf(softwareUpgradeCommand, [...base, "--deposit", "abc"])).toBe(
      'Error: invalid deposit: invalid coin expression: "abc" (expected <integer amount><denom>)',
    );
    expect(await errorOf(softwareUpgradeCommand, base)).toBe("Error: plan info must not be blank");
    expect(await errorOf(softwareUpgradeCommand, [...base, "--upgrade-info", "https://x/info.json"])).toBe(
      "Error: missing checksum query parameter",
    );
    expect(await errorOf(softwareUpgradeCommand, [...base, "--upgrade-info", '{"binaries":{"linux":"x"}}'])).toBe(
      'Error: invalid os/arch format in key "linux"',
    );
    expect(
      await errorOf(softwareUpgradeCommand, [
        ...base,
        "--no-validate",
        "--authority",
        "cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn",
      ]),
    ).toBe(
      "Error: invalid authority address: hrp does not match bech32 prefix: expected 'chain' got 'cosmos': internal logic error",
    );
    expect(await errorOf(softwareUpgradeCommand, [...base, "--no-validate", "--authority", " "])).toBe(
      "Error: invalid authority address: empty address string is not allowed",
    );
    expect(bech32AuthorityError("chain1xyz", "chain")).toMatch(/^decoding bech32 failed: /);
    expect(await errorOf(softwareUpgradeCommand, ["v2", "--upgrade-height", "1"])).toBe(
      'Error: required flag(s) "title" not set',
    );
    expect(await errorOf(cancelUpgradeCommand, ["x", "--title", "t"])).toBe("Error: accepts 0 arg(s), received 1");
  });

  it("a missing key or --from, and bad vote and deposit arguments, are reported as such", async () => {
    const home = mkdtempSync(join(tmpdir(), "devnet-cli-"));
    dirs.push(home);
    expect(await errorOf(cancelUpgradeCommand, ["--title", "t", "--home", home])).toBe(
      "Error: --from is required: the name of a key in the test keyring",
    );
    expect(await errorOf(cancelUpgradeCommand, ["--title", "t", "--home", home, "--from", "bob"])).toBe(
      "Error: bob.info: key not found",
    );
    expect(await errorOf(voteCommand, ["x", "yes", "--from", "bob"])).toBe(
      "Error: proposal-id x not a valid int, please input a valid proposal-id",
    );
    expect(await errorOf(voteCommand, ["1", "maybe", "--from", "bob"])).toBe(
      "Error: 'maybe' is not a valid vote option",
    );
    expect(await errorOf(depositCommand, ["-1", "5stake", "--from", "bob"])).toBe(
      "Error: unknown shorthand flag: '1' in -1",
    );
    expect(await errorOf(depositCommand, ["1", "5", "--from", "bob"])).toBe(
      'Error: invalid coin expression: "5" (expected <integer amount><denom>)',
    );
  });
});

describe("init", () => {
  it("writes a home and shows the short gov periods; refuses to overwrite without --overwrite", async () => {
    const home = join(mkdtempSync(join(tmpdir(), "devnet-init-")), "h");
    dirs.push(home);
    const r = await run(initCommand, ["--home", home, "--key-seed", "k", "--validators", "2"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("deposit period 20s, voting period 20s, expedited voting 10s, min deposit 10000000stake");
    expect(r.out).toMatch(/val2 +chain1/);
    expect(nodeUrl("", home)).toBe("http://127.0.0.1:1317");
    expect(nodeUrl("tcp://localhost:26657", home)).toBe("http://localhost:26657");
    const again = await run(initCommand, ["--home", home]);
    expect(again).toMatchObject({
      code: 1,
      err: `Error: genesis.json file already exists: ${join(home, "config", "genesis.json")}`,
    });
    expect((await run(initCommand, ["--home", home, "--overwrite", "--validators", "0"])).err).toBe(
      "Error: --validators must be between 1 and 100, got 0",
    );
  });

  it("--bech32-prefix gives the keys that prefix; a bad one is cobra's invalid-argument line", async () => {
    const home = join(mkdtempSync(join(tmpdir(), "devnet-init-")), "h");
    dirs.push(join(home, ".."));
    const r = await run(initCommand, ["--home", home, "--key-seed", "k", "--bech32-prefix", "osmo"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/val1 +osmo1/);
    expect(await run(initCommand, ["--home", home, "--overwrite", "--bech32-prefix", "Osmo"])).toMatchObject({
      code: 1,
      err: 'Error: invalid argument "Osmo" for "--bech32-prefix" flag: a bech32 prefix must be lowercase, got "Osmo"',
    });
  });
});

describe("query gov", () => {
  it("checks its argument and reports an unreachable node", async () => {
    const { govQueryMain } = await import("./devnet-query.js");
    const { freePort } = await import("../../test/kit/devnet.js");
    const port = await freePort();
    const lines: string[] = [];
    const io = { out: (s: string) => lines.push(s), err: (s: string) => lines.push(s) };
    expect(await govQueryMain(["proposal", "x"], io)).toBe(1);
    expect(await govQueryMain(["votes"], io)).toBe(1);
    expect(await govQueryMain(["proposal", "1", "--node", `http://127.0.0.1:${port}`], io)).toBe(1);
    expect(lines).toEqual([
      "Error: proposal-id x not a valid uint, please input a valid proposal-id",
      'Error: unknown command "votes" for "chainsim query gov"',
      `Error: get "http://127.0.0.1:${port}/chain/gov/v1/proposals/1": connect: connection refused`,
    ]);
  });
});
