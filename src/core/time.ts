import type { UnixMs } from "./brand.js";

/**
 * The representable range of chain times: what Go's RFC 3339 encoding of a `time.Time` accepts (years 0000 to 9999;
 * `Time.MarshalJSON` fails outside it, and CometBFT headers carry such times). Every simulated time must stay
 * inside; a scenario whose clock would leave it is rejected at load with the offending key named.
 */
export const TIME_MIN_MS = -62_167_219_200_000; // 0000-01-01T00:00:00Z
export const TIME_MAX_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/** Civil date of a day count since 1970-01-01 (H. Hinnant's algorithm; exact for every safe integer). */
function civilFromDays(days: number): { y: number; m: number; d: number } {
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
