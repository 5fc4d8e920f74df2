import { describe, expect, it } from "vitest";
import {
  addressFromBytes,
  addressOfName,
  bech32PrefixProblem,
  DEFAULT_BECH32_PREFIX,
  decodeAddress,
  govAuthority,
  nameToAddressBytes,
  valconsPrefix,
  valoperPrefix,
} from "./address.js";
import { toHex } from "./bytes.js";

describe("addresses", () => {
  it("the gov authority is bech32(prefix, sha256('gov')[0:20])", () => {
    expect(toHex(nameToAddressBytes("gov"))).toBe("7b5fe22b5446f7c62ea27b8bd71cef94e03f3df2");
    expect(DEFAULT_BECH32_PREFIX).toBe("chain");
    expect(govAuthority()).toBe("chain10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax");
    // The x/gov module account every Cosmos SDK chain with the `cosmos` prefix has (e.g. the Cosmos Hub's).
    expect(govAuthority("cosmos")).toBe("cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn");
    // The checksum covers the prefix: the chain address's data part under `cosmos` is not an address at all.
    expect(decodeAddress("cosmos10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax", "cosmos")).toBeUndefined();
  });
  it("decodes addresses with the expected prefix only, and rejects garbage", () => {
    expect(decodeAddress(addressOfName("val1"))).toEqual(nameToAddressBytes("val1"));
    expect(decodeAddress("cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn")).toBeUndefined();
    expect(decodeAddress("cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn", "cosmos")).toEqual(nameToAddressBytes("gov"));
    expect(decodeAddress(govAuthority(), "cosmos")).toBeUndefined();
    expect(decodeAddress("not-an-address")).toBeUndefined();
    expect(addressOfName("val1", "cosmos")).not.toBe(addressOfName("val1"));
  });
  it("derives operator and consensus prefixes as the reference's sdk.Config does", () => {
    expect([valoperPrefix("cosmos"), valconsPrefix("cosmos")]).toEqual(["cosmosvaloper", "cosmosvalcons"]);
    expect(addressFromBytes(nameToAddressBytes("v"), valconsPrefix("chain"))).toMatch(/^chainvalcons1/);
  });
  it("accepts BIP-173 human-readable parts: 1-83 characters in 33-126, lowercase", () => {
    for (const ok of ["cosmos", "a", "osmo", "x".repeat(83), "a-b.c!~"])
      expect(bech32PrefixProblem(ok)).toBeUndefined();
    expect(bech32PrefixProblem("")).toBe("a bech32 prefix must not be empty");
    expect(bech32PrefixProblem("x".repeat(84))).toBe("a bech32 prefix has at most 83 characters, got 84");
    expect(bech32PrefixProblem("Cosmos")).toBe('a bech32 prefix must be lowercase, got "Cosmos"');
    expect(bech32PrefixProblem("co smos")).toBe('a bech32 prefix holds only US-ASCII characters 33-126, got " "');
    expect(bech32PrefixProblem("cosmé")).toBe('a bech32 prefix holds only US-ASCII characters 33-126, got "é"');
  });
  it("round-trips an address under the longest prefix (the reference decodes up to 1023 characters)", () => {
    const long = "x".repeat(83);
    const a = addressOfName("val1", long);
    expect(a.length).toBeGreaterThan(90);
    expect(decodeAddress(a, long)).toEqual(nameToAddressBytes("val1"));
  });
});
