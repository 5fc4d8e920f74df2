import { err, ok, type Result } from "../core/errors.js";

/**
 * The reference's `math.LegacyDec`: a signed fixed-point decimal with 18 fractional digits on a bigint.
 * Contract (matching the reference bit for bit):
 * - `mul` and `quo` round half-to-even to 18 decimals after each operation; `quo` first truncates
 *   `a·10³⁶ / b` and then rounds that to 18 decimals (the reference's double rounding).
 * - `mulInt` is exact, `quoInt` and `truncateInt` truncate toward zero, `roundInt` rounds half-to-even.
 * - `toString` always prints 18 decimals (`0.334000000000000000`), as Go's `LegacyDec.String()`.
 * Division by zero is a caller bug (the reference panics); it throws RangeError here.
 */
export const DEC_PRECISION = 18;
const SCALE = 10n ** 18n;
const HALF_SCALE = SCALE / 2n;
const SCALE_SQUARED = SCALE * SCALE;
/** The reference rejects parsed decimals whose integer representation exceeds this many bits. */
const MAX_DEC_BIT_LEN = 256 + 60;

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** Go's chopPrecisionAndRound: divide by 10¹⁸, rounding half to even, symmetric around zero. */
function chopAndRound(x: bigint): bigint {
  if (x < 0n) return -chopAndRound(-x);
  const quo = x / SCALE;
  const rem = x % SCALE;
  if (rem === 0n) return quo;
  if (rem < HALF_SCALE) return quo;
  if (rem > HALF_SCALE) return quo + 1n;
  return quo % 2n === 0n ? quo : quo + 1n;
}

const bitLen = (x: bigint): number => (x === 0n ? 0 : abs(x).toString(2).length);

export class Dec {
  /** The value times 10¹⁸. */
  readonly raw: bigint;

  private constructor(raw: bigint) {
    this.raw = raw;
  }

  static readonly ZERO = new Dec(0n);
  static readonly ONE = new Dec(SCALE);

  static fromRaw(raw: bigint): Dec {
    return new Dec(raw);
  }
  /** `LegacyNewDecFromInt`: the integer as a decimal. */
  static fromInt(i: bigint): Dec {
    return new Dec(i * SCALE);
  }

  /**
   * `LegacyNewDecFromStr`: `[-]digits[.digits]` with at most 18 fractional digits. The error texts are the
   * reference's (`decimal string cannot be empty`, `invalid decimal length`, ...).
   */
  static parse(input: string): Result<Dec, string> {
    let s = input;
    let neg = false;
    if (s.length > 0 && s[0] === "-") {
      neg = true;
      s = s.slice(1);
    }
    if (s.length === 0) return err("decimal string cannot be empty");
    const parts = s.split(".");
    let lenDecs = 0;
    let combined = parts[0]!;
    if (parts.length === 2) {
      lenDecs = parts[1]!.length;
      if (lenDecs === 0 || combined.length === 0) return err("invalid decimal length");
      combined += parts[1]!;
    } else if (parts.length > 2) {
      return err("invalid decimal string");
    }
    if (lenDecs > DEC_PRECISION) {
      return err(
        `value '${s}' exceeds max precision by ${DEC_PRECISION - lenDecs} decimal places: max precision ${DEC_PRECISION}`,
      );
    }
    combined += "0".repeat(DEC_PRECISION - lenDecs);
    if (!/^[+-]?[0-9]+$/.test(combined)) return err(`failed to set decimal string with base 10: ${combined}`);
    let value = BigInt(combined);
    if (bitLen(value) > MAX_DEC_BIT_LEN) {
      return err(`decimal '${s}' out of range; bitLen: got ${bitLen(value)}, max ${MAX_DEC_BIT_LEN}`);
    }
    if (neg) value = -value;
    return ok(new Dec(value));
  }

  add(o: Dec): Dec {
    return new Dec(this.raw + o.raw);
  }
  sub(o: Dec): Dec {
    return new Dec(this.raw - o.raw);
  }
  neg(): Dec {
    return new Dec(-this.raw);
  }
  /** Product rounded half-to-even to 18 decimals. */
  mul(o: Dec): Dec {
    return new Dec(chopAndRound(this.raw * o.raw));
  }
  /** Exact product with an integer. */
  mulInt(i: bigint): Dec {
    return new Dec(this.raw * i);
  }
  /** Quotient: `trunc(a·10³⁶ / b)` rounded half-to-even to 18 decimals. Throws RangeError when `o` is zero. */
  quo(o: Dec): Dec {
    if (o.raw === 0n) throw new RangeError("division by zero");
    return new Dec(chopAndRound((this.raw * SCALE_SQUARED) / o.raw));
  }
  /** Quotient by an integer, truncated. Throws RangeError when `i` is zero. */
  quoInt(i: bigint): Dec {
    if (i === 0n) throw new RangeError("division by zero");
    return new Dec(this.raw / i);
  }
  /** Integer part, truncated toward zero. */
  truncateInt(): bigint {
    return this.raw / SCALE;
  }
  /** Nearest integer, ties to even. */
  roundInt(): bigint {
    return chopAndRound(this.raw);
  }

  cmp(o: Dec): -1 | 0 | 1 {
    return this.raw < o.raw ? -1 : this.raw > o.raw ? 1 : 0;
  }
  eq(o: Dec): boolean {
    return this.raw === o.raw;
  }
  lt(o: Dec): boolean {
    return this.raw < o.raw;
  }
  lte(o: Dec): boolean {
    return this.raw <= o.raw;
  }
  gt(o: Dec): boolean {
    return this.raw > o.raw;
  }
  gte(o: Dec): boolean {
    return this.raw >= o.raw;
  }
  isZero(): boolean {
    return this.raw === 0n;
  }
  isNegative(): boolean {
    return this.raw < 0n;
  }
  isPositive(): boolean {
    return this.raw > 0n;
  }

  /** Go `LegacyDec.String()`: always 18 fractional digits, `-` prefix when negative. */
  toString(): string {
    const digits = abs(this.raw).toString();
    const sign = this.raw < 0n ? "-" : "";
    if (digits.length <= DEC_PRECISION) return `${sign}0.${digits.padStart(DEC_PRECISION, "0")}`;
    const point = digits.length - DEC_PRECISION;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
}

/** Parses a decimal literal known to be valid (constants in code); throws on a programming error. */
export function dec(literal: string): Dec {
  const r = Dec.parse(literal);
  if (!r.ok) throw new Error(`invalid decimal literal ${literal}: ${r.error}`);
  return r.value;
}
