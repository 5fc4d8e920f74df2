/**
 * Points in simulated time as scenario files write them: `+<Go duration>` (an offset from genesis) or an RFC 3339
 * time (parsed by core/go/time's `parseRfc3339`).
 */
import { type DurationMs, type UnixMs, unixMs } from "../core/brand.js";
import { err, ok, type Result } from "../core/errors.js";
import { parseDuration } from "../core/go/duration.js";
import { parseRfc3339 } from "../core/go/time.js";
import { quoteValue } from "./errors.js";

/** A point in simulated time as written in a file: an offset from genesis (`+50h`) or an absolute time. */
export type TimeSpec =
  | { readonly kind: "offset"; readonly offsetMs: DurationMs }
  | { readonly kind: "absolute"; readonly time: UnixMs };

/** `+<Go duration>` (offset from genesis, ≥ 0) or an RFC 3339 time. */
export function parseTimeSpec(text: string): Result<TimeSpec, string> {
  if (text.startsWith("+")) {
    const d = parseDuration(text);
    if (!d.ok) return d;
    return ok({ kind: "offset", offsetMs: d.value });
  }
  const t = parseRfc3339(text);
  if (!t.ok) {
    return err(
      `expected "+<duration>" (offset from genesis, e.g. "+50h") or an RFC 3339 time, got ${quoteValue(text)}`,
    );
  }
  return ok({ kind: "absolute", time: t.value });
}

/** Resolves a time spec against the genesis time. */
export const resolveTimeSpec = (spec: TimeSpec, genesis: UnixMs): UnixMs =>
  spec.kind === "offset" ? unixMs(genesis + spec.offsetMs) : spec.time;
