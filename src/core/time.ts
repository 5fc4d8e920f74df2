import type { UnixMs } from "./brand.js";

/** RFC 3339 in UTC as Go prints a time.Time: fractional seconds only when non-zero, trailing zeros trimmed. */
export function formatRfc3339(ms: UnixMs | number): string {
  const iso = new Date(ms).toISOString(); // deterministic: formats the given instant
  return iso.replace(/\.000Z$/, "Z").replace(/(\.\d*?)0+Z$/, "$1Z");
}
