/**
 * Time zones: a zone's offset from UTC at an instant (docs/scenario-format.md §2.4, docs/block-time-model.md §3).
 *
 * 1. A zone is `UTC`, `Z`, a fixed offset `±HH:MM`, or an IANA name (`Europe/Berlin`) read through
 *    Intl.DateTimeFormat. Intl is deterministic for a given instant and zone: neither the host clock nor the host's
 *    zone is read.
 * 2. `zoneOffsetMs(zone, t)` is local time minus UTC at the start of `t`'s minute, memoised per zone and UTC minute
 *    (a bounded memo), so a DST change is honoured at the instant it happens.
 */
import { BoundedCache } from "./bounded-cache.js";
import { err, ok, type Result } from "./errors.js";

const MINUTE_MS = 60_000;
const OFFSET_MEMO_MAX = 200_000;

/** A zone as read: a fixed offset, or an IANA name whose offset depends on the instant. */
export type TimeZone =
  | { readonly kind: "fixed"; readonly name: string; readonly offsetMs: number }
  | { readonly kind: "iana"; readonly name: string };

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

/** True when Intl knows the IANA zone. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Local time minus UTC in an IANA zone at `t` (the start of its minute), in ms. */
export function zoneOffsetMs(timeZone: string, t: number): number {
  const minute = Math.floor(t / MINUTE_MS);
  const key = `${timeZone}|${minute}`;
  const memo = offsets.get(key);
  if (memo !== undefined) return memo;
  const at = minute * MINUTE_MS;
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(at))
    if (part.type !== "literal") p[part.type] = Number(part.value);
  const local = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return offsets.set(key, local - at);
}

/** Reads `UTC`, `Z`, `±HH:MM` or an IANA name; the error is the zone as given. */
export function parseTimeZone(text: string): Result<TimeZone, string> {
  if (text === "UTC" || text === "Z") return ok({ kind: "fixed", name: text, offsetMs: 0 });
  const m = /^([+-])([01][0-9]|2[0-3]):([0-5][0-9])$/.exec(text);
  if (m !== null) {
    const offsetMs = (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * MINUTE_MS;
    return ok({ kind: "fixed", name: text, offsetMs });
  }
  return isTimeZone(text) ? ok({ kind: "iana", name: text }) : err(text);
}

/** Local time minus UTC in the zone at `t`, in ms. */
export const offsetAtMs = (z: TimeZone, t: number): number =>
  z.kind === "fixed" ? z.offsetMs : zoneOffsetMs(z.name, t);

/** The UTC instant whose local time in the zone is `localMs` (in a DST gap, the instant after it; in an overlap, the later). */
export function utcOfLocalMs(z: TimeZone, localMs: number): number {
  const guess = localMs - offsetAtMs(z, localMs);
  return localMs - offsetAtMs(z, guess);
}
