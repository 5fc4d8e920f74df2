/**
 * An operators' window `HH:MM-HH:MM[@TZ]`: a daily stretch of wall-clock time, in UTC unless a zone is given as
 * `UTC`, `Z` or a fixed offset `±HH:MM` (named zones are not read: their rules live in the host). A window whose end
 * is before its start runs past midnight (22:00-02:00).
 */
import { err, ok, type Result } from "../core/errors.js";

export interface TimeWindow {
  /** Minutes after local midnight. */
  readonly startMin: number;
  readonly endMin: number;
  /** The zone's offset from UTC in minutes (east positive). */
  readonly offsetMin: number;
  readonly text: string;
}

const DAY_MS = 86_400_000;
const MIN_MS = 60_000;

function clockMinutes(s: string): number | undefined {
  const m = /^([01][0-9]|2[0-3]):([0-5][0-9])$/.exec(s);
  return m === null ? undefined : Number(m[1]) * 60 + Number(m[2]);
}

function offsetMinutes(zone: string): number | undefined {
  if (zone === "UTC" || zone === "Z") return 0;
  const m = /^([+-])([01][0-9]|2[0-3]):([0-5][0-9])$/.exec(zone);
  if (m === null) return undefined;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** Parses `HH:MM-HH:MM[@TZ]`; an error is one line. */
export function parseWindow(text: string): Result<TimeWindow, string> {
  const [span = "", zone = "UTC", extra] = text.split("@");
  const [from = "", to = "", more] = span.split("-");
  const startMin = clockMinutes(from);
  const endMin = clockMinutes(to);
  const offsetMin = offsetMinutes(zone);
  if (extra !== undefined || more !== undefined || startMin === undefined || endMin === undefined)
    return err(`"${text}" is not HH:MM-HH:MM[@TZ]`);
  if (offsetMin === undefined) return err(`"${zone}" is not a time zone: use UTC or an offset like +02:00`);
  if (startMin === endMin) return err(`"${text}" is an empty window`);
  return ok({ startMin, endMin, offsetMin, text });
}

export const formatWindow = (w: TimeWindow): string => w.text;

/** True when [fromMs, toMs] lies inside one occurrence of the window. */
export function bandInsideWindow(fromMs: number, toMs: number, w: TimeWindow): boolean {
  const local = fromMs + w.offsetMin * MIN_MS;
  const dayStart = Math.floor(local / DAY_MS) * DAY_MS - w.offsetMin * MIN_MS;
  const lengthMin = (w.endMin - w.startMin + 1440) % 1440;
  // The occurrence that starts on the band's local day, and the one of the day before (a window past midnight).
  for (const day of [dayStart - DAY_MS, dayStart]) {
    const start = day + w.startMin * MIN_MS;
    const end = start + lengthMin * MIN_MS;
    if (start <= fromMs && toMs <= end) return true;
  }
  return false;
}
