import { canonicalKey, firstHeader, hasHeader, type RawHeaders } from "./headers.js";

/**
 * gorilla/handlers `CORS(AllowedHeaders(["Content-Type"]))` as the reference wraps its router when
 * `enabled-unsafe-cors = true` (docs/node-api.md §4). Any origin is allowed; allowed methods are GET, HEAD, POST.
 */
export type CorsDecision =
  /** Continue to the router, adding these headers to whatever it answers. */
  | { readonly kind: "pass"; readonly headers: readonly (readonly [string, string])[] }
  /** Answer now with an empty body. */
  | { readonly kind: "respond"; readonly status: number; readonly headers: readonly (readonly [string, string])[] };

const DEFAULT_HEADERS = new Set(["Accept", "Accept-Language", "Content-Language", "Origin"]);
const ALLOWED_HEADERS = new Set([...DEFAULT_HEADERS, "Content-Type"]);
const ALLOWED_METHODS = new Set(["GET", "HEAD", "POST"]);
const ALLOW_ORIGIN = "Access-Control-Allow-Origin";

export function corsDecision(method: string, raw: RawHeaders): CorsDecision {
  const origin = firstHeader(raw, "origin");
  if (origin === "") {
    // No origin: a non-OPTIONS request passes untouched; an OPTIONS one is answered with nothing written (Go: 200).
    return method === "OPTIONS" ? { kind: "respond", status: 200, headers: [] } : { kind: "pass", headers: [] };
  }
  if (method !== "OPTIONS") return { kind: "pass", headers: [[ALLOW_ORIGIN, "*"]] };
  if (!hasHeader(raw, "access-control-request-method")) return { kind: "respond", status: 400, headers: [] };
  if (!ALLOWED_METHODS.has(firstHeader(raw, "access-control-request-method"))) {
    return { kind: "respond", status: 405, headers: [] };
  }
  const allowed: string[] = [];
  for (const entry of firstHeader(raw, "access-control-request-headers").split(",")) {
    const h = canonicalKey(entry.trim());
    if (h === "" || DEFAULT_HEADERS.has(h)) continue;
    if (!ALLOWED_HEADERS.has(h)) return { kind: "respond", status: 403, headers: [] };
    allowed.push(h);
  }
  const headers: [string, string][] = [];
  if (allowed.length > 0) headers.push(["Access-Control-Allow-Headers", allowed.join(",")]);
  headers.push([ALLOW_ORIGIN, "*"]);
  return { kind: "respond", status: 200, headers };
}
