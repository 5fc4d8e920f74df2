/**
 * Go `time.ParseDuration` / `Duration.String()` for scenario files.
 *
 * Contract:
 * - `parseDurationNs` accepts exactly what Go accepts (`500ms`, `1h30m`, `1.5h`, `-1s`, `+5s`, `0`; units `ns`, `us`,
 *   `µs` (U+00B5), `μs` (U+03BC), `ms`, `s`, `m`, `h`) and returns Go's value in nanoseconds, including Go's float
 *   rounding of fractions and its overflow errors. Error texts are Go's, byte for byte
 *   (`time: invalid duration "x"`, `time: unknown unit "d" in duration "1d"`, `time: missing unit in duration "5"`).
 * - `parseDuration` converts to whole milliseconds by truncating toward zero (Go's `Duration.Milliseconds()`):
 *   `1500us` → 1 ms, `-1500us` → -1 ms, `999us` → 0 ms. Callers that need a positive span check the result
 *   (a sub-millisecond positive duration becomes 0 and fails such a check).
 * - `formatDuration` prints Go's `Duration.String()` of a millisecond span (`48h0m0s`, `1m30s`, `500ms`, `0s`).
 */
import { type DurationMs, durationMs } from "../brand.js";
import { err, ok, type Result } from "../errors.js";
import { timeQuote } from "./time.js";

const NS_PER_MS = 1_000_000n;
const U64_MASK = (1n << 64n) - 1n;
const I63 = 1n << 63n;

const UNITS: ReadonlyMap<string, bigint> = new Map([
  ["ns", 1n],
  ["us", 1_000n],
  ["\u00b5s", 1_000n],
  ["\u03bcs", 1_000n],
  ["ms", 1_000_000n],
  ["s", 1_000_000_000n],
  ["m", 60_000_000_000n],
  ["h", 3_600_000_000_000n],
]);

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";

const invalid = (orig: string): Result<never, string> => err(`time: invalid duration ${timeQuote(orig)}`);

/** Go `time.ParseDuration`, in nanoseconds (int64 range). */
export function parseDurationNs(orig: string): Result<bigint, string> {
  let s = orig;
  let neg = false;
  if (s !== "" && (s[0] === "-" || s[0] === "+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return ok(0n);
  if (s === "") return invalid(orig);
  let d = 0n;
  while (s !== "") {
    if (!(s[0] === "." || isDigit(s[0]))) return invalid(orig);
    // Integer part: Go's leadingInt fails when the value exceeds 2^63.
    let i = 0;
    let v = 0n;
    while (isDigit(s[i])) {
      if (v > I63 / 10n) return invalid(orig);
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > I63) return invalid(orig);
      i++;
    }
    const pre = i > 0;
    s = s.slice(i);
    // Fraction: Go's leadingFraction stops accumulating (without error) once precision would overflow.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === ".") {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      while (isDigit(s[j])) {
        if (!overflow) {
          if (f > (I63 - 1n) / 10n) overflow = true;
          else {
            const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
            if (y > I63) overflow = true;
            else {
              f = y;
              scale *= 10;
            }
          }
        }
        j++;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return invalid(orig);
    let k = 0;
    while (k < s.length && s[k] !== "." && !isDigit(s[k])) k++;
    if (k === 0) return err(`time: missing unit in duration ${timeQuote(orig)}`);
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = UNITS.get(u);
    if (unit === undefined) return err(`time: unknown unit ${timeQuote(u)} in duration ${timeQuote(orig)}`);
    if (v > I63 / unit) return invalid(orig);
    v *= unit;
    if (f > 0n) {
      // Go: uint64(float64(f) * (float64(unit) / scale)), i.e. IEEE double arithmetic, truncated.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > I63) return invalid(orig);
    }
    d = (d + v) & U64_MASK; // uint64 addition, wrapping as Go's does
    if (d > I63) return invalid(orig);
  }
  if (neg) return ok(-d);
  if (d > I63 - 1n) return invalid(orig);
  return ok(d);
}

/** Go duration syntax → whole milliseconds, truncated toward zero (Go's `Duration.Milliseconds()`). */
export function parseDuration(s: string): Result<DurationMs, string> {
  const r = parseDurationNs(s);
  if (!r.ok) return r;
  return ok(durationMs(Number(r.value / NS_PER_MS)));
}

/** Go `Duration.String()` of a nanosecond value. */
export function formatDurationNs(ns: bigint): string {
  if (ns === 0n) return "0s";
  const neg = ns < 0n;
  const u = neg ? -ns : ns;
  const sign = neg ? "-" : "";
  if (u < 1_000_000_000n) {
    // Sub-second: the largest unit that keeps a non-zero integer part, with a trimmed fraction.
    const [unit, name] = u < 1_000n ? [1n, "ns"] : u < 1_000_000n ? [1_000n, "µs"] : [1_000_000n, "ms"];
    return `${sign}${withFraction(u, unit)}${name}`;
  }
  const totalSeconds = u / 1_000_000_000n;
  const seconds = withFraction(u % 60_000_000_000n, 1_000_000_000n);
  const minutes = totalSeconds / 60n;
  if (minutes === 0n) return `${sign}${seconds}s`;
  const hours = minutes / 60n;
  if (hours === 0n) return `${sign}${minutes % 60n}m${seconds}s`;
  return `${sign}${hours}h${minutes % 60n}m${seconds}s`;
}

/** `value / unit` in decimal with trailing fractional zeros removed (Go's fmtFrac + fmtInt). */
function withFraction(value: bigint, unit: bigint): string {
  const whole = value / unit;
  const rest = value % unit;
  if (rest === 0n) return whole.toString();
  const digits = unit.toString().length - 1;
  return `${whole}.${rest.toString().padStart(digits, "0").replace(/0+$/, "")}`;
}

/** Go `Duration.String()` of a millisecond span (`48h0m0s`, `1m30s`, `500ms`, `1.5s`, `0s`). */
export function formatDuration(ms: DurationMs | number): string {
  return formatDurationNs(BigInt(Math.trunc(ms)) * NS_PER_MS);
}
