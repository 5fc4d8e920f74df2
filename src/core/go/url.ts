import { fromUtf8 } from "../bytes.js";
import { err, ok, type Result } from "../errors.js";
import { clean } from "./filepath.js";
import { latin1Bytes, quoteLatin1 } from "./strconv.js";

/**
 * Go net/url and path behaviour for the REST gateway. Go strings are bytes; here a "byte string" is a JS string with
 * one char per byte (latin1), which is how node delivers request targets and header values. `text()` turns a byte
 * string into Unicode text (UTF-8, invalid sequences become U+FFFD).
 */

export type ByteString = string;

/** Unicode text of a byte string (UTF-8 decoding). */
export function text(b: ByteString): string {
  // ASCII bytes are their own text (the common case: path parameters, header values).
  for (let i = 0; i < b.length; i++) if (b.charCodeAt(i) >= 0x80) return fromUtf8(latin1Bytes(b));
  return b;
}

const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/**
 * Go `url.unescape` in path or query-component mode: `%XX` decodes, a malformed escape fails with
 * `invalid URL escape "%zz"` (at most 3 bytes quoted); in query mode `+` is a space.
 */
export function urlUnescape(s: ByteString, mode: "path" | "query"): Result<ByteString, string> {
  // Nothing to decode (the common path and query): the string itself, not a copy built a character at a time.
  if (!s.includes("%") && (mode === "path" || !s.includes("+"))) return ok(s);
  let out = "";
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === "%") {
      if (!isHex(s[i + 1]) || !isHex(s[i + 2])) return err(`invalid URL escape ${quoteLatin1(s.slice(i, i + 3))}`);
      out += String.fromCharCode(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      out += c === "+" && mode === "query" ? " " : c;
      i++;
    }
  }
  return ok(out);
}

/** Parsed query values in first-seen key order; keys and values are decoded byte strings. */
export type QueryValues = ReadonlyMap<string, readonly string[]>;

/**
 * Go `url.ParseQuery`: pairs split on `&`; a pair containing `;` fails with `invalid semicolon separator in query`
 * (that error replaces an earlier one); a malformed escape keeps the first error; bad pairs are skipped, the rest is
 * still parsed.
 */
export function parseQuery(query: ByteString): { values: QueryValues; error: string | undefined } {
  const values = new Map<string, string[]>();
  let error: string | undefined;
  for (const pair of query.split("&")) {
    if (pair.includes(";")) {
      error = "invalid semicolon separator in query";
      continue;
    }
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const k = urlUnescape(eq < 0 ? pair : pair.slice(0, eq), "query");
    if (!k.ok) {
      error ??= k.error;
      continue;
    }
    const v = urlUnescape(eq < 0 ? "" : pair.slice(eq + 1), "query");
    if (!v.ok) {
      error ??= v.error;
      continue;
    }
    const list = values.get(k.value);
    if (list === undefined) values.set(k.value, [v.value]);
    else list.push(v.value);
  }
  return { values, error };
}

/** The parts of a request target Go's `url.ParseRequestURI` yields that the server uses. */
export interface RequestTarget {
  /** Decoded path (byte string). */
  readonly path: ByteString;
  readonly rawQuery: ByteString;
  /** The target ended with a lone `?` (Go ForceQuery). */
  readonly forceQuery: boolean;
  /** `scheme://authority` of an absolute-form target, else "". */
  readonly origin: string;
}

/**
 * Go `url.ParseRequestURI` for the targets node accepts: `*`, origin form `/path?query` and absolute form
 * `scheme://authority/path?query`. Failures (bad path escapes, a relative target) make the Go server answer
 * `400 Bad Request` before any handler runs.
 */
export function parseRequestTarget(raw: ByteString): Result<RequestTarget, void> {
  if (raw === "*") return ok({ path: "*", rawQuery: "", forceQuery: false, origin: "" });
  let rest = raw;
  let origin = "";
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(raw);
  if (scheme !== null) {
    rest = raw.slice(scheme[0].length);
    origin = scheme[1]!.toLowerCase() + ":";
  }
  let rawQuery = "";
  let forceQuery = false;
  const q = rest.indexOf("?");
  if (q >= 0) {
    if (q === rest.length - 1) forceQuery = true;
    else rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith("/")) {
    if (scheme !== null) return ok({ path: "", rawQuery, forceQuery, origin: origin + rest });
    return err(undefined);
  }
  if (scheme !== null && rest.startsWith("//")) {
    const slash = rest.indexOf("/", 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    origin += `//${authority}`;
    rest = slash < 0 ? "" : rest.slice(slash);
  }
  const path = urlUnescape(rest, "path");
  if (!path.ok) return err(undefined);
  return ok({ path: path.value, rawQuery, forceQuery, origin });
}

/** An empty, "." or ".." path segment (a trailing slash aside): cleanPath would change the path. */
const NOT_CLEAN = /\/\/|\/\.\.?(\/|$)/;

/** gorilla/mux `cleanPath`: path.Clean on a rooted path, keeping a trailing slash. */
export function cleanPath(p: ByteString): ByteString {
  if (p === "") return "/";
  // Already clean (rooted; no empty, "." or ".." segment but a trailing slash, which cleanPath keeps): itself.
  // Without "//" or "/." NOT_CLEAN cannot match; two substring searches are cheaper than the regex on long paths.
  if (p.charCodeAt(0) === 0x2f && ((!p.includes("//") && !p.includes("/.")) || !NOT_CLEAN.test(p))) return p;
  const rooted = p.startsWith("/") ? p : `/${p}`;
  let np = clean(rooted);
  if (rooted.endsWith("/") && np !== "/") np += "/";
  return np;
}

const PATH_SAFE = /^[A-Za-z0-9\-_.~$&+,/:;=@]$/;

/** Go `url.escape(s, encodePath)`: everything but unreserved and `$&+,/:;=@` becomes `%XX` (upper-case hex). */
export function escapePath(p: ByteString): string {
  let out = "";
  for (const c of p) {
    out += PATH_SAFE.test(c) ? c : `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
