import { err, ok, type PlainError, plain, type Result } from "../errors.js";
import { quote } from "./strconv.js";

/**
 * The parts of Go's `encoding/json` that `upgrade-info.json` exposes: the string encoder (with HTML escaping, as
 * `json.Marshal` does) and a validating parser whose syntax-error texts are those of Go's scanner
 * (`invalid character 'x' looking for beginning of value`, `unexpected end of JSON input`, ...). Parsing works on the
 * UTF-8 bytes, as Go does, so the offending character in an error is the first byte of a multi-byte character.
 */

const HEX = "0123456789abcdef";

/** Go `json.Marshal` of a string (Go ≥ 1.22: `\b` and `\f` short escapes; `<`, `>`, `&`, U+2028, U+2029 escaped). */
export function goJsonQuote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
      } else {
        out += "\\ufffd"; // invalid UTF-16 (Go: invalid UTF-8) becomes U+FFFD, escaped
      }
      continue;
    }
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += "\\\\";
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
      case 0x3c:
      case 0x3e:
      case 0x26:
        out += `\\u00${HEX[c >> 4]}${HEX[c & 0xf]}`;
        break;
      case 0x2028:
        out += "\\u2028";
        break;
      case 0x2029:
        out += "\\u2029";
        break;
      default:
        out += c < 0x20 ? `\\u00${HEX[c >> 4]}${HEX[c & 0xf]}` : s[i]!;
    }
  }
  return `${out}"`;
}

/**
 * Go's `quoteChar`: `'` and `"` as themselves between single quotes, any other byte as the rune of that value quoted
 * by `strconv.Quote` (strconv.ts `quote`) with single quotes in place of the double ones.
 */
export function goQuoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  return `'${quote(String.fromCharCode(c)).slice(1, -1)}'`;
}

/** A parsed JSON value with its raw byte range `[start, end)` in the input (what a Go Unmarshaler receives). */
export type GoJsonNode =
  | { readonly kind: "object"; readonly entries: readonly GoJsonEntry[]; readonly start: number; readonly end: number }
  | { readonly kind: "array"; readonly start: number; readonly end: number }
  | { readonly kind: "string"; readonly value: string; readonly start: number; readonly end: number }
  | { readonly kind: "number"; readonly text: string; readonly start: number; readonly end: number }
  | { readonly kind: "bool"; readonly value: boolean; readonly start: number; readonly end: number }
  | { readonly kind: "null"; readonly start: number; readonly end: number };

export interface GoJsonEntry {
  readonly key: string;
  readonly value: GoJsonNode;
}

/** Go's name for a JSON value kind in `UnmarshalTypeError` (`cannot unmarshal <kind> into ...`). */
export const goKindName = (n: GoJsonNode): string => (n.kind === "null" ? "null" : n.kind);

class SyntaxFailure {
  constructor(readonly message: string) {}
}

const isWs = (c: number | undefined) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
const isHex = (c: number | undefined) =>
  c !== undefined && (isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46));

const MAX_NESTING_DEPTH = 10000;

const textDecoder = new TextDecoder("utf-8", { fatal: false });

/** Parser over UTF-8 bytes. Errors are thrown internally as SyntaxFailure and caught by `parseGoJson`. */
class Parser {
  pos = 0;
  depth = 0;
  constructor(readonly b: Uint8Array) {}

  fail(message: string): never {
    throw new SyntaxFailure(message);
  }
  /** Go's scanner feeds a space at EOF: states that reject a space report it; the others end the input early. */
  invalid(c: number | undefined, context: string): never {
    return this.fail(`invalid character ${goQuoteChar(c ?? 0x20)} ${context}`);
  }
  eofOr(c: number | undefined, context: string): never {
    if (c === undefined) this.fail("unexpected end of JSON input");
    return this.invalid(c, context);
  }
  skipWs(): void {
    while (isWs(this.b[this.pos])) this.pos++;
  }

  /** Go refuses nesting deeper than 10000 (`maxNestingDepth`). */
  enter(): void {
    if (++this.depth > MAX_NESTING_DEPTH) this.invalid(this.b[this.pos], "exceeded max depth");
  }

