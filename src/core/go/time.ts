import { create } from "@bufbuild/protobuf";
import { type Timestamp, TimestampSchema } from "@bufbuild/protobuf/wkt";
import type { UnixMs } from "../brand.js";
import { unixMs } from "../brand.js";
import { utf8 } from "../bytes.js";
import { err, ok, type PlainError, plain, type Result } from "../errors.js";

/**
 * Go's `time` package as chainsim meets it: RFC 3339 parsing (strict, as `time.Time.UnmarshalJSON` and scenario files
 * use it), RFC 3339 printing of a UTC instant (`time.Time.String` in RFC 3339 form) and the package's own `quote`.
 *
 * `time.Time.UnmarshalJSON` (Go ≥ 1.20): the raw JSON bytes must be a JSON string; the bytes between the quotes
 * (escapes are NOT decoded) are parsed as strict RFC 3339. Errors reproduce Go's texts, e.g.
 * `parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`.
 * Works on a "byte string" (one char per byte) so slicing matches Go's byte indexing.
 */

const RFC3339 = "2006-01-02T15:04:05Z07:00";

/**
 * Go's time-package `quote` (not strconv.Quote): printable ASCII kept (`"` and `\` escaped), every control and
 * non-ASCII byte as `\xHH`. Over a byte string (one char per byte).
 */
function quoteByteString(bs: string): string {
  let out = '"';
  for (let i = 0; i < bs.length; i++) {
    const c = bs.charCodeAt(i);
    if (c >= 0x80 || c < 0x20) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else out += c === 0x22 || c === 0x5c ? `\\${bs[i]}` : bs[i];
  }
  return `${out}"`;
}

const parseError = (value: string, layoutElem: string, valueElem: string): PlainError =>
  plain(
    `parsing time ${quoteByteString(value)} as ${quoteByteString(RFC3339)}: cannot parse ${quoteByteString(valueElem)} as ${quoteByteString(layoutElem)}`,
  );
const messageError = (value: string, message: string): PlainError =>
  plain(`parsing time ${quoteByteString(value)}${message}`);

const isDigitAt = (s: string, i: number) => i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39;

