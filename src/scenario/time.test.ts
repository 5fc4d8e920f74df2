import { describe, expect, it } from "vitest";
import { unixMs } from "../core/brand.js";
import { parseTimeSpec, resolveTimeSpec } from "./time.js";

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
