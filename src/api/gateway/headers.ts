import { Code } from "@connectrpc/connect";
import { err, ok, type Result } from "../../core/errors.js";
import { decodeBinHeader } from "../../core/go/base64.js";
import { parseGoInt } from "../../core/go/strconv.js";
import { text } from "../../core/go/url.js";
import { GRPC_METADATA_HEIGHT_HEADER, HEIGHT_HEADER } from "../height.js";
import type { Status } from "../status.js";

/**
 * Request headers as node delivers them (`rawHeaders`: name, value, name, value, ...; values latin1), read the way
 * the reference reads its Go `http.Header`: `Get` is the first value, names are case-insensitive, and what the gateway
 * forwards to gRPC follows grpc-gateway v1.16 `AnnotateContext` and the SDK's header matcher.
 */
export type RawHeaders = readonly string[];

/** Go `http.Header.Get`: the first value of a header, or "" when absent. */
export function firstHeader(raw: RawHeaders, name: string): string {
  const lower = name.toLowerCase();
  for (let i = 0; i + 1 < raw.length; i += 2) if (sameName(raw[i]!, lower)) return raw[i + 1]!;
  return "";
}

/** Whether header name `n` is `lower` (already lower case) ignoring case; the length check spares most lower-casing. */
const sameName = (n: string, lower: string): boolean => n.length === lower.length && n.toLowerCase() === lower;

/** True when the header occurs at all (Go `r.Header[name]` present), even with an empty value. */
export function hasHeader(raw: RawHeaders, name: string): boolean {
  const lower = name.toLowerCase();
  for (let i = 0; i < raw.length; i += 2) if (sameName(raw[i]!, lower)) return true;
  return false;
}

/** Every value of the height metadata key, from `x-chain-block-height` and `Grpc-Metadata-X-Chain-Block-Height`. */
export function heightValues(raw: RawHeaders, header = HEIGHT_HEADER): string[] {
  const out: string[] = [];
  const metadata = header === HEIGHT_HEADER ? GRPC_METADATA_HEIGHT_HEADER : `grpc-metadata-${header}`;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const n = raw[i]!;
    if (sameName(n, header) || sameName(n, metadata)) out.push(raw[i + 1]!);
  }
  return out;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Header names seen so far with their canonical form: a client sends the same few names on every request. */
const canonicalKeys = new Map<string, string>();
const CANONICAL_KEYS_MAX = 1024;

/** Go `textproto.CanonicalMIMEHeaderKey` (memoised for the first CANONICAL_KEYS_MAX names). */
export function canonicalKey(name: string): string {
  const known = canonicalKeys.get(name);
  if (known !== undefined) return known;
  const key = computeCanonicalKey(name);
  if (canonicalKeys.size < CANONICAL_KEYS_MAX) canonicalKeys.set(name, key);
  return key;
}

function computeCanonicalKey(name: string): string {
  if (!TOKEN.test(name)) return name;
  let upper = true;
  let out = "";
  for (const c of name) {
    out += upper ? c.toUpperCase() : c.toLowerCase();
    upper = c === "-";
  }
  return out;
}

const PERMANENT = new Set([
  "Accept",
  "Accept-Charset",
  "Accept-Language",
  "Accept-Ranges",
  "Authorization",
  "Cache-Control",
  "Content-Type",
  "Cookie",
  "Date",
  "Expect",
  "From",
  "Host",
  "If-Match",
  "If-Modified-Since",
  "If-None-Match",
  "If-Schedule-Tag-Match",
  "If-Unmodified-Since",
  "Max-Forwards",
  "Origin",
  "Pragma",
  "Referer",
  "User-Agent",
  "Via",
  "Warning",
]);

const METADATA_PREFIX = "Grpc-Metadata-";

/** The SDK's CustomGRPCHeaderMatcher over grpc-gateway's DefaultHeaderMatcher. */
function matchIncoming(key: string, header: string): string | undefined {
  if (sameName(key, header)) return header;
  if (PERMANENT.has(key)) return `grpcgateway-${key}`;
  if (key.startsWith(METADATA_PREFIX)) return key.slice(METADATA_PREFIX.length);
  return undefined;
}

/** Request headers outside the forwarded metadata that the gateway's answer reads. */
const READ_HEADERS = new Set([
  "Host",
  "X-Forwarded-Host",
  "Authorization",
  "Grpc-Timeout",
  "Origin",
  "X-Http-Method-Override",
  "Content-Type",
  "Access-Control-Request-Method",
  "Access-Control-Request-Headers",
]);

/**
 * The headers a gateway answer can depend on, in request order, as one string: the height header, every header
 * forwarded as gRPC metadata (and so validated), and the ones the pipeline reads itself (READ_HEADERS). Two
 * requests with the same method, target and answer headers get the same answer at the same retained window; any
 * other header (a padding header, a tracing id) is ignored.
 */
