import type { Calendar } from "../app/operator.js";
import { assert } from "../core/assert.js";
import { BoundedCache } from "../core/bounded-cache.js";

/**
 * A person's availability on the simulated clock (docs/scenario-format.md §2.4): working hours on working days in
 * an IANA time zone, read through Intl (deterministic for a given time and zone; the host clock is never read).
 *
 * 1. The zone's UTC offset at an instant comes from Intl.DateTimeFormat, memoised per zone and UTC hour.
 * 2. `workingTimeEnd(c, t, need)` walks the calendar from `t`: inside working hours the clock runs to the window's
 *    end, outside it jumps to the next window's start; it returns the instant the person has spent `need` ms of
 *    working time. On call, or without a calendar, that is `t + need`. A DST change inside a window moves its end
 *    by the change (the window is measured in local time at its start).
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Windows walked at most: a year and a bit of days, for the absurd case of one working day a week. */
const WALK_MAX = 800;
const OFFSET_MEMO_MAX = 200_000;
/** More than the IANA database has zones; only zones Intl accepts are kept (a refused one throws first). */
const FORMATTERS_MAX = 1024;

const formatters = new BoundedCache<string, Intl.DateTimeFormat>(FORMATTERS_MAX);
const offsets = new BoundedCache<string, number>(OFFSET_MEMO_MAX);

const formatter = (timeZone: string): Intl.DateTimeFormat =>
  formatters.getOrCompute(
    timeZone,
    () =>
      new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      }),
  );

/** True when Intl knows the zone. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Local time minus UTC at `t`, in ms (whole minutes). */
export function zoneOffsetMs(timeZone: string, t: number): number {
  const hour = Math.floor(t / HOUR_MS);
  const key = `${timeZone}|${hour}`;
  const memo = offsets.get(key);
  if (memo !== undefined) return memo;
  const at = hour * HOUR_MS;
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(at))
    if (part.type !== "literal") p[part.type] = Number(part.value);
  const local = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  const off = local - at;
  return offsets.set(key, off);
}

/** The instant at which `needMs` of working time after `t` has passed. */
export function workingTimeEnd(c: Calendar | undefined, t: number, needMs: number): number {
  if (c === undefined || c.onCall) return t + needMs;
  assert(c.startMinute < c.endMinute && c.days.length > 0, "a calendar has a non-empty window");
  const startMs = c.startMinute * 60_000;
  const endMs = c.endMinute * 60_000;
  let now = t;
  let need = needMs;
  for (let i = 0; i < WALK_MAX; i++) {
    const local = now + zoneOffsetMs(c.timeZone, now);
    const ofDay = ((local % DAY_MS) + DAY_MS) % DAY_MS;
    const weekday = new Date(local - ofDay).getUTCDay();
    const working = c.days.includes(weekday);
    if (working && ofDay >= startMs && ofDay < endMs) {
      const left = endMs - ofDay;
      if (need <= left) return now + need;
      need -= left;
      now += left;
    } else if (working && ofDay < startMs) now += startMs - ofDay;
    else now += DAY_MS - ofDay + startMs;
  }
  return Number.POSITIVE_INFINITY;
}
