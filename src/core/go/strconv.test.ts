import { describe, expect, it } from "vitest";
import { parseGoBool, parseGoInt, parseGoUint, quote, quoteBytes, quoteLatin1 } from "./strconv.js";

const val = <T>(r: { ok: true; value: T } | { ok: false }): T | undefined => (r.ok ? r.value : undefined);
const msg = (r: { ok: true } | { ok: false; error: { text: string } }): string | undefined =>
  r.ok ? undefined : r.error.text;

describe("Go strconv.ParseInt base 0", () => {
  it.each([
    ["0x10", 16n],
    ["0X1f", 31n],
    ["0o17", 15n],
    ["017", 15n],
    ["0b101", 5n],
    ["1_000", 1000n],
    ["0x_1f", 31n],
    ["+5", 5n],
    ["-0", 0n],
    ["0", 0n],
    ["-9223372036854775808", -9223372036854775808n],
    ["9223372036854775807", 9223372036854775807n],
  ])("parses %s", (s, v) => {
    expect(val(parseGoInt(s, 0, 64))).toBe(v);
  });

  it.each(["abc", "", "-", "0x", "08", "1__0", "_1", "1_", "1 ", "5, 6", "0b2", "--1"])("rejects %j", (s) => {
    expect(msg(parseGoInt(s, 0, 64))).toBe(`strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`);
  });

  it.each(["9223372036854775808", "-9223372036854775809", "0x8000000000000000", "99999999999999999999x"])(
    "reports overflow of %s as out of range",
    (s) => {
      expect(msg(parseGoInt(s, 0, 64))).toBe(`strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range`);
    },
  );

  it("respects the bit size", () => {
    expect(msg(parseGoInt("2147483648", 0, 32))).toBe('strconv.ParseInt: parsing "2147483648": value out of range');
    expect(val(parseGoInt("-2147483648", 0, 32))).toBe(-2147483648n);
  });
});

describe("Go strconv.ParseInt base 10 (height header)", () => {
  it("accepts a sign but no prefix and no separators", () => {
    expect(val(parseGoInt("+7", 10, 64))).toBe(7n);
    expect(val(parseGoInt("-0", 10, 64))).toBe(0n);
    expect(msg(parseGoInt("0x10", 10, 64))).toBe('strconv.ParseInt: parsing "0x10": invalid syntax');
    expect(msg(parseGoInt("1_000", 10, 64))).toBe('strconv.ParseInt: parsing "1_000": invalid syntax');
    expect(val(parseGoInt("010", 10, 64))).toBe(10n);
  });
});

describe("Go strconv.ParseUint and ParseBool", () => {
  it("rejects signs and reports ParseUint", () => {
    expect(msg(parseGoUint("-1", 0, 64))).toBe('strconv.ParseUint: parsing "-1": invalid syntax');
    expect(msg(parseGoUint("18446744073709551616", 0, 64))).toBe(
      'strconv.ParseUint: parsing "18446744073709551616": value out of range',
    );
    expect(val(parseGoUint("18446744073709551615", 0, 64))).toBe(18446744073709551615n);
  });
  it("parses Go's bool spellings only", () => {
    for (const t of ["1", "t", "T", "TRUE", "true", "True"]) expect(val(parseGoBool(t))).toBe(true);
    for (const f of ["0", "f", "F", "FALSE", "false", "False"]) expect(val(parseGoBool(f))).toBe(false);
    expect(msg(parseGoBool("yes"))).toBe('strconv.ParseBool: parsing "yes": invalid syntax');
  });
});

describe("Go strconv.Quote", () => {
  it("escapes like Go", () => {
    expect(quote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(quote("\t\n\r\x07\x08\x0c\x0b")).toBe('"\\t\\n\\r\\a\\b\\f\\v"');
    expect(quote("\x00\x7f")).toBe('"\\x00\\x7f"');
    expect(quote("é日本")).toBe('"é日本"');
    expect(quote("\u2028\u00ad")).toBe('"\\u2028\\u00ad"');
    expect(quote("\u{1F600}")).toBe('"\u{1F600}"');
    expect(quote("\u{E0001}")).toBe('"\\U000e0001"');
  });
  it("quotes invalid UTF-8 bytes as \\x escapes", () => {
    expect(quoteBytes(Uint8Array.of(0xff, 0x41, 0xc3))).toBe('"\\xffA\\xc3"');
    expect(quoteBytes(Uint8Array.of(0xed, 0xa0, 0x80))).toBe('"\\xed\\xa0\\x80"');
  });
  it("reads latin1 header values as their raw bytes", () => {
    // node decodes the UTF-8 bytes of "é" (c3 a9) as two latin1 chars
    expect(quoteLatin1("\u00c3\u00a9")).toBe('"é"');
    expect(quoteLatin1("\u00ff")).toBe('"\\xff"');
  });
});
