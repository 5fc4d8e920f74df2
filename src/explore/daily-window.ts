/**
 * The operators' daily window `HH:MM-HH:MM[@TZ]` (docs/block-time-model.md §3), read by `explore upgrade-height` and
 * `preflight`: a daily stretch of wall-clock time in a zone (src/core/time-zone.ts: UTC unless `@UTC`, `@Z`,
 * `@±HH:MM` or an IANA name like `@Europe/Berlin` is given; a named zone's offset is read at each instant, so DST
 * is honoured). A window whose end is before its start runs past midnight (22:00-02:00).
 *
 * 1. `parseWindow(text)`: the window, or one error line (without the flag name: the command adds it).
 * 2. `inWindow(w, t)`: the instant falls in [start, end) of the local day.
 * 3. `bandInsideWindow(from, to, w)`: [from, to] lies inside one occurrence [start, end] of the window.
 */
import { err, ok, type Result } from "../core/errors.js";
import { offsetAtMs, parseTimeZone, type TimeZone, utcOfLocalMs } from "../core/time-zone.js";

export interface DailyWindow {
  /** Minutes after local midnight. */
  readonly startMin: number;
  readonly endMin: number;
  readonly zone: TimeZone;
  /** `HH:MM-HH:MM@zone`, the zone named even when it is the default UTC. */
  readonly text: string;
}

const DAY_MS = 86_400_000;
const MIN_MS = 60_000;
const DAY_MIN = 1440;
const WINDOW = /^([01][0-9]|2[0-3]):([0-5][0-9])-([01][0-9]|2[0-3]):([0-5][0-9])(?:@(.+))?$/;

/** Parses `HH:MM-HH:MM[@TZ]`; an error is one line. */
export function parseWindow(text: string): Result<DailyWindow, string> {
  const m = WINDOW.exec(text);
  if (m === null) return err(`expected HH:MM-HH:MM or HH:MM-HH:MM@<time zone>, got "${text}"`);
  const zone = parseTimeZone(m[5] ?? "UTC");
  if (!zone.ok) return err(`unknown time zone "${zone.error}"`);
  const startMin = Number(m[1]) * 60 + Number(m[2]);
  const endMin = Number(m[3]) * 60 + Number(m[4]);
  if (startMin === endMin) return err(`an empty window "${text}"`);
  return ok({ startMin, endMin, zone: zone.value, text: `${m[1]}:${m[2]}-${m[3]}:${m[4]}@${zone.value.name}` });
}

export const formatWindow = (w: DailyWindow): string => w.text;

/** True when the instant falls in the daily window [start, end) of its local day. */
export function inWindow(w: DailyWindow, timeMs: number): boolean {
  const local = Math.floor((timeMs + offsetAtMs(w.zone, timeMs)) / MIN_MS);
  const m = ((local % DAY_MIN) + DAY_MIN) % DAY_MIN;
  return w.startMin < w.endMin ? m >= w.startMin && m < w.endMin : m >= w.startMin || m < w.endMin;
}

/** True when [fromMs, toMs] lies inside one occurrence of the window (its ends in local time of their own day). */
export function bandInsideWindow(fromMs: number, toMs: number, w: DailyWindow): boolean {
  const local = fromMs + offsetAtMs(w.zone, fromMs);
  const localDay = Math.floor(local / DAY_MS) * DAY_MS;
  const lengthMin = (w.endMin - w.startMin + DAY_MIN) % DAY_MIN;
  // The occurrence that starts on the band's local day, and the one of the day before (a window past midnight).
  for (const day of [localDay - DAY_MS, localDay]) {
    const startLocal = day + w.startMin * MIN_MS;
    const start = utcOfLocalMs(w.zone, startLocal);
    const end = utcOfLocalMs(w.zone, startLocal + lengthMin * MIN_MS);
    if (start <= fromMs && toMs <= end) return true;
  }
  return false;
}
