import { describe, expect, it } from "vitest";
import { bandInsideWindow, inWindow, parseWindow } from "./daily-window.js";

function window(text: string) {
  const w = parseWindow(text);
  if (!w.ok) throw new Error(w.error);
  return w.value;
}

describe("the operators' daily window", () => {
  it("one error vocabulary: the shape, an unknown zone, an empty window", () => {
    expect(parseWindow("9-10")).toEqual({
      ok: false,
      error: 'expected HH:MM-HH:MM or HH:MM-HH:MM@<time zone>, got "9-10"',
    });
    expect(parseWindow("09:00-10:00@Mars/Olympus")).toEqual({ ok: false, error: 'unknown time zone "Mars/Olympus"' });
    expect(parseWindow("09:00-09:00")).toEqual({ ok: false, error: 'an empty window "09:00-09:00"' });
    expect(window("09:00-17:00").text).toBe("09:00-17:00@UTC");
    expect(window("09:00-17:00@Europe/Berlin").text).toBe("09:00-17:00@Europe/Berlin");
  });

  it("a window whose end is before its start runs past midnight", () => {
    const night = window("22:00-02:00@+01:00");
    expect(bandInsideWindow(Date.UTC(2026, 0, 1, 21, 30), Date.UTC(2026, 0, 2, 0, 30), night)).toBe(true);
    expect(bandInsideWindow(Date.UTC(2026, 0, 1, 23, 30), Date.UTC(2026, 0, 2, 1, 30), night)).toBe(false);
    expect(inWindow(night, Date.UTC(2026, 0, 1, 0, 59))).toBe(true);
    expect(inWindow(night, Date.UTC(2026, 0, 1, 1, 0))).toBe(false);
  });

  it("a named zone is read at the instant: 09:00-17:00 Berlin is 08-16Z in January, 07-15Z in July", () => {
    const berlin = window("09:00-17:00@Europe/Berlin");
    expect(bandInsideWindow(Date.UTC(2026, 0, 15, 8), Date.UTC(2026, 0, 15, 16), berlin)).toBe(true);
    expect(bandInsideWindow(Date.UTC(2026, 6, 15, 8), Date.UTC(2026, 6, 15, 16), berlin)).toBe(false);
    expect(bandInsideWindow(Date.UTC(2026, 6, 15, 7), Date.UTC(2026, 6, 15, 15), berlin)).toBe(true);
    expect(inWindow(berlin, Date.UTC(2026, 0, 15, 7, 30))).toBe(false);
    expect(inWindow(berlin, Date.UTC(2026, 6, 15, 7, 30))).toBe(true);
  });
});
