import { create } from "@bufbuild/protobuf";
import { type Duration, DurationSchema } from "@bufbuild/protobuf/wkt";
import { type DurationMs, durationMs } from "../core/brand.js";

/** Protobuf Duration → milliseconds (sub-millisecond nanos are truncated). */
export const protoDurationMs = (d: Duration): DurationMs =>
  durationMs(Number(d.seconds) * 1000 + Math.trunc(d.nanos / 1_000_000));

export const protoDuration = (ms: DurationMs | number): Duration => {
  const seconds = Math.trunc(ms / 1000);
  return create(DurationSchema, { seconds: BigInt(seconds), nanos: (ms - seconds * 1000) * 1_000_000 });
};

/** Go `time.Duration.String()` for millisecond durations: `48h0m0s`, `1m30s`, `1.5s`, `250ms`, `0s`. */
export function goDurationString(ms: number): string {
  if (ms === 0) return "0s";
  const sign = ms < 0 ? "-" : "";
  const abs = Math.abs(ms);
  if (abs < 1000) return `${sign}${abs}ms`;
  const h = Math.floor(abs / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const restMs = abs % 60_000;
  const whole = Math.floor(restMs / 1000);
  const frac = restMs % 1000;
  const s = frac === 0 ? `${whole}` : `${whole}.${frac.toString().padStart(3, "0").replace(/0+$/, "")}`;
  if (h > 0) return `${sign}${h}h${m}m${s}s`;
  if (m > 0) return `${sign}${m}m${s}s`;
  return `${sign}${s}s`;
}
