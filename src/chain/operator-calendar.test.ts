import { describe, expect, it } from "vitest";
import { workingTimeEnd } from "./operator-calendar.js";

const H = 3_600_000;
const berlin = {
  timeZone: "Europe/Berlin",
  startMinute: 9 * 60,
  endMinute: 17 * 60,
  days: [1, 2, 3, 4, 5],
  onCall: false,
};

describe("working time in a time zone", () => {
  it("a need at night waits for the morning; on a Friday evening, for Monday", () => {
    // Thursday 2026-01-01 01:40Z = 02:40 Berlin → 09:00 Berlin (08:00Z) + 30m.
    expect(workingTimeEnd(berlin, Date.UTC(2026, 0, 1, 1, 40), 0.5 * H)).toBe(Date.UTC(2026, 0, 1, 8, 30));
    // Friday 2026-01-02 16:30 Berlin (15:30Z) + 1h: 30m on Friday, 30m on Monday 2026-01-05 → 09:30 Berlin.
    expect(workingTimeEnd(berlin, Date.UTC(2026, 0, 2, 15, 30), H)).toBe(Date.UTC(2026, 0, 5, 8, 30));
  });

  it("across the spring DST change the window is in local time", () => {
    // Sunday 2026-03-29 Berlin switches to UTC+2; Monday 09:00 local is 07:00Z.
    expect(workingTimeEnd(berlin, Date.UTC(2026, 2, 28, 12), 0)).toBe(Date.UTC(2026, 2, 30, 7));
  });

  it("on call, or without a calendar, the clock never pauses", () => {
    const t = Date.UTC(2026, 0, 3, 3); // Saturday night
    expect(workingTimeEnd({ ...berlin, onCall: true }, t, H)).toBe(t + H);
    expect(workingTimeEnd(undefined, t, H)).toBe(t + H);
  });
});
