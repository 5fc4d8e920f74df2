import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { keyFromMnemonic } from "../devnet/keyring.js";
import { runCommand } from "./devnet-common.js";
import { keysAddCommand, keysExportCommand, keysListCommand, keysShowCommand } from "./devnet-keys.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function run(c: typeof keysAddCommand, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommand(c, args, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("chainsim keys", () => {
  it("add prints the key and its mnemonic once; show, list and export read it back", async () => {
    const home = mkdtempSync(join(tmpdir(), "keys-"));
    dirs.push(home);
    const added = await run(keysAddCommand, ["carol", "--home", home, "-o", "json"]);
    expect(added.code).toBe(0);
    const j = JSON.parse(added.out);
    expect(j).toMatchObject({ name: "carol", type: "local", address: expect.stringMatching(/^chain1/) });
    expect(j.mnemonic.split(" ")).toHaveLength(24);
    // The address is the mnemonic's key on m/44'/118'/0'/0/0.
    const k = keyFromMnemonic("carol", j.mnemonic);
    expect(k.ok && k.value.address).toBe(j.address);
    expect(JSON.parse(j.pubkey)["@type"]).toBe("/chain.crypto.secp256k1.PubKey");

    expect((await run(keysShowCommand, ["carol", "-a", "--home", home])).out).toBe(j.address);
    const shown = await run(keysShowCommand, ["carol", "--home", home]);
    expect(shown.out).toContain(`address: ${j.address}`);
    expect(shown.out).not.toContain(j.mnemonic);
    const listed = JSON.parse((await run(keysListCommand, ["--home", home, "--output", "json"])).out);
    expect(listed.map((x: { name: string }) => x.name)).toEqual(["carol"]);
    const hex = await run(keysExportCommand, ["carol", "--unarmored-hex", "--unsafe", "--home", home]);
    expect(hex.out).toMatch(/^[0-9a-f]{64}$/);
    expect(k.ok && Buffer.from(k.value.secret).toString("hex")).toBe(hex.out);
  });

  it("errors are one line and exit 1", async () => {
    const home = mkdtempSync(join(tmpdir(), "keys-"));
    dirs.push(home);
    expect(await run(keysShowCommand, ["nobody", "--home", home])).toEqual({
      code: 1,
      out: "",
      err: "Error: nobody.info: key not found",
    });
    expect((await run(keysListCommand, ["--home", home])).out).toBe("No records were found in keyring");
    await run(keysAddCommand, ["dup", "--home", home]);
    expect((await run(keysAddCommand, ["dup", "--home", home])).err).toMatch(/^Error: a key named dup already exists/);
    expect((await run(keysExportCommand, ["dup", "--home", home])).err).toBe(
      "Error: the test keyring exports only unencrypted keys: pass --unarmored-hex --unsafe",
    );
    expect((await run(keysShowCommand, ["dup", "--home", home, "-o", "xml"])).err).toBe(
      'Error: invalid output format "xml": use text or json',
    );
    expect((await run(keysShowCommand, ["dup", "--keyring-backend", "os", "--home", home])).code).toBe(1);
  });
});
