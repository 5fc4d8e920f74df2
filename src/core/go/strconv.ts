import { utf8 } from "../bytes.js";
import { err, ok, type Result } from "../errors.js";

/**
 * Go strconv behaviour the REST gateway reproduces: ParseInt/ParseUint (any base, base 0 with prefixes and `_`
 * separators), ParseBool, and Quote (`%q`). Error texts are Go's `*NumError` texts, e.g.
 * `strconv.ParseInt: parsing "abc": invalid syntax`.
 *
 * Inputs are JS strings; `quote` renders the text's UTF-8 bytes. Header values arrive from node as latin1 (one char
 * per byte): pass them through `quoteLatin1` so that their raw bytes are quoted as Go sees them.
 */

export type NumErrorKind = "invalid syntax" | "value out of range";

/** Go `*strconv.NumError`; `text` is its `Error()`. */
export interface NumError {
  readonly func: string;
  readonly num: string;
  readonly kind: NumErrorKind;
  readonly text: string;
}

export type Quoter = (s: string) => string;

const numError = (func: string, num: string, kind: NumErrorKind, q: Quoter): NumError => ({
  func,
  num,
  kind,
  text: `strconv.${func}: parsing ${q(num)}: ${kind}`,
});

const lower = (c: string): string => (c >= "A" && c <= "Z" ? c.toLowerCase() : c);

/** Go `underscoreOK`: underscores only between digits, or between a base prefix and a digit. */
function underscoreOK(s0: string): boolean {
  let s = s0;
  let saw = "^";
  let i = 0;
  if (s.length >= 1 && (s[0] === "-" || s[0] === "+")) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === "0" && "box".includes(lower(s[1]!))) {
    i = 2;
    saw = "0";
    hex = lower(s[1]!) === "x";
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= "0" && c <= "9") || (hex && lower(c) >= "a" && lower(c) <= "f")) {
      saw = "0";
      continue;
    }
    if (c === "_") {
      if (saw !== "0") return false;
      saw = "_";
      continue;
    }
    if (saw === "_") return false;
    saw = "!";
  }
  return saw !== "_";
}

/** Go `strconv.ParseUint(s, base, bitSize)` for base 0 or 2..36. */
export function parseGoUint(s: string, base: number, bitSize: number, q: Quoter = quote): Result<bigint, NumError> {
  const fn = "ParseUint";
  if (s === "") return err(numError(fn, s, "invalid syntax", q));
  const base0 = base === 0;
  let digits = s;
  let b = base;
  if (base0) {
    b = 10;
    if (s[0] === "0") {
      const p = s.length >= 3 ? lower(s[1]!) : "";
      if (p === "b" || p === "o" || p === "x") {
        b = p === "b" ? 2 : p === "o" ? 8 : 16;
        digits = s.slice(2);
      } else {
        b = 8;
        digits = s.slice(1);
      }
    }
  }
  const maxVal = (1n << BigInt(bitSize)) - 1n;
  const bigBase = BigInt(b);
  let underscores = false;
  let n = 0n;
  for (const c of digits) {
    let d: number;
    const lc = lower(c);
    if (c === "_" && base0) {
      underscores = true;
      continue;
    } else if (c >= "0" && c <= "9") d = c.charCodeAt(0) - 48;
    else if (lc >= "a" && lc <= "z" && lc.length === 1) d = lc.charCodeAt(0) - 87;
    else return err(numError(fn, s, "invalid syntax", q));
    if (d >= b) return err(numError(fn, s, "invalid syntax", q));
    n = n * bigBase + BigInt(d);
    if (n > maxVal) return err(numError(fn, s, "value out of range", q));
  }
  if (underscores && !underscoreOK(s)) return err(numError(fn, s, "invalid syntax", q));
  return ok(n);
}

/** Go `strconv.ParseInt(s, base, bitSize)`: optional sign, then ParseUint rules; range is [-2^(bits-1), 2^(bits-1)). */
export function parseGoInt(s: string, base: number, bitSize: number, q: Quoter = quote): Result<bigint, NumError> {
  const fn = "ParseInt";
  if (s === "") return err(numError(fn, s, "invalid syntax", q));
  let neg = false;
  let rest = s;
  if (s[0] === "+") rest = s.slice(1);
  else if (s[0] === "-") {
    neg = true;
    rest = s.slice(1);
  }
  const un = parseGoUint(rest, base, bitSize, q);
  if (!un.ok && un.error.kind !== "value out of range") return err(numError(fn, s, "invalid syntax", q));
  const cutoff = 1n << BigInt(bitSize - 1);
  const v = un.ok ? un.value : (1n << BigInt(bitSize)) - 1n;
  if (!neg && v >= cutoff) return err(numError(fn, s, "value out of range", q));
  if (neg && v > cutoff) return err(numError(fn, s, "value out of range", q));
  return ok(neg ? -v : v);
}

