import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { afterEach, describe, expect, it } from "vitest";
import { decodeAddress } from "../core/address.js";
import { fromHex, toHex, utf8 } from "../core/bytes.js";
import {
  keyFromMnemonic,
  keyFromSeed,
  listKeys,
  loadKey,
  newKey,
  pubkeyAddress,
  saveKey,
  signBytes,
  verifySignature,
} from "./keyring.js";

const dirs: string[] = [];
const home = () => {
  const d = mkdtempSync(join(tmpdir(), "keyring-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("keyring", () => {
  it("derives keys from a BIP-39 mnemonic on m/44'/118'/0'/0/0; the address is ripemd160(sha256(pubkey))", () => {
    // The well-known "abandon ... about" test mnemonic: its cosmos key on 44'/118'/0'/0/0 is cosmos19rl4cm2hmr8afy4kldpxz3fka4jguq0auqdal4
    // (the same 20 bytes under the `chain` prefix).
    const abandon = `${"abandon ".repeat(11)}about`;
    const k = keyFromMnemonic("t", abandon);
    if (!k.ok) throw new Error(k.error);
    expect(toHex(decodeAddress(k.value.address)!)).toBe(
      toHex(decodeAddress("cosmos19rl4cm2hmr8afy4kldpxz3fka4jguq0auqdal4", "cosmos")!),
    );
    expect(k.value.address).toBe(pubkeyAddress(k.value.pubkey));
    expect(keyFromMnemonic("t", "abandon abandon")).toEqual({ ok: false, error: "Invalid mnenomic" });
    expect(keyFromSeed("a", "s").mnemonic.split(" ")).toHaveLength(24);
    expect(keyFromSeed("a", "s").address).toBe(keyFromSeed("b", "s").address);
    // The reference test vector: compressed pubkey of secret 1 → ripemd160(sha256(G)) = 751e76e8199196d454941c45d1b3a323f1433bd6.
    const g = secp256k1.getPublicKey(fromHex(`${"00".repeat(31)}01`), true);
    expect(toHex(decodeAddress(pubkeyAddress(g))!)).toBe("751e76e8199196d454941c45d1b3a323f1433bd6");
  });

  it("signatures verify only for the signed bytes and the signing key, and are low-S compact", () => {
    const a = keyFromSeed("a", "1");
    const b = keyFromSeed("b", "2");
    const sig = signBytes(a, utf8("doc"));
    expect(sig).toHaveLength(64);
    expect(verifySignature(a.pubkey, utf8("doc"), sig)).toBe(true);
    expect(verifySignature(a.pubkey, utf8("doc!"), sig)).toBe(false);
    expect(verifySignature(b.pubkey, utf8("doc"), sig)).toBe(false);
    expect(verifySignature(a.pubkey, utf8("doc"), sig.slice(0, 63))).toBe(false);
    expect(verifySignature(utf8("not a key"), utf8("doc"), sig)).toBe(false);
  });

  it("saves under <home>/keyring-test/<name>.json with mode 0600 and loads it back", () => {
    const h = home();
    const k = newKey("val1");
    const saved = saveKey(h, k);
    expect(saved).toEqual({ ok: true, value: join(h, "keyring-test", "val1.json") });
    expect(statSync(join(h, "keyring-test", "val1.json")).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(join(h, "keyring-test", "val1.json"), "utf8"));
    expect(file.address).toBe(k.address);
    expect(file.mnemonic).toBe(k.mnemonic);
    expect(file.pubkey["@type"]).toBe("/chain.crypto.secp256k1.PubKey");
    const back = loadKey(h, "val1");
    expect(back.ok && back.value.pubkey).toEqual(k.pubkey);
    saveKey(h, newKey("alice"));
    const all = listKeys(h);
    expect(all.ok && all.value.map((x) => x.name)).toEqual(["alice", "val1"]);
  });

  it("reports a missing key with the reference keyring text and rejects bad names", () => {
    const h = home();
    expect(loadKey(h, "bob")).toEqual({ ok: false, error: "bob.info: key not found" });
    expect(saveKey(h, newKey("../x")).ok).toBe(false);
    expect(listKeys(h)).toEqual({ ok: true, value: [] });
  });
});
