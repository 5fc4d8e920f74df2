import { pbkdf2Sync } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base64 } from "@scure/base";
import { HDKey } from "@scure/bip32";
import { entropyToMnemonic, generateMnemonic, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { addressFromBytes, DEFAULT_BECH32_PREFIX } from "../core/address.js";
import { toHex, utf8 } from "../core/bytes.js";
import { err, ok, type Result } from "../core/errors.js";

/**
 * The devnet's test keyring (the reference's `--keyring-backend test`): one unencrypted JSON file per key under
 * `<home>/keyring-test/<name>.json`, mode 0600.
 *
 * - Keys are secp256k1, derived as the reference's `keys add` derives them: a BIP-39 mnemonic (24 words, English),
 *   its seed with an empty passphrase, BIP-32 path `m/44'/118'/0'/0/0`.
 * - The account address is the reference's: bech32("chain", ripemd160(sha256(33-byte compressed pubkey))).
 * - Signatures are 64-byte compact low-S ECDSA over sha256(sign bytes), as the reference's secp256k1 keys sign.
 *
 * Scenario files (not the devnet) name accounts by a name-derived address instead; see `addressOfName`.
 */
export const KEYRING_DIR = "keyring-test";
export const PUBKEY_TYPE = "/chain.crypto.secp256k1.PubKey";
/** The reference's default HD path (coin type 118). */
export const HD_PATH = "m/44'/118'/0'/0/0";

export interface KeyRecord {
  readonly name: string;
  /** bech32 of ripemd160(sha256(pubkey)). */
  readonly address: string;
  /** 33-byte compressed public key. */
  readonly pubkey: Uint8Array;
  /** 32-byte secret key. */
  readonly secret: Uint8Array;
  /** The BIP-39 mnemonic the key derives from. */
  readonly mnemonic: string;
}

/** The reference's secp256k1 account address: bech32(prefix, ripemd160(sha256(compressed pubkey))). */
export const pubkeyAddress = (pubkey: Uint8Array, prefix = DEFAULT_BECH32_PREFIX): string =>
  addressFromBytes(ripemd160(sha256(pubkey)), prefix);

/**
 * The key a mnemonic derives on `m/44'/118'/0'/0/0`, its address under the chain's bech32 `prefix`; an error names
 * what is wrong with the mnemonic.
 */
export function keyFromMnemonic(
  name: string,
  mnemonic: string,
  prefix = DEFAULT_BECH32_PREFIX,
): Result<KeyRecord, string> {
  const words = mnemonic.trim().split(/\s+/).join(" ");
  if (!validateMnemonic(words, wordlist)) return err("Invalid mnenomic");
  // BIP-39 seed: PBKDF2-HMAC-SHA512(NFKD mnemonic, "mnemonic", 2048 rounds), natively (the JS one takes ~1 s).
  const seed = pbkdf2Sync(words.normalize("NFKD"), "mnemonic", 2048, 64, "sha512");
  const secret = HDKey.fromMasterSeed(new Uint8Array(seed)).derive(HD_PATH).privateKey;
  if (secret === null) return err("key derivation failed");
  return ok({
    name,
    address: pubkeyAddress(secp256k1.getPublicKey(secret, true), prefix),
    pubkey: secp256k1.getPublicKey(secret, true),
    secret,
    mnemonic: words,
  });
}

const must = (r: Result<KeyRecord, string>): KeyRecord => {
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

/** A new key from a fresh 24-word mnemonic (256 bits of entropy from the system's secure random source). */
export const newKey = (name: string, prefix = DEFAULT_BECH32_PREFIX): KeyRecord =>
  must(keyFromMnemonic(name, generateMnemonic(wordlist, 256), prefix));

/** A reproducible key: the mnemonic's entropy is sha256(seed) (for tests and scripted devnets only). */
export const keyFromSeed = (name: string, seed: string, prefix = DEFAULT_BECH32_PREFIX): KeyRecord =>
  must(keyFromMnemonic(name, entropyToMnemonic(sha256(utf8(seed)), wordlist), prefix));

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
  pubkey: { "@type": string; key: string };
  mnemonic: string;
}

export function keyPath(home: string, name: string): string {
  return join(home, KEYRING_DIR, `${name}.json`);
}

export const validKeyName = (name: string): boolean => NAME.test(name);

/** Writes the key file (creating the keyring directory, mode 0700). */
export function saveKey(home: string, key: KeyRecord): Result<string, string> {
  if (!NAME.test(key.name)) return err(`invalid key name "${key.name}": use letters, digits, ".", "_" or "-"`);
  const file: KeyFile = {
    name: key.name,
    type: "local",
    address: key.address,
    pubkey: { "@type": PUBKEY_TYPE, key: base64.encode(key.pubkey) },
    mnemonic: key.mnemonic,
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

/**
 * Reads a key, its address under the chain's bech32 `prefix`; a missing one is `<name>.info: key not found` (the
 * reference keyring's text).
 */
export function loadKey(home: string, name: string, prefix = DEFAULT_BECH32_PREFIX): Result<KeyRecord, string> {
  if (!NAME.test(name)) return err(`${name}.info: key not found`);
  let text: string;
  try {
    text = readFileSync(keyPath(home, name), "utf8");
  } catch {
    return err(`${name}.info: key not found`);
  }
  const path = keyPath(home, name);
  try {
    const f = JSON.parse(text) as Partial<KeyFile>;
    if (typeof f.mnemonic !== "string") return err(`${path}: mnemonic: missing`);
    const key = keyFromMnemonic(name, f.mnemonic, prefix);
    if (!key.ok) return err(`${path}: mnemonic: ${key.error}`);
    if (f.address !== undefined && f.address !== key.value.address)
      return err(`${path}: address ${f.address} does not match the key (expected ${key.value.address})`);
    return key;
  } catch (e) {
    return err(`${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Every key of the keyring, by name, addresses under `prefix`. */
export function listKeys(home: string, prefix = DEFAULT_BECH32_PREFIX): Result<KeyRecord[], string> {
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
    const k = loadKey(home, n, prefix);
    if (!k.ok) return k;
    out.push(k.value);
  }
  return ok(out);
}

/** The secret key as the reference's `keys export --unarmored-hex --unsafe` prints it. */
export const secretHex = (key: KeyRecord): string => toHex(key.secret);
