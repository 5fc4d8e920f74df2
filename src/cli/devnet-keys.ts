import { readFileSync } from "node:fs";
import { base64 } from "@scure/base";
import type { Command } from "commander";
import { stringify } from "yaml";
import {
  type KeyRecord,
  keyFromMnemonic,
  keyPath,
  listKeys,
  loadKey,
  newKey,
  PUBKEY_TYPE,
  saveKey,
  secretHex,
  validKeyName,
} from "../devnet/keyring.js";
import {
  type DevnetCommand,
  defaultHome,
  Fail,
  guarded,
  homeBech32Prefix,
  type Io,
  registerGroup,
} from "./devnet-common.js";
import { flagBool, flagString, type Parsed } from "./devnet-flags.js";

/**
 * `chainsim keys add|list|show|export` on a home's test keyring (the reference's `keys` with `--keyring-backend
 * test`). Keys derive from a 24-word BIP-39 mnemonic on m/44'/118'/0'/0/0; addresses are bech32(prefix,
 * ripemd160(sha256(pubkey))) with the prefix of the home's genesis (`chain.bech32Prefix`, default `chain`). Output is
 * YAML, or JSON with `-o json`; errors are `Error: <message>`, exit 1.
 *
 * - `keys add NAME [--recover]`: a new key (the mnemonic is printed once); `--recover` reads the mnemonic from stdin.
 * - `keys show NAME [-a|--address]`, `keys list`.
 * - `keys export NAME --unarmored-hex --unsafe`: the secret key in hex (armored, passphrase-encrypted export is not
 *   supported by the test keyring).
 */
const COMMON = [
  { name: "home", kind: "string" },
  { name: "keyring-backend", kind: "string" },
  { name: "output", kind: "string", short: "o" },
] as const;

const homeOf = (p: Parsed) => flagString(p, "home", defaultHome());

function keyringOf(p: Parsed): string {
  const backend = flagString(p, "keyring-backend", "test");
  if (backend !== "test") throw new Fail(`unsupported keyring backend "${backend}": the devnet uses the test keyring`);
  return homeOf(p);
}

function outputOf(p: Parsed): "json" | "text" {
  const o = flagString(p, "output", "text");
  if (o !== "json" && o !== "text") throw new Fail(`invalid output format "${o}": use text or json`);
  return o;
}

/** The reference's KeyOutput: the pubkey is the proto-JSON of the Any, as a string. */
const keyOutput = (k: KeyRecord) => ({
  name: k.name,
  type: "local",
  address: k.address,
  pubkey: JSON.stringify({ "@type": PUBKEY_TYPE, key: base64.encode(k.pubkey) }),
});

const yaml = (v: unknown) => stringify(v, { version: "1.1" }).trimEnd();

export const keysAddCommand: DevnetCommand = {
  path: ["add"],
  summary: "Add a key (a new 24-word mnemonic, or --recover one from stdin) to the test keyring",
  usage: "keys add <name> [--recover] [--home DIR] [-o text|json]",
  spec: { args: { exact: 1 }, flags: [...COMMON, { name: "recover", kind: "bool" }] },
  run: guarded(async (p, io) => {
    const home = keyringOf(p);
    const output = outputOf(p);
    const name = p.args[0]!;
    if (!validKeyName(name)) throw new Fail(`invalid key name "${name}": use letters, digits, ".", "_" or "-"`);
    if (loadKey(home, name, homeBech32Prefix(home)).ok)
      throw new Fail(`a key named ${name} already exists in ${keyPath(home, name)}`);
    let key: KeyRecord;
    if (flagBool(p, "recover")) {
      let text: string;
      try {
        text = readFileSync(0, "utf8");
      } catch {
        throw new Fail("--recover reads the mnemonic from stdin, which could not be read");
      }
      const k = keyFromMnemonic(name, text, homeBech32Prefix(home));
      if (!k.ok) throw new Fail(k.error);
      key = k.value;
    } else key = newKey(name, homeBech32Prefix(home));
    const saved = saveKey(home, key);
    if (!saved.ok) throw new Fail(saved.error);
    const shown = flagBool(p, "recover") ? {} : { mnemonic: key.mnemonic };
    if (output === "json") io.out(JSON.stringify({ ...keyOutput(key), ...shown }));
    else {
      io.out(yaml([keyOutput(key)]));
      if (!flagBool(p, "recover"))
        io.out(
          `\n\n**Important** write this mnemonic phrase in a safe place.\nIt is the only way to recover your account if you ever forget your password.\n\n${key.mnemonic}`,
        );
    }
    return 0;
  }),
};

export const keysShowCommand: DevnetCommand = {
  path: ["show"],
  summary: "Show a key of the test keyring",
  usage: "keys show <name> [-a|--address] [--home DIR] [-o text|json]",
  spec: { args: { exact: 1 }, flags: [...COMMON, { name: "address", kind: "bool", short: "a" }] },
  run: guarded(async (p, io) => {
    const home = keyringOf(p);
    const output = outputOf(p);
    const k = loadKey(home, p.args[0]!, homeBech32Prefix(home));
    if (!k.ok) throw new Fail(k.error);
    if (flagBool(p, "address")) io.out(k.value.address);
    else io.out(output === "json" ? JSON.stringify(keyOutput(k.value)) : yaml(keyOutput(k.value)));
    return 0;
  }),
};

export const keysListCommand: DevnetCommand = {
  path: ["list"],
  summary: "List the keys of the test keyring",
  usage: "keys list [--home DIR] [-o text|json]",
  spec: { args: { exact: 0 }, flags: [...COMMON] },
  run: guarded(async (p, io) => {
    const home = keyringOf(p);
    const output = outputOf(p);
    const all = listKeys(home, homeBech32Prefix(home));
    if (!all.ok) throw new Fail(all.error);
    const out = all.value.map(keyOutput);
    io.out(output === "json" ? JSON.stringify(out) : out.length === 0 ? "No records were found in keyring" : yaml(out));
    return 0;
  }),
};

export const keysExportCommand: DevnetCommand = {
  path: ["export"],
  summary: "Export a secret key of the test keyring (--unarmored-hex --unsafe)",
  usage: "keys export <name> --unarmored-hex --unsafe [--home DIR]",
  spec: {
    args: { exact: 1 },
    flags: [...COMMON, { name: "unarmored-hex", kind: "bool" }, { name: "unsafe", kind: "bool" }],
  },
  run: guarded(async (p, io) => {
    const home = keyringOf(p);
    if (!flagBool(p, "unarmored-hex") || !flagBool(p, "unsafe"))
      throw new Fail("the test keyring exports only unencrypted keys: pass --unarmored-hex --unsafe");
    const k = loadKey(home, p.args[0]!, homeBech32Prefix(home));
    if (!k.ok) throw new Fail(k.error);
    io.out(secretHex(k.value));
    return 0;
  }),
};

export const KEYS_COMMANDS: readonly DevnetCommand[] = [
  keysAddCommand,
  keysShowCommand,
  keysListCommand,
  keysExportCommand,
];

export function registerDevnetKeys(program: Command, io: Io, setExit: (code: number) => void): void {
  registerGroup(program, "keys", [], "Manage the test keyring of a devnet home", KEYS_COMMANDS, io, setExit);
}
