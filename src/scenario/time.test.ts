import { describe, expect, it } from "vitest";
import { unixMs } from "../core/brand.js";
import { formatRfc3339 } from "../core/time.js";
import { parseRfc3339, parseTimeSpec, resolveTimeSpec } from "./time.js";

describe("parseRfc3339", () => {
  it("parses UTC and offsets to Unix milliseconds", () => {
    expect(parseRfc3339("2026-01-01T00:00:00Z")).toEqual({ ok: true, value: 1_767_225_600_000 });
    expect(parseRfc3339("1970-01-01T00:00:00Z")).toEqual({ ok: true, value: 0 });
    expect(parseRfc3339("2026-01-01T02:00:00+02:00")).toEqual({ ok: true, value: 1_767_225_600_000 });
    expect(parseRfc3339("2025-12-31T19:30:00-04:30")).toEqual({ ok: true, value: 1_767_225_600_000 });
    expect(parseRfc3339("1969-12-31T23:59:59Z")).toEqual({ ok: true, value: -1000 });
  });
  it("reads back what core/time.ts formats", () => {
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

describe("parseTimeSpec", () => {
  const genesis = unixMs(1_767_225_600_000);
  it("reads +<duration> as an offset from genesis", () => {
    const r = parseTimeSpec("+50h");
    expect(r).toEqual({ ok: true, value: { kind: "offset", offsetMs: 180_000_000 } });
    if (r.ok) expect(resolveTimeSpec(r.value, genesis)).toBe(genesis + 180_000_000);
  });
  it("reads an RFC 3339 time as absolute", () => {
    const r = parseTimeSpec("2026-01-02T00:00:00Z");
    expect(r).toEqual({ ok: true, value: { kind: "absolute", time: 1_767_312_000_000 } });
    if (r.ok) expect(resolveTimeSpec(r.value, genesis)).toBe(1_767_312_000_000);
  });
  it("rejects a bad offset with Go's text and anything else with the expected forms", () => {
    expect(parseTimeSpec("+1d")).toEqual({ ok: false, error: 'time: unknown unit "d" in duration "+1d"' });
    expect(parseTimeSpec("50h")).toEqual({
      ok: false,
      error: 'expected "+<duration>" (offset from genesis, e.g. "+50h") or an RFC 3339 time, got "50h"',
    });
    expect(parseTimeSpec("+-1s").ok).toBe(false);
  });
});
