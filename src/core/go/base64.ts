import { base64nopad, base64urlnopad } from "@scure/base";
import { err, ok, type Result } from "../errors.js";

/**
 * Go encoding/base64 decoding with Go's error positions (`illegal base64 data at input byte N`), for the gateway's
 * bytes parameters (`runtime.Bytes`: standard then URL alphabet) and `-Bin` metadata headers (standard, padded when
 * the length is a multiple of 4, else raw). Input is a byte string.
 *
 * 1. `scan` walks the input as Go's `decodeQuantum` does: newlines (`\r`, `\n`) are skipped, padding (`=`) is
 *    checked where it may stand, and the first offending byte's offset is the error. What it keeps is the alphabet
 *    characters alone.
 * 2. The bytes come from @scure/base (its unpadded codec of the alphabet). Go's default encodings are not strict:
 *    the unused low bits of a final partial quantum may be set, and are dropped; @scure/base refuses them, so they
 *    are cleared first.
 */
export type Alphabet = "std" | "url";

const CHARS: Record<Alphabet, string> = {
  std: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
  url: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
};
const CODEC = { std: base64nopad, url: base64urlnopad } as const;

const corrupt = (at: number): Result<never, string> => err(`illegal base64 data at input byte ${at}`);

/** Go `Encoding.DecodeString` for the given alphabet, with (`padded`) or without padding. */
export function decodeBase64(src: string, alphabet: Alphabet, padded: boolean): Result<Uint8Array, string> {
  const chars = CHARS[alphabet];
  const kept = scan(src, chars, padded);
  return kept.ok ? ok(CODEC[alphabet].decode(clearUnusedBits(kept.value, chars))) : kept;
}

/** The alphabet characters of `src` in order, or Go's error at the first byte that is not where it may be. */
function scan(src: string, chars: string, padded: boolean): Result<string, string> {
  const n = src.length;
  const isNl = (i: number): boolean => src[i] === "\n" || src[i] === "\r";
  let kept = "";
  let si = 0;
  // Each pass reads one quantum of 4 characters; a bound of n + 1 passes (every pass but the last consumes input).
  for (let pass = 0; pass <= n; pass++) {
    for (let j = 0; j < 4; j++) {
      if (si === n) return j === 0 || (j > 1 && !padded) ? ok(kept) : corrupt(si - j);
      const ch = src[si]!;
      si++;
      if (chars.includes(ch)) {
        kept += ch;
        continue;
      }
      if (ch === "\n" || ch === "\r") {
        j--;
        continue;
      }
      if (!padded || ch !== "=" || j < 2) return corrupt(si - 1);
      // Padding: one `=` after 3 characters, two after 2; then only newlines may follow.
      if (j === 2) {
        while (si < n && isNl(si)) si++;
        if (si === n) return corrupt(n);
        if (src[si] !== "=") return corrupt(si - 1);
        si++;
      }
      while (si < n && isNl(si)) si++;
      return si < n ? corrupt(si) : ok(kept);
    }
  }
  return ok(kept);
}

/** The text with the bits a final partial quantum does not use set to zero (Go ignores them, @scure/base does not). */
function clearUnusedBits(text: string, chars: string): string {
  const rest = text.length % 4;
  if (rest < 2) return text;
  const last = chars.indexOf(text[text.length - 1]!);
  const mask = rest === 2 ? 0b110000 : 0b111100;
  return text.slice(0, -1) + chars[last & mask];
}

/** grpc-gateway `runtime.Bytes`: standard alphabet, then URL alphabet (whose error is reported). */
export function gatewayBytes(v: string): Result<Uint8Array, string> {
  const std = decodeBase64(v, "std", true);
  return std.ok ? std : decodeBase64(v, "url", true);
}

/** grpc-gateway `decodeBinHeader`: padded standard when the length is a multiple of 4, else raw standard. */
export const decodeBinHeader = (v: string): Result<Uint8Array, string> => decodeBase64(v, "std", v.length % 4 === 0);
