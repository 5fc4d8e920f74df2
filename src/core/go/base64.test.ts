import { describe, expect, it } from "vitest";
import { decodeBase64, decodeBinHeader, gatewayBytes } from "./base64.js";

const bytes = (r: { ok: true; value: Uint8Array } | { ok: false }) => (r.ok ? [...r.value] : undefined);
const error = (r: { ok: true } | { ok: false; error: string }) => (r.ok ? undefined : r.error);

describe("Go base64 decoding", () => {
  it("decodes padded standard base64, skipping newlines", () => {
    expect(bytes(decodeBase64("AQID", "std", true))).toEqual([1, 2, 3]);
    expect(bytes(decodeBase64("AQI=", "std", true))).toEqual([1, 2]);
    expect(bytes(decodeBase64("AQ==", "std", true))).toEqual([1]);
    expect(bytes(decodeBase64("AQ\n==", "std", true))).toEqual([1]);
    expect(bytes(decodeBase64("", "std", true))).toEqual([]);
  });
  it.each([
    ["A", 0],
    ["AQ", 0],
    ["A!==", 1],
    ["AQ=A", 2],
    ["AQ=", 3],
    ["AQ==x", 4],
    ["=AAA", 0],
    ["-_8=", 0],
  ])("reports %j at byte %i", (s, at) => {
    expect(error(decodeBase64(s, "std", true))).toBe(`illegal base64 data at input byte ${at}`);
  });
  it("is not strict, as Go's StdEncoding and URLEncoding: unused low bits of the last quantum are ignored", () => {
    // Go: base64.StdEncoding.DecodeString("YR==") is "a", as "YQ=="; "YWI=" and "YWJ=" are both "ab".
    expect(bytes(decodeBase64("YR==", "std", true))).toEqual([0x61]);
    expect(bytes(decodeBase64("YWJ=", "std", true))).toEqual([0x61, 0x62]);
    expect(bytes(decodeBase64("YWJ", "url", false))).toEqual([0x61, 0x62]);
  });
  it("decodes raw (unpadded) input and rejects padding there", () => {
    expect(bytes(decodeBase64("AQ", "std", false))).toEqual([1]);
    expect(error(decodeBase64("AQ==", "std", false))).toBe("illegal base64 data at input byte 2");
  });
  it("falls back to the URL alphabet for gateway bytes parameters", () => {
    expect(bytes(gatewayBytes("-_8="))).toEqual([0xfb, 0xff]);
    expect(error(gatewayBytes("a b="))).toBe("illegal base64 data at input byte 1");
  });
  it("decodes -Bin headers padded or raw by length", () => {
    expect(bytes(decodeBinHeader("AQI="))).toEqual([1, 2]);
    expect(bytes(decodeBinHeader("AQI"))).toEqual([1, 2]);
  });
});
