import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base64 } from "@scure/base";
import { addressFromBytes, addressOfName } from "../core/address.js";
import { fromHex, toHex, utf8 } from "../core/bytes.js";
import { err, ok, type Result } from "../core/errors.js";

/**
 * The devnet's test keyring (the reference's `--keyring-backend test`): one unencrypted JSON file per key under
 * `<home>/keyring-test/<name>.json`, mode 0600. Keys are secp256k1; signatures are 64-byte compact low-S ECDSA over
 * sha256(sign bytes), as the reference's secp256k1 keys sign.
 *
 * Addresses (deliberate deviation, documented): an account's address is bech32("chain", sha256(name)[0:20]), the
 * named-account rule of docs/scenario-format.md, not the reference's bech32(ripemd160(sha256(compressed pubkey))). The gov
 * tally identifies validators by that named address, so a validator's key must vote from it. The binding between
 * address and key is therefore made by genesis, which registers each account's public key; the reference-style
 * address is still computed and shown (`pubkeyAddress`) for comparison.
 */
export const KEYRING_DIR = "keyring-test";
export const PUBKEY_TYPE = "/chain.crypto.secp256k1.PubKey";

export interface KeyRecord {
  readonly name: string;
  /** bech32 named address (see the module contract). */
  readonly address: string;
  /** 33-byte compressed public key. */
  readonly pubkey: Uint8Array;
  /** 32-byte secret key. */
  readonly secret: Uint8Array;
}

/** The reference's secp256k1 account address: bech32("chain", ripemd160(sha256(compressed pubkey))). */
export const pubkeyAddress = (pubkey: Uint8Array): string => addressFromBytes(ripemd160(sha256(pubkey)));

/** A key from a 32-byte secret (random when omitted). */
export function newKey(name: string, secret: Uint8Array = secp256k1.utils.randomSecretKey()): KeyRecord {
  return { name, address: addressOfName(name), pubkey: secp256k1.getPublicKey(secret, true), secret };
}

/** A reproducible key: the secret is sha256(seed) (for tests and scripted devnets only). */
export const keyFromSeed = (name: string, seed: string): KeyRecord => newKey(name, sha256(utf8(seed)));

/** Signs the sha256 of `message`: 64-byte compact, low-S. */
export const signBytes = (key: KeyRecord, message: Uint8Array): Uint8Array => secp256k1.sign(message, key.secret);

/** Verifies a compact signature over sha256(message); false for malformed keys or signatures. */
export function verifySignature(pubkey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    return signature.length === 64 && secp256k1.verify(signature, message, pubkey);
  } catch {
    return false;
  }
}

const NAME = /^[A-Za-z0-9._-]{1,64}$/;

interface KeyFile {
  name: string;
  type: "local";
  address: string;
  pubkey_address: string;
  pubkey: { "@type": string; key: string };
  secret_hex: string;
}

export function keyPath(home: string, name: string): string {
  return join(home, KEYRING_DIR, `${name}.json`);
}

/** Writes the key file (creating the keyring directory, mode 0700). */
export function saveKey(home: string, key: KeyRecord): Result<string, string> {
  if (!NAME.test(key.name)) return err(`invalid key name "${key.name}": use letters, digits, ".", "_" or "-"`);
  const file: KeyFile = {
    name: key.name,
    type: "local",
    address: key.address,
    pubkey_address: pubkeyAddress(key.pubkey),
    pubkey: { "@type": PUBKEY_TYPE, key: base64.encode(key.pubkey) },
    secret_hex: toHex(key.secret),
  };
  try {
    mkdirSync(join(home, KEYRING_DIR), { recursive: true, mode: 0o700 });
    const path = keyPath(home, key.name);
    writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    return ok(path);
  } catch (e) {
    return err(e instanceof Error ? e.message : String(e));
  }
}

/** Reads a key; a missing one is `<name>.info: key not found` (the reference keyring's text). */
export function loadKey(home: string, name: string): Result<KeyRecord, string> {
  if (!NAME.test(name)) return err(`${name}.info: key not found`);
  let text: string;
  try {
    text = readFileSync(keyPath(home, name), "utf8");
  } catch {
    return err(`${name}.info: key not found`);
  }
  try {
    const f = JSON.parse(text) as Partial<KeyFile>;
    if (typeof f.secret_hex !== "string" || !/^[0-9a-f]{64}$/.test(f.secret_hex))
      return err(`${keyPath(home, name)}: missing or malformed secret_hex`);
    const key = newKey(name, fromHex(f.secret_hex));
    if (f.address !== undefined && f.address !== key.address)
      return err(`${keyPath(home, name)}: address ${f.address} does not match the key name (expected ${key.address})`);
    return ok(key);
  } catch (e) {
    return err(`${keyPath(home, name)}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Every key of the keyring, by name. */
export function listKeys(home: string): Result<KeyRecord[], string> {
  let names: string[];
  try {
    names = readdirSync(join(home, KEYRING_DIR))
      .filter((f) => f.endsWith(".json"))
      .map((f) => f.slice(0, -5))
      .sort();
  } catch {
    return ok([]);
  }
  const out: KeyRecord[] = [];
  for (const n of names) {
    const k = loadKey(home, n);
    if (!k.ok) return k;
    out.push(k.value);
  }
  return ok(out);
}
