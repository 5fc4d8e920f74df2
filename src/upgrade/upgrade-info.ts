import { create } from "@bufbuild/protobuf";
import { AnySchema } from "@bufbuild/protobuf/wkt";
import { BoundedCache } from "../core/bounded-cache.js";
import { utf8 } from "../core/bytes.js";
import { type PlainError, plain } from "../core/errors.js";
import { type GoJsonNode, goFoldName, goJsonQuote, goKindName, parseGoJson } from "../core/go/json.js";
import { goTimeUnmarshalJson } from "../core/go/time.js";
import { copyMessage } from "../core/message-copy.js";
import type { Plan } from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { makePlan } from "./plan.js";

/**
 * `upgrade-info.json`: Go `encoding/json` of the reference Plan struct, whose JSON tags are `name,omitempty`,
 * `time` (always present), `height,omitempty` (a JSON number), `info,omitempty`, `upgraded_client_state,omitempty`.
 */

export const UPGRADE_INFO_FILENAME = "upgrade-info.json";

const ZERO_TIME_JSON = '"0001-01-01T00:00:00Z"';

/**
 * The bytes DumpUpgradeInfoToDisk writes for a plan: `{name, time, height, info}` in struct order, no whitespace,
 * no trailing newline. The written plan never carries a time or a client state (the dump drops both), so `time`
 * is always the zero time. E.g. `{"name":"test","time":"0001-01-01T00:00:00Z","height":11}`.
 */
export function planToUpgradeInfoJson(plan: Pick<Plan, "name" | "height" | "info">): string {
  const parts: string[] = [];
  if (plan.name !== "") parts.push(`"name":${goJsonQuote(plan.name)}`);
  parts.push(`"time":${ZERO_TIME_JSON}`);
  if (plan.height !== 0n) parts.push(`"height":${plan.height}`);
  if (plan.info !== "") parts.push(`"info":${goJsonQuote(plan.info)}`);
  return `{${parts.join(",")}}`;
}

/** Result of decoding: Go returns the (possibly partly filled) plan together with the error. */
export type UpgradeInfoDecode =
  | { readonly ok: true; readonly value: Plan }
  | { readonly ok: false; readonly error: PlainError; readonly plan: Plan };

type Field = "name" | "time" | "height" | "info" | "upgraded_client_state";
const FIELDS: readonly Field[] = ["name", "time", "height", "info", "upgraded_client_state"];
const GO_TYPES: Record<Field, string> = {
  name: "string",
  time: "time.Time",
  height: "int64",
  info: "string",
  upgraded_client_state: "types.Any",
};

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64) on a JSON number literal: plain decimal integers within int64 only. */
function parseInt64(text: string): bigint | undefined {
  if (!/^-?[0-9]+$/.test(text)) return undefined;
  const v = BigInt(text);
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

const typeError = (kind: string, field: Field): PlainError =>
  plain(`json: cannot unmarshal ${kind} into Go struct field Plan.${field} of type ${GO_TYPES[field]}`);

/** Go's field lookup: an exact key match first, else the case-insensitive (folded) match. */
function fieldOf(key: string): Field | undefined {
  const exact = FIELDS.find((f) => f === key);
  if (exact !== undefined) return exact;
  const folded = goFoldName(key);
  return FIELDS.find((f) => goFoldName(f) === folded);
}

/**
 * `json.Unmarshal(data, &plan)` with Go's semantics: syntax errors first (whole document), unknown keys ignored,
 * keys matched case-insensitively, a later duplicate key overwriting an earlier one, `null` leaving a value
 * field unchanged (and clearing the client state pointer), type mismatches recorded (the first one is reported)
 * while decoding continues, and `time` errors (from its UnmarshalJSON) aborting the decode at once.
 */
export function parseUpgradeInfoJson(text: string): UpgradeInfoDecode {
  const d = decoded.getOrCompute(text, decodeUncached);
  // Each caller gets its own plan (a message is mutable); the errors are plain data, never written to.
  return d.ok ? { ok: true, value: copyMessage(d.value) } : { ok: false, error: d.error, plan: copyMessage(d.plan) };
}

/**
 * Decodes by file text, memoised (a pure function of the text; every node start and every sidecar reads the file,
 * and a chain writes only a few distinct ones). Bounded: at most DECODED_MAX texts.
 */
const DECODED_MAX = 1024;
const decoded = new BoundedCache<string, UpgradeInfoDecode>(DECODED_MAX);

function decodeUncached(text: string): UpgradeInfoDecode {
  const bytes = utf8(text);
  const plan = makePlan({});
  const parsed = parseGoJson(bytes);
  if (!parsed.ok) return { ok: false, error: parsed.error, plan };
  const root = parsed.value;
  if (root.kind === "null") return { ok: true, value: plan };
  if (root.kind !== "object") {
    return {
      ok: false,
      error: plain(`json: cannot unmarshal ${goKindName(root)} into Go value of type types.Plan`),
      plan,
    };
  }
  let saved: PlainError | undefined;
  const save = (e: PlainError) => {
    saved ??= e;
  };
  for (const { key, value } of root.entries) {
    const field = fieldOf(key);
    if (field === undefined) continue;
    const aborted = assign(plan, field, value, bytes, save);
    if (aborted !== undefined) return { ok: false, error: aborted, plan };
  }
  return saved === undefined ? { ok: true, value: plan } : { ok: false, error: saved, plan };
}

/** Stores one JSON value into a plan field; returns an error only when decoding must stop (time.UnmarshalJSON). */
function assign(
  plan: Plan,
  field: Field,
  value: GoJsonNode,
  bytes: Uint8Array,
  save: (e: PlainError) => void,
): PlainError | undefined {
  switch (field) {
    case "name":
    case "info":
      if (value.kind === "string") plan[field] = value.value;
      else if (value.kind !== "null") save(typeError(goKindName(value), field));
      return undefined;
    case "height":
      if (value.kind === "number") {
        const n = parseInt64(value.text);
        if (n === undefined) save(typeError(`number ${value.text}`, field));
        else plan.height = n;
      } else if (value.kind !== "null") save(typeError(goKindName(value), field));
      return undefined;
    case "time": {
      if (value.kind === "null") return undefined;
      const t = goTimeUnmarshalJson(bytes.subarray(value.start, value.end));
      if (!t.ok) return t.error;
      plan.time = t.value;
      return undefined;
    }
    case "upgraded_client_state":
      // The reference Any accepts any JSON value in its UnmarshalJSON; null resets the pointer.
      if (value.kind === "null") plan.upgradedClientState = undefined;
      else plan.upgradedClientState = create(AnySchema);
      return undefined;
  }
}
