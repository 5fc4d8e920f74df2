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
