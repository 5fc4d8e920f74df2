import { describe, expect, it } from "vitest";
import { utf8 } from "../bytes.js";
import { formatRfc3339, goTimeUnmarshalJson, parseRfc3339, timeQuote } from "./time.js";

const parse = (json: string) => {
  const r = goTimeUnmarshalJson(utf8(json));
  return r.ok ? { seconds: r.value.seconds, nanos: r.value.nanos } : r.error.message;
};

describe("time.Time.UnmarshalJSON (strict RFC 3339)", () => {
  it("parses the zero time and ordinary times with offsets and fractions", () => {
    expect(parse('"0001-01-01T00:00:00Z"')).toEqual({ seconds: -62135596800n, nanos: 0 });
    expect(parse('"1970-01-01T00:00:00Z"')).toEqual({ seconds: 0n, nanos: 0 });
    expect(parse('"2024-02-29T12:30:45.123456789Z"')).toEqual({ seconds: 1709209845n, nanos: 123456789 });
    expect(parse('"1970-01-01T01:00:00+01:00"')).toEqual({ seconds: 0n, nanos: 0 });
    expect(parse('"1970-01-01T00:00:00.5-00:30"')).toEqual({ seconds: 1800n, nanos: 500000000 });
  });
  it("requires a JSON string", () => {
    expect(parse("123")).toBe("Time.UnmarshalJSON: input is not a JSON string");
    expect(parse("{}")).toBe("Time.UnmarshalJSON: input is not a JSON string");
  });
  it("reports Go's layout errors", () => {
    expect(parse('"abc"')).toBe('parsing time "abc" as "2006-01-02T15:04:05Z07:00": cannot parse "abc" as "2006"');
    expect(parse('"2024-01-01"')).toBe(
      'parsing time "2024-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"',
    );
    expect(parse('"2024-13-01T00:00:00Z"')).toBe('parsing time "2024-13-01T00:00:00Z": month out of range');
    expect(parse('"2023-02-29T00:00:00Z"')).toBe('parsing time "2023-02-29T00:00:00Z": day out of range');
    expect(parse('"2024-01-01T24:00:00Z"')).toBe('parsing time "2024-01-01T24:00:00Z": hour out of range');
    expect(parse('"2024-01-01T00:00:00"')).toBe(
      'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"',
    );
    expect(parse('"2024-01-01T00:00:00Zx"')).toBe('parsing time "2024-01-01T00:00:00Zx": extra text: "x"');
  });
  it("applies the strict checks of parseStrictRFC3339", () => {
    expect(parse('"2024-01-01T1:00:00Z"')).toBe(
      'parsing time "2024-01-01T1:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1" as "15"',
    );
    expect(parse('"2024-01-01T00:00:00,5Z"')).toBe(
      'parsing time "2024-01-01T00:00:00,5Z" as "2006-01-02T15:04:05Z07:00": cannot parse "," as "."',
    );
    expect(parse('"2024-01-01T00:00:00+24:00"')).toBe(
      'parsing time "2024-01-01T00:00:00+24:00": timezone hour out of range',
    );
  });
  it("does not decode JSON escapes and quotes non-ASCII bytes as \\x", () => {
    expect(parse('"0001-01-01T00:00:00\\u005a"')).toBe(
      'parsing time "0001-01-01T00:00:00\\\\u005a" as "2006-01-02T15:04:05Z07:00": cannot parse "\\\\u005a" as "Z07:00"',
    );
    expect(parse('"é"')).toBe(
      'parsing time "\\xc3\\xa9" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xc3\\xa9" as "2006"',
    );
  });
});

describe("parseRfc3339", () => {
  it("parses UTC and offsets to Unix milliseconds", () => {
    expect(parseRfc3339("2026-01-01T00:00:00Z")).toEqual({ ok: true, value: 1_767_225_600_000 });
    expect(parseRfc3339("1970-01-01T00:00:00Z")).toEqual({ ok: true, value: 0 });
    expect(parseRfc3339("2026-01-01T02:00:00+02:00")).toEqual({ ok: true, value: 1_767_225_600_000 });
    expect(parseRfc3339("2025-12-31T19:30:00-04:30")).toEqual({ ok: true, value: 1_767_225_600_000 });
    expect(parseRfc3339("1969-12-31T23:59:59Z")).toEqual({ ok: true, value: -1000 });
  });
  it("reads back what formatRfc3339 prints", () => {
    for (const ms of [0, 1_767_225_600_250, -1000, 951_827_696_789])
      expect(parseRfc3339(formatRfc3339(ms))).toEqual({ ok: true, value: ms });
  });
  it("keeps milliseconds and truncates finer fractions", () => {
    expect(parseRfc3339("1970-01-01T00:00:00.5Z")).toEqual({ ok: true, value: 500 });
    expect(parseRfc3339("1970-01-01T00:00:00.123999999Z")).toEqual({ ok: true, value: 123 });
  });
  it("agrees with the host's UTC calendar on many dates", () => {
    for (const iso of [
      "2000-02-29T12:34:56Z",
      "2100-03-01T00:00:00Z",
      "0001-01-01T00:00:00Z",
      "9999-12-31T23:59:59Z",
    ]) {
      expect(parseRfc3339(iso)).toEqual({ ok: true, value: Date.parse(iso) });
    }
  });
  it.each([
    "2026-01-01",
    "2026-01-01 00:00:00Z",
    "2026-01-01t00:00:00z",
    "2026-02-29T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-04-31T00:00:00Z",
    "2026-01-01T24:00:00Z",
    "2026-01-01T00:60:00Z",
    "2026-01-01T00:00:60Z",
    "2026-01-01T00:00:00+24:00",
    "2026-01-01T00:00:00",
    "2026-01-01T00:00:00.Z",
  ])("rejects %j", (text) => {
    const r = parseRfc3339(text);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error).toBe(`invalid RFC 3339 time ${JSON.stringify(text)} (expected e.g. "2026-01-01T00:00:00Z")`);
  });
});

describe("timeQuote", () => {
  it("escapes quotes, backslashes, control and non-ASCII bytes like Go's time.quote", () => {
    expect(timeQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(timeQuote("\n")).toBe('"\\x0a"');
    expect(timeQuote("µ")).toBe('"\\xc2\\xb5"');
    expect(timeQuote("\ufffd")).toBe('"\\xef\\xbf\\xbd"');
  });
});