export function answerHeadersKey(raw: RawHeaders, header = HEIGHT_HEADER): string {
  let out = "";
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = canonicalKey(raw[i]!);
    if (READ_HEADERS.has(key) || matchIncoming(key, header) !== undefined) out += `${key}\u0000${raw[i + 1]!}\u0000`;
  }
  return out;
}

/** A forwarded metadata pair; `binary` values (keys ending `-bin`) are decoded and not validated. */
export interface MetadataPair {
  readonly key: string;
  readonly value: string;
}

/**
 * The gRPC metadata the gateway would send for these headers (AnnotateContext): `Authorization` as `authorization`,
 * matched headers under their metadata key (lower-cased), `-Bin` headers base64-decoded (failure: InvalidArgument
 * `invalid binary header <Key>: <err>`), then `x-forwarded-host`. Go reads a header map in random order; here the
 * first failing header in request order decides.
 */
export function forwardedMetadata(raw: RawHeaders, header = HEIGHT_HEADER): Result<MetadataPair[], Status> {
  const pairs: MetadataPair[] = [];
  let host = "";
  let forwardedHost = "";
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = canonicalKey(raw[i]!);
    let value = raw[i + 1]!;
    if (key === "Host") {
      if (host === "") host = value;
      continue;
    }
    if (key === "X-Forwarded-Host" && forwardedHost === "") forwardedHost = value;
    if (key === "Authorization") pairs.push({ key: "authorization", value });
    const h = matchIncoming(key, header);
    if (h === undefined) continue;
    if (key.endsWith("-Bin")) {
      const b = decodeBinHeader(value);
      if (!b.ok) return err({ code: Code.InvalidArgument, message: `invalid binary header ${key}: ${b.error}` });
      value = Buffer.from(b.value).toString("latin1");
    }
    pairs.push({ key: h.toLowerCase(), value });
  }
  const fh = forwardedHost !== "" ? forwardedHost : host;
  if (fh !== "") pairs.push({ key: "x-forwarded-host", value: fh });
  return ok(pairs);
}

const LEGAL_KEY = /^[0-9a-z\-_.]+$/;
/** Keys found legal so far (a client sends the same few on every request), at most LEGAL_KEYS_MAX. */
const legalKeys = new Set<string>();
const LEGAL_KEYS_MAX = 1024;

function isLegalKey(key: string): boolean {
  if (legalKeys.has(key)) return true;
  if (!LEGAL_KEY.test(key)) return false;
  if (legalKeys.size < LEGAL_KEYS_MAX) legalKeys.add(key);
  return true;
}

/**
 * grpc-go's client-side metadata validation (internal/metadata ValidatePair), a status Internal on failure: keys in
 * [0-9a-z-_.], values printable ASCII unless the key ends `-bin`.
 */
export function validateMetadata(pairs: readonly MetadataPair[]): Status | undefined {
  for (const { key, value } of pairs) {
    if (key === "") return { code: Code.Internal, message: "there is an empty key in the header" };
    if (key.startsWith(":")) continue;
    if (!isLegalKey(key)) {
      return {
        code: Code.Internal,
        message: `header key ${JSON.stringify(key)} contains illegal characters not in [0-9a-z-_.]`,
      };
    }
    if (key.endsWith("-bin")) continue;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c < 0x20 || c > 0x7e) {
        return {
          code: Code.Internal,
          message: `header key ${JSON.stringify(key)} contains value with non-printable ASCII characters`,
        };
      }
    }
  }
  return undefined;
}

const UNIT_NS: Readonly<Record<string, bigint>> = {
  H: 3_600_000_000_000n,
  M: 60_000_000_000n,
  S: 1_000_000_000n,
  m: 1_000_000n,
  u: 1_000n,
  n: 1n,
};

/** What a `Grpc-Timeout` request header means for the gateway's call. */
export type Deadline = "none" | "future" | "expired";

/**
 * grpc-gateway `timeoutDecode` of the first `Grpc-Timeout` value: `<int64><unit>`; a bad value is InvalidArgument
 * `invalid grpc-timeout: <value>`. Zero means no deadline; a negative product (int64 wrap-around included) is a
 * deadline already passed (the call then fails with DeadlineExceeded `context deadline exceeded`).
 */
export function parseGrpcTimeout(raw: RawHeaders): Result<Deadline, Status> {
  const tm = firstHeader(raw, "grpc-timeout");
  if (tm === "") return ok("none");
  const bad = err({ code: Code.InvalidArgument, message: `invalid grpc-timeout: ${text(tm)}` });
  if (tm.length < 2) return bad;
  const unit = UNIT_NS[tm[tm.length - 1]!];
  if (unit === undefined) return bad;
  const t = parseGoInt(tm.slice(0, -1), 10, 64);
  if (!t.ok) return bad;
  const d = BigInt.asIntN(64, unit * t.value);
  return ok(d === 0n ? "none" : d < 0n ? "expired" : "future");
}