  /** A scalar at the current position (after whitespace), or undefined at `{` / `[`. */
  scalar(): GoJsonNode | undefined {
    const c = this.b[this.pos];
    const start = this.pos;
    switch (c) {
      case 0x7b:
      case 0x5b:
        return undefined;
      case 0x22: {
        const value = this.string();
        return { kind: "string", value, start, end: this.pos };
      }
      case 0x74:
        this.literal("true");
        return { kind: "bool", value: true, start, end: this.pos };
      case 0x66:
        this.literal("false");
        return { kind: "bool", value: false, start, end: this.pos };
      case 0x6e:
        this.literal("null");
        return { kind: "null", start, end: this.pos };
      default:
        if (c === 0x2d || isDigit(c)) return this.number();
        return this.eofOr(c, "looking for beginning of value");
    }
  }

  /** Reads `"key" :` inside an object (whitespace allowed around). */
  objectKey(): string {
    this.skipWs();
    const c = this.b[this.pos];
    if (c !== 0x22) this.eofOr(c, "looking for beginning of object key string");
    const key = this.string();
    this.skipWs();
    const colon = this.b[this.pos];
    if (colon !== 0x3a) this.eofOr(colon, "after object key");
    this.pos++;
    return key;
  }

  /** One value, iteratively (an explicit stack, so deep nesting cannot overflow the call stack). */
  value(): GoJsonNode {
    type Frame =
      | { kind: "object"; start: number; entries: GoJsonEntry[]; key: string }
      | { kind: "array"; start: number };
    const stack: Frame[] = [];
    for (;;) {
      // Begin a value.
      this.skipWs();
      let node = this.scalar();
      if (node === undefined) {
        const start = this.pos;
        this.enter();
        const isObject = this.b[this.pos] === 0x7b;
        this.pos++;
        this.skipWs();
        if (isObject && this.b[this.pos] === 0x7d) {
          this.pos++;
          this.depth--;
          node = { kind: "object", entries: [], start, end: this.pos };
        } else if (!isObject && this.b[this.pos] === 0x5d) {
          this.pos++;
          this.depth--;
          node = { kind: "array", start, end: this.pos };
        } else {
          stack.push(
            isObject ? { kind: "object", start, entries: [], key: this.objectKey() } : { kind: "array", start },
          );
          continue;
        }
      }
      // A value is complete: hand it to the enclosing container, closing containers as they end.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return node;
        if (top.kind === "object") top.entries.push({ key: top.key, value: node });
        this.skipWs();
        const next = this.b[this.pos];
        if (next === 0x2c) {
          this.pos++;
          if (top.kind === "object") top.key = this.objectKey();
          break;
        }
        const close = top.kind === "object" ? 0x7d : 0x5d;
        if (next !== close) {
          this.eofOr(next, top.kind === "object" ? "after object key:value pair" : "after array element");
        }
        this.pos++;
        this.depth--;
        stack.pop();
        node =
          top.kind === "object"
            ? { kind: "object", entries: top.entries, start: top.start, end: this.pos }
            : { kind: "array", start: top.start, end: this.pos };
      }
    }
  }

  /** Reads a string literal starting at the opening quote; returns its value decoded as Go's `unquote` does. */
  string(): string {
    this.pos++; // "
    let out = "";
    let runStart = this.pos;
    const flush = () => {
      out += textDecoder.decode(this.b.subarray(runStart, this.pos));
    };
    for (;;) {
      const c = this.b[this.pos];
      if (c === undefined) this.fail("unexpected end of JSON input");
      if (c === 0x22) {
        flush();
        this.pos++;
        return out;
      }
      if (c < 0x20) this.invalid(c, "in string literal");
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      flush();
      this.pos++;
      const e = this.b[this.pos];
      const simple: Record<number, string> = {
        98: "\b",
        102: "\f",
        110: "\n",
        114: "\r",
        116: "\t",
        34: '"',
        92: "\\",
        47: "/",
      };
      if (e !== undefined && simple[e] !== undefined) {
        out += simple[e];
        this.pos++;
      } else if (e === 0x75) {
        this.pos++;
        const unit = this.hex4();
        if (unit >= 0xd800 && unit < 0xe000) {
          // A surrogate: valid only as a high surrogate followed by an escaped low surrogate; else U+FFFD.
          const save = this.pos;
          if (unit < 0xdc00 && this.b[this.pos] === 0x5c && this.b[this.pos + 1] === 0x75) {
            this.pos += 2;
            const low = this.hex4();
            if (low >= 0xdc00 && low < 0xe000) {
              out += String.fromCharCode(unit, low);
            } else {
              out += "\ufffd";
              this.pos = save; // the second escape is decoded on its own
            }
          } else {
            out += "\ufffd";
          }
        } else {
          out += String.fromCharCode(unit);
        }
      } else {
        this.invalid(e, "in string escape code");
      }
      runStart = this.pos;
    }
  }

  hex4(): number {
    let v = 0;
    for (let i = 0; i < 4; i++) {
      const h = this.b[this.pos];
      if (!isHex(h)) this.invalid(h, "in \\u hexadecimal character escape");
      v = v * 16 + Number.parseInt(String.fromCharCode(h!), 16);
      this.pos++;
    }
    return v;
  }

  literal(word: "true" | "false" | "null"): void {
    this.pos++;
    for (let i = 1; i < word.length; i++) {
      const c = this.b[this.pos];
      if (c !== word.charCodeAt(i))
        this.invalid(c, `in literal ${word} (expecting ${goQuoteChar(word.charCodeAt(i))})`);
      this.pos++;
    }
  }

  number(): GoJsonNode {
    const start = this.pos;
    if (this.b[this.pos] === 0x2d) {
      this.pos++;
      if (!isDigit(this.b[this.pos])) this.invalid(this.b[this.pos], "in numeric literal");
    }
    if (this.b[this.pos] === 0x30) this.pos++;
    else while (isDigit(this.b[this.pos])) this.pos++;
    if (this.b[this.pos] === 0x2e) {
      this.pos++;
      if (!isDigit(this.b[this.pos])) this.invalid(this.b[this.pos], "in numeric literal");
      while (isDigit(this.b[this.pos])) this.pos++;
    }
    const e = this.b[this.pos];
    if (e === 0x65 || e === 0x45) {
      this.pos++;
      const s = this.b[this.pos];
      if (s === 0x2b || s === 0x2d) this.pos++;
      if (!isDigit(this.b[this.pos])) this.invalid(this.b[this.pos], "in numeric literal");
      while (isDigit(this.b[this.pos])) this.pos++;
    }
    const text = textDecoder.decode(this.b.subarray(start, this.pos));
    return { kind: "number", text, start, end: this.pos };
  }

  document(): GoJsonNode {
    const v = this.value();
    this.skipWs();
    const c = this.b[this.pos];
    if (c !== undefined) this.invalid(c, "after top-level value");
    return v;
  }
}

/** Validates and parses a JSON document the way Go's `json.Unmarshal` checks it first (`checkValid`). */
export function parseGoJson(bytes: Uint8Array): Result<GoJsonNode, PlainError> {
  try {
    return ok(new Parser(bytes).document());
  } catch (e) {
    if (e instanceof SyntaxFailure) return err(plain(e.message));
    throw e;
  }
}

/**
 * Go's case-insensitive field-name fold (`appendFoldedName`): ASCII letters upper-cased; other characters mapped by
 * `ToUpper(ToLower(r))`. Only the characters whose fold is ASCII matter for ASCII field names: K (Kelvin sign) → K,
 * ſ (long s) → S, İ and ı → I; every other non-ASCII character stays non-ASCII and can never match.
 */
export function goFoldName(name: string): string {
  let out = "";
  for (const ch of name) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out += ch.toUpperCase();
    else if (cp === 0x212a) out += "K";
    else if (cp === 0x17f) out += "S";
    else if (cp === 0x130 || cp === 0x131) out += "I";
    else out += ch;
  }
  return out;
}
