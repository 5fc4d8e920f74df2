import { err, ok, type Result } from "../errors.js";

/**
 * Go encoding/base64 decoding with Go's error positions (`illegal base64 data at input byte N`), for the gateway's
 * bytes parameters (`runtime.Bytes`: standard then URL alphabet) and `-Bin` metadata headers (standard, padded when
 * the length is a multiple of 4, else raw). Newlines (`\r`, `\n`) are skipped as Go does. Input is a byte string.
 */
export type Alphabet = "std" | "url";

const STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

const decodeMap = (alphabet: string): Int16Array => {
  const m = new Int16Array(256).fill(-1);
  for (let i = 0; i < alphabet.length; i++) m[alphabet.charCodeAt(i)] = i;
  return m;
};
const MAPS: Record<Alphabet, Int16Array> = { std: decodeMap(STD), url: decodeMap(URL) };

const corrupt = (at: number): Result<never, string> => err(`illegal base64 data at input byte ${at}`);

/** Go `Encoding.DecodeString` for the given alphabet, with (`padded`) or without padding. */
export function decodeBase64(src: string, alphabet: Alphabet, padded: boolean): Result<Uint8Array, string> {
  const map = MAPS[alphabet];
  const out: number[] = [];
  const n = src.length;
  const isNl = (i: number): boolean => src[i] === "\n" || src[i] === "\r";
  let si = 0;
  for (;;) {
    const buf = [0, 0, 0, 0];
    let dlen = 4;
    let trailingErr: number | undefined;
    let j = 0;
    for (; j < 4; j++) {
      if (si === n) {
        if (j === 0) return ok(Uint8Array.from(out));
        if (j === 1 || padded) return corrupt(si - j);
        dlen = j;
        break;
      }
      const code = src.charCodeAt(si);
      si++;
      const v = code < 256 ? map[code]! : -1;
      if (v >= 0) {
        buf[j] = v;
        continue;
      }
      if (code === 10 || code === 13) {
        j--;
        continue;
      }
      if (!padded || code !== 61 /* = */) return corrupt(si - 1);
      // Padding reached.
      if (j === 0 || j === 1) return corrupt(si - 1);
      if (j === 2) {
        while (si < n && isNl(si)) si++;
        if (si === n) return corrupt(n);
        if (src[si] !== "=") return corrupt(si - 1);
        si++;
      }
      while (si < n && isNl(si)) si++;
      if (si < n) trailingErr = si;
      dlen = j;
      break;
    }
    const val = (buf[0]! << 18) | (buf[1]! << 12) | (buf[2]! << 6) | buf[3]!;
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    out.push(...bytes.slice(0, dlen - 1));
    if (trailingErr !== undefined) return corrupt(trailingErr);
    if (dlen < 4) return ok(Uint8Array.from(out));
  }
}

/** grpc-gateway `runtime.Bytes`: standard alphabet, then URL alphabet (whose error is reported). */
export function gatewayBytes(v: string): Result<Uint8Array, string> {
  const std = decodeBase64(v, "std", true);
  return std.ok ? std : decodeBase64(v, "url", true);
}

/** grpc-gateway `decodeBinHeader`: padded standard when the length is a multiple of 4, else raw standard. */
export const decodeBinHeader = (v: string): Result<Uint8Array, string> => decodeBase64(v, "std", v.length % 4 === 0);
