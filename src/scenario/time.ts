/**
 * RFC 3339 timestamps for scenario files, without the host's Date parser (whose accepted forms vary).
 *
 * Accepted: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, upper-case `T` and `Z`, a real calendar date, hour ≤ 23,
 * minute and second ≤ 59 (no leap second, as Go's time.Parse), offset hour ≤ 23. Fractions below a millisecond are
 * truncated. `+<Go duration>` forms (offsets from genesis) are handled by `parseTimeSpec`.
 */
import { type DurationMs, type UnixMs, unixMs } from "../core/brand.js";
import { err, ok, type Result } from "../core/errors.js";
import { parseDuration } from "../core/go/duration.js";

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Parses an RFC 3339 timestamp into Unix milliseconds. */
export function parseRfc3339(text: string): Result<UnixMs, string> {
  const m = RFC3339.exec(text);
  const bad = err(`invalid RFC 3339 time ${JSON.stringify(text)} (expected e.g. "2026-01-01T00:00:00Z")`);
  if (m === null) return bad;
  const n = (i: number): number => Number(m[i] ?? "0");
  const [year, month, day, hour, minute, second] = [n(1), n(2), n(3), n(4), n(5), n(6)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return bad;
  if (hour > 23 || minute > 59 || second > 59) return bad;
  let offsetMin = 0;
  if (m[8] === undefined) {
    const oh = n(10);
    const om = n(11);
    if (oh > 23 || om > 59) return bad;
    offsetMin = (m[9] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const fractionMs = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
  const local = daysFromCivil(year, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000;
  return ok(unixMs(local + fractionMs - offsetMin * 60_000));
}

/** A point in simulated time as written in a file: an offset from genesis (`+50h`) or an absolute time. */
export type TimeSpec =
  | { readonly kind: "offset"; readonly offsetMs: DurationMs }
  | { readonly kind: "absolute"; readonly time: UnixMs };

/** `+<Go duration>` (offset from genesis, ≥ 0) or an RFC 3339 time. */
export function parseTimeSpec(text: string): Result<TimeSpec, string> {
  if (text.startsWith("+")) {
    const d = parseDuration(text);
    if (!d.ok) return d;
    return ok({ kind: "offset", offsetMs: d.value });
  }
  const t = parseRfc3339(text);
  if (!t.ok) {
    return err(
      `expected "+<duration>" (offset from genesis, e.g. "+50h") or an RFC 3339 time, got ${JSON.stringify(text)}`,
    );
  }
  return ok({ kind: "absolute", time: t.value });
}

/** Resolves a time spec against the genesis time. */
export const resolveTimeSpec = (spec: TimeSpec, genesis: UnixMs): UnixMs =>
  spec.kind === "offset" ? unixMs(genesis + spec.offsetMs) : spec.time;