const BOOL_TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const BOOL_FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/** Go `strconv.ParseBool`. */
export function parseGoBool(s: string, q: Quoter = quote): Result<boolean, NumError> {
  if (BOOL_TRUE.has(s)) return ok(true);
  if (BOOL_FALSE.has(s)) return ok(false);
  return err(numError("ParseBool", s, "invalid syntax", q));
}

// ---- Quote ---------------------------------------------------------------------------------------------------

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** Go `unicode.IsPrint` (letters, marks, numbers, punctuation, symbols and the ASCII space). */
const isPrint = (cp: number): boolean => cp === 0x20 || PRINTABLE.test(String.fromCodePoint(cp));

/** Decodes one rune like Go's utf8.DecodeRune: invalid input yields width 1 and `undefined`. */
function decodeRune(b: Uint8Array, i: number): { cp: number | undefined; width: number } {
  const b0 = b[i]!;
  if (b0 < 0x80) return { cp: b0, width: 1 };
  const need = b0 >= 0xc2 && b0 <= 0xdf ? 1 : b0 >= 0xe0 && b0 <= 0xef ? 2 : b0 >= 0xf0 && b0 <= 0xf4 ? 3 : 0;
  if (need === 0 || i + need >= b.length) return { cp: undefined, width: 1 };
  let lo = 0x80;
  let hi = 0xbf;
  if (b0 === 0xe0) lo = 0xa0;
  else if (b0 === 0xed) hi = 0x9f;
  else if (b0 === 0xf0) lo = 0x90;
  else if (b0 === 0xf4) hi = 0x8f;
  const b1 = b[i + 1]!;
  if (b1 < lo || b1 > hi) return { cp: undefined, width: 1 };
  let cp = b0 & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
  cp = (cp << 6) | (b1 & 0x3f);
  for (let k = 2; k <= need; k++) {
    const bk = b[i + k]!;
    if (bk < 0x80 || bk > 0xbf) return { cp: undefined, width: 1 };
    cp = (cp << 6) | (bk & 0x3f);
  }
  return { cp, width: need + 1 };
}

const hex2 = (n: number): string => n.toString(16).padStart(2, "0");

/** Go `strconv.Quote` over raw bytes. */
export function quoteBytes(b: Uint8Array): string {
  let out = '"';
  for (let i = 0; i < b.length; ) {
    const { cp, width } = decodeRune(b, i);
    i += width;
    if (cp === undefined) {
      out += `\\x${hex2(b[i - 1]!)}`;
      continue;
    }
    if (cp === 0x22 || cp === 0x5c) {
      out += `\\${String.fromCharCode(cp)}`;
      continue;
    }
    if (isPrint(cp)) {
      out += String.fromCodePoint(cp);
      continue;
    }
    switch (cp) {
      case 0x07:
        out += "\\a";
        break;
      case 0x08:
        out += "\\b";
        break;
      case 0x0c:
        out += "\\f";
        break;
      case 0x0a:
        out += "\\n";
        break;
      case 0x0d:
        out += "\\r";
        break;
      case 0x09:
        out += "\\t";
        break;
      case 0x0b:
        out += "\\v";
        break;
      default:
        if (cp < 0x20 || cp === 0x7f) out += `\\x${hex2(cp)}`;
        else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, "0")}`;
        else out += `\\U${cp.toString(16).padStart(8, "0")}`;
    }
  }
  return `${out}"`;
}

/** Go `strconv.Quote` of a text (its UTF-8 bytes). */
export const quote: Quoter = (s) => quoteBytes(utf8(s));

/** Bytes of a latin1 string (node's decoding of raw header bytes). */
export function latin1Bytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A surrogate: the string is read by code points (one byte per pair), as Uint8Array.from reads it.
    if (c >= 0xd800 && c <= 0xdfff) return Uint8Array.from(s, (x) => x.charCodeAt(0) & 0xff);
    out[i] = c & 0xff;
  }
  return out;
}

/** Go `strconv.Quote` of a header value as node delivers it (latin1: one char per raw byte). */
export const quoteLatin1: Quoter = (s) => quoteBytes(latin1Bytes(s));
