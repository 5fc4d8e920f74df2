import { describe, expect, it } from "vitest";
import { isTimeZone, offsetAtMs, parseTimeZone, utcOfLocalMs, zoneOffsetMs } from "./time-zone.js";

const H = 3_600_000;

function zone(text: string) {
  const z = parseTimeZone(text);
  if (!z.ok) throw new Error(z.error);
  return z.value;
}

describe("time zones", () => {
  it("knows IANA zones and refuses unknown ones", () => {
    expect(isTimeZone("America/New_York")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(parseTimeZone("Mars/Olympus")).toEqual({ ok: false, error: "Mars/Olympus" });
    expect(parseTimeZone("+24:00").ok).toBe(false);
  });

  it("reads the zone's offset, summer time included", () => {
    expect(zoneOffsetMs("Europe/Berlin", Date.UTC(2026, 0, 15))).toBe(H);
    expect(zoneOffsetMs("Europe/Berlin", Date.UTC(2026, 6, 15))).toBe(2 * H);
    expect(zoneOffsetMs("America/New_York", Date.UTC(2026, 0, 15))).toBe(-5 * H);
  });

  it("the offset changes at the instant of the DST change, not at the hour before or after", () => {
    // Australia/Adelaide leaves summer time on 2026-04-05 at 03:00 local (+10:30) = 16:30Z the day before.
    expect(zoneOffsetMs("Australia/Adelaide", Date.UTC(2026, 3, 4, 16, 29))).toBe(10.5 * H);
    expect(zoneOffsetMs("Australia/Adelaide", Date.UTC(2026, 3, 4, 16, 30))).toBe(9.5 * H);
  });

  it("UTC, Z and fixed offsets need no Intl", () => {
    expect(offsetAtMs(zone("UTC"), 0)).toBe(0);
    expect(offsetAtMs(zone("Z"), 0)).toBe(0);
    expect(offsetAtMs(zone("+02:00"), 0)).toBe(2 * H);
    expect(offsetAtMs(zone("-05:30"), 0)).toBe(-5.5 * H);
  });

  it("a local wall-clock time back to UTC, on both sides of DST", () => {
    const berlin = zone("Europe/Berlin");
    expect(utcOfLocalMs(berlin, Date.UTC(2026, 0, 15, 9))).toBe(Date.UTC(2026, 0, 15, 8));
    expect(utcOfLocalMs(berlin, Date.UTC(2026, 6, 15, 9))).toBe(Date.UTC(2026, 6, 15, 7));
    // 02:30 on 2026-03-29 does not exist in Berlin: the instant after the gap.
    expect(utcOfLocalMs(berlin, Date.UTC(2026, 2, 29, 2, 30))).toBe(Date.UTC(2026, 2, 29, 1, 30));
  });
});
