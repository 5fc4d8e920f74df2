import { create, fromBinary } from "@bufbuild/protobuf";
import { type Timestamp, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { BoundedCache } from "../core/bounded-cache.js";
import { err, ok, type PlainError, plain, type Result, type SdkError, SdkErrors, wrap } from "../core/errors.js";
import { copyMessage } from "../core/message-copy.js";
import { encodeMessage } from "../core/proto-encode.js";
import { type Plan, PlanSchema } from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";

/**
 * The upgrade Plan: binary encoding (byte-identical to the reference's gogoproto encoding) and the plan rules
 * (ValidateBasic, ShouldExecute, DueAt). The reference's text form (`String()`) and `Equal` are not here: no product
 * path prints or compares a plan (docs/mutation.md, "New files").
 *
 * The deprecated `time` field is a non-nullable stdtime in the reference: a plan always HAS a time, the Go zero time
 * 0001-01-01T00:00:00Z, and the encoder always writes it. Here `time === undefined` means that zero time.
 */

/** Go's zero `time.Time` as a Timestamp: 0001-01-01T00:00:00Z. */
export const ZERO_TIME_SECONDS = -62135596800n;
export const ZERO_TIME: Timestamp = Object.freeze(
  create(TimestampSchema, { seconds: ZERO_TIME_SECONDS, nanos: 0 }),
) as Timestamp;

/** Timestamps gogoproto accepts: [0001-01-01, 10000-01-01), nanos in [0, 1e9). */
const MIN_VALID_SECONDS = -62135596800n;
const MAX_VALID_SECONDS = 253402300800n;

export const isZeroTime = (t: Timestamp | undefined): boolean =>
  t === undefined || (t.seconds === ZERO_TIME_SECONDS && t.nanos === 0);

/** Builds a plan (time = zero time, no client state). */
export const makePlan = (fields: {
  name?: string;
  height?: bigint;
  info?: string;
  time?: { seconds: bigint; nanos: number };
  upgradedClientState?: { typeUrl: string; value: Uint8Array };
}): Plan =>
  create(PlanSchema, {
    name: fields.name ?? "",
    height: fields.height ?? 0n,
    info: fields.info ?? "",
    ...(fields.time === undefined ? {} : { time: fields.time }),
    ...(fields.upgradedClientState === undefined ? {} : { upgradedClientState: fields.upgradedClientState }),
  });

/** Protobuf binary as the reference writes it: fields 1..5, zero values skipped, field 2 (time) always written. */
export function encodePlan(plan: Plan): Uint8Array {
  return encodeMessage(PlanSchema, { ...plan, time: plan.time ?? ZERO_TIME });
}

/**
 * Decodes a stored plan. Malformed bytes and out-of-range timestamps (which gogoproto's stdtime decoder rejects)
 * are errors. The decoded time is kept as written (the zero time when absent).
 */
export function decodePlan(bytes: Uint8Array): Result<Plan, PlainError> {
  if (bytes.length > PLAN_MEMO_BYTES_MAX) return decodePlanUncached(bytes);
  const d = decodedPlans.getOrCompute(latin1Of(bytes), () => decodePlanUncached(bytes));
  // Each caller gets its own plan (a message is mutable); an error is plain data, never written to.
  return d.ok ? ok(copyMessage(d.value)) : d;
}

/**
 * decodePlan memoised by the stored bytes: the plan is read several times per block and node (before and after the
 * PreBlocker, by the PreBlocker itself) and changes only when a plan is scheduled or cleared. Plans up to
 * PLAN_MEMO_BYTES_MAX bytes, at most PLANS_MAX of them.
 */
const PLANS_MAX = 1024;
const PLAN_MEMO_BYTES_MAX = 1024;
const decodedPlans = new BoundedCache<string, Result<Plan, PlainError>>(PLANS_MAX);
const latin1Of = (b: Uint8Array): string => String.fromCharCode.apply(null, b as unknown as number[]);

/** decodePlan without the memo (exported for its equivalence test). */
export function decodePlanUncached(bytes: Uint8Array): Result<Plan, PlainError> {
  let plan: Plan;
  try {
    plan = fromBinary(PlanSchema, bytes);
  } catch (e) {
    return err(plain(`proto: Plan: ${e instanceof Error ? e.message : String(e)}`));
  }
  const t = plan.time;
  if (t !== undefined) {
    const v = `&types.Timestamp{Seconds:${t.seconds}, Nanos:${t.nanos}, XXX_NoUnkeyedLiteral:struct {}{}, XXX_unrecognized:[]uint8(nil), XXX_sizecache:0}`;
    if (t.seconds < MIN_VALID_SECONDS) return err(plain(`timestamp: ${v} before 0001-01-01`));
    if (t.seconds >= MAX_VALID_SECONDS) return err(plain(`timestamp: ${v} after 10000-01-01`));
    if (t.nanos < 0 || t.nanos >= 1e9) return err(plain(`timestamp: ${v}: nanos not in range [0, 1e9)`));
  }
  return ok(plan);
}

/** Plan.ValidateBasic: checks in the reference order; the first failure wins; all wrap ErrInvalidRequest. */
export function validateBasic(plan: Plan): Result<void, SdkError> {
  if (!isZeroTime(plan.time)) {
    return err(wrap(SdkErrors.ErrInvalidRequest, "time-based upgrades have been deprecated in the SDK"));
  }
  if (plan.upgradedClientState !== undefined) {
    return err(wrap(SdkErrors.ErrInvalidRequest, "upgrade logic for IBC has been moved to the IBC module"));
  }
  if (plan.name.length === 0) return err(wrap(SdkErrors.ErrInvalidRequest, "name cannot be empty"));
  if (plan.height <= 0n) return err(wrap(SdkErrors.ErrInvalidRequest, "height must be greater than 0"));
  return ok(undefined);
}

/** True once the plan is due: `height > 0 && height <= blockHeight`; stays true for every later height. */
export const shouldExecute = (plan: Plan, blockHeight: bigint | number): boolean =>
  plan.height > 0n && plan.height <= BigInt(blockHeight);

/** `height: <height>` (used in the NEEDED and "applying upgrade" messages). */
export const dueAt = (plan: Plan): string => `height: ${plan.height}`;