const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const daysIn = (month: number, year: number): number =>
  month === 2 ? (isLeap(year) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

interface Parsed {
  year: number;
  month: number;
  day: number;
  hour: number;
  min: number;
  sec: number;
  nsec: number;
  offsetSec: number;
}

/** getnum: one or two leading digits; `fixed` demands two. */
function getnum(s: string, fixed: boolean): { n: number; rest: string } | undefined {
  if (!isDigitAt(s, 0)) return undefined;
  if (!isDigitAt(s, 1)) return fixed ? undefined : { n: s.charCodeAt(0) - 48, rest: s.slice(1) };
  return { n: (s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48), rest: s.slice(2) };
}

/** Fractional-second digits after `.` or `,` (`value[0]`), up to nanoseconds; further digits are ignored. */
function nanosOf(value: string, n: number): number {
  const digits = value.slice(1, Math.min(n, 10));
  return Number(digits.padEnd(9, "0"));
}

/** `time.Parse(time.RFC3339, value)`: walks the layout chunks as Go does and reports the first mismatch. */
function parseLayout(avalue: string): Result<Parsed, PlainError> {
  let value = avalue;
  const p: Parsed = { year: 0, month: 0, day: 0, hour: 0, min: 0, sec: 0, nsec: 0, offsetSec: 0 };
  const chunks: readonly [string, string][] = [
    ["", "2006"],
    ["-", "01"],
    ["-", "02"],
    ["T", "15"],
    [":", "04"],
    [":", "05"],
    ["", "Z07:00"],
  ];
  for (const [prefix, std] of chunks) {
    for (const ch of prefix) {
      if (value.length === 0 || value[0] !== ch) return err(parseError(avalue, prefix, value));
      value = value.slice(1);
    }
    const hold = value;
    let range = "";
    let bad = false;
    switch (std) {
      case "2006":
        if (value.length < 4 || !/^[0-9]{4}/.test(value)) bad = true;
        else {
          p.year = Number(value.slice(0, 4));
          value = value.slice(4);
        }
        break;
      case "01":
      case "02":
      case "04":
      case "05":
      case "15": {
        const g = getnum(value, std !== "15");
        if (g === undefined) {
          bad = true;
          break;
        }
        value = g.rest;
        if (std === "01") {
          p.month = g.n;
          if (g.n <= 0 || g.n > 12) range = "month";
        } else if (std === "02") p.day = g.n;
        else if (std === "15") {
          p.hour = g.n;
          if (g.n >= 24) range = "hour";
        } else if (std === "04") {
          p.min = g.n;
          if (g.n >= 60) range = "minute";
        } else {
          p.sec = g.n;
          if (g.n >= 60) {
            range = "second";
            break;
          }
          // A fractional second not in the layout is accepted after the seconds.
          if (value.length >= 2 && (value[0] === "." || value[0] === ",") && isDigitAt(value, 1)) {
            let n = 2;
            while (isDigitAt(value, n)) n++;
            p.nsec = nanosOf(value, n);
            value = value.slice(n);
          }
        }
        break;
      }
      default: {
        // Z07:00
        if (value.length >= 1 && value[0] === "Z") {
          value = value.slice(1);
          break;
        }
        if (value.length < 6 || value[3] !== ":") {
          bad = true;
          break;
        }
        const sign = value[0];
        const hr = getnum(value.slice(1, 3), true);
        const mm = getnum(value.slice(4, 6), true);
        value = value.slice(6);
        if (hr === undefined || mm === undefined) {
          bad = true;
          break;
        }
        if (hr.n > 24) range = "time zone offset hour";
        if (mm.n > 60) range = "time zone offset minute";
        const off = (hr.n * 60 + mm.n) * 60;
        if (sign === "+") p.offsetSec = off;
        else if (sign === "-") p.offsetSec = -off;
        else bad = true;
      }
    }
    if (range !== "") return err(messageError(avalue, `: ${range} out of range`));
    if (bad) return err(parseError(avalue, std, hold));
  }
  if (value.length !== 0) return err(messageError(avalue, `: extra text: ${quoteByteString(value)}`));
  if (p.day < 1 || p.day > daysIn(p.month, p.year)) return err(messageError(avalue, ": day out of range"));
  return ok(p);
}

/** Go's fast RFC 3339 path: the canonical two-digit fields, `.` fractions, `Z` or `±hh:mm` with hh < 24, mm < 60. */
function acceptedByFastPath(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/.exec(s);
  if (m === null) return false;
  const tzh = m[7] === undefined ? 0 : Number(m[7]);
  const tzm = m[8] === undefined ? 0 : Number(m[8]);
  return tzh <= 23 && tzm <= 59;
}

/** Parses the raw bytes between the JSON quotes as Go's `parseStrictRFC3339`. */
export function parseGoRfc3339(raw: Uint8Array): Result<Timestamp, PlainError> {
  let b = "";
  for (const byte of raw) b += String.fromCharCode(byte);
  const parsed = parseLayout(b);
  if (!parsed.ok) return parsed;
  if (!acceptedByFastPath(b)) {
    if (b[12] === ":") return err(parseError(b, "15", b.slice(11, 12)));
    if (b[19] === ",") return err(parseError(b, ".", ","));
    if (b[b.length - 1] !== "Z") {
      const num2 = (s: string) => (s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48);
      if (num2(b.slice(b.length - 5)) >= 24) return err(messageError(b, ": timezone hour out of range"));
      if (num2(b.slice(b.length - 2)) >= 60) return err(messageError(b, ": timezone minute out of range"));
    }
    return err(parseError(b, RFC3339, b));
  }
  const p = parsed.value;
  const days = daysFromCivil(p.year, p.month, p.day);
  const seconds = days * 86400 + p.hour * 3600 + p.min * 60 + p.sec - p.offsetSec;
  return ok(create(TimestampSchema, { seconds: BigInt(seconds), nanos: p.nsec }));
}

/** `time.Time.UnmarshalJSON` of the raw JSON value bytes (`null` is handled by the caller as a no-op). */
export function goTimeUnmarshalJson(raw: Uint8Array): Result<Timestamp, PlainError> {
  if (raw.length < 2 || raw[0] !== 0x22 || raw[raw.length - 1] !== 0x22) {
    return err(plain("Time.UnmarshalJSON: input is not a JSON string"));
  }
  return parseGoRfc3339(raw.subarray(1, raw.length - 1));
}

/** Go's time-package `quote` of a text (its UTF-8 bytes): what `time.ParseDuration` errors print. */
export function timeQuote(text: string): string {
  let bs = "";
  for (const byte of utf8(text)) bs += String.fromCharCode(byte);
  return quoteByteString(bs);
}

const MS_PER_SECOND = 1000;
const NS_PER_MS = 1_000_000;

/**
 * A scenario file's RFC 3339 time, in Unix milliseconds: exactly what Go's strict RFC 3339 parser accepts
 * (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, upper-case `T` and `Z`, a real calendar date, no leap second, offset
 * hour ≤ 23), parsed without the host's Date parser (whose accepted forms vary). Fractions below a millisecond are
 * truncated. The error is one line naming the text and an accepted form.
 */
export function parseRfc3339(text: string): Result<UnixMs, string> {
  const t = parseGoRfc3339(utf8(text));
  if (!t.ok) return err(`invalid RFC 3339 time ${JSON.stringify(text)} (expected e.g. "2026-01-01T00:00:00Z")`);
  return ok(unixMs(Number(t.value.seconds) * MS_PER_SECOND + Math.trunc(t.value.nanos / NS_PER_MS)));
}

/**
 * The end of the representable range of chain times: what Go's RFC 3339 encoding of a `time.Time` accepts (years 0000 to 9999;
 * `Time.MarshalJSON` fails outside it, and CometBFT headers carry such times). Every simulated time must stay
 * inside; a scenario whose clock would leave it is rejected at load with the offending key named.
 */
export const TIME_MAX_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/** Civil date of a day count since 1970-01-01 (H. Hinnant's algorithm; exact for every safe integer). */
export function civilFromDays(days: number): { y: number; m: number; d: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
}

const pad = (n: number, w: number): string => String(n).padStart(w, "0");

/**
 * RFC 3339 in UTC as Go prints a time.Time: fractional seconds only when non-zero, trailing zeros trimmed. Total:
 * outside the JavaScript date range too (years beyond 9999 print with all their digits, as Go's `Format` does),
 * so a report of an out-of-range time never throws; non-finite input prints as `invalid time`.
 */
export function formatRfc3339(ms: UnixMs | number): string {
  if (!Number.isFinite(ms)) return "invalid time";
  const t = Math.floor(ms);
  const days = Math.floor(t / 86_400_000);
  const inDay = t - days * 86_400_000;
  const { y, m, d } = civilFromDays(days);
  const year = y < 0 ? `-${pad(-y, 4)}` : pad(y, 4);
  const hh = pad(Math.floor(inDay / 3_600_000), 2);
  const mm = pad(Math.floor(inDay / 60_000) % 60, 2);
  const ss = pad(Math.floor(inDay / 1000) % 60, 2);
  const frac = inDay % 1000 === 0 ? "" : `.${pad(inDay % 1000, 3)}`.replace(/0+$/, "");
  return `${year}-${pad(m, 2)}-${pad(d, 2)}T${hh}:${mm}:${ss}${frac}Z`;
}
