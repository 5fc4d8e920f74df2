import { describe, expect, it } from "vitest";
import { addressOfName, decodeAddress, govAuthority, nameToAddressBytes } from "./address.js";
import { toHex } from "./bytes.js";

describe("addresses", () => {
  it("the gov authority is bech32('chain', sha256('gov')[0:20])", () => {
    expect(toHex(nameToAddressBytes("gov"))).toBe("7b5fe22b5446f7c62ea27b8bd71cef94e03f3df2");
    expect(govAuthority()).toBe("chain10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax");
  });
  it("decodes its own addresses and rejects other prefixes or garbage", () => {
    expect(decodeAddress(addressOfName("val1"))).toEqual(nameToAddressBytes("val1"));
    expect(decodeAddress("cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn")).toBeUndefined();
    expect(decodeAddress("not-an-address")).toBeUndefined();
  });
});
