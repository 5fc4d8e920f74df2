import { copyBytes } from "./bytes.js";
/**
 * A deep copy of a protobuf-es message (or any tree of plain objects, arrays, byte arrays and primitives): every
 * object and array new, byte arrays copied, each object keeping its prototype and exactly its own enumerable keys.
 * What `clone(schema, m)` gives for a message, without walking the schema (several times cheaper); for memos that
 * hand each caller its own mutable message. Not for cyclic values (messages never are); bounded by `depthMax`.
 */
export function copyMessage<T>(value: T, depthMax = COPY_DEPTH_MAX): T {
  if (typeof value !== "object" || value === null) return value;
  if (depthMax <= 0) throw new Error("copyMessage: nested deeper than its bound");
  if (value instanceof Uint8Array) return copyBytes(value) as T;
  if (Array.isArray(value)) return value.map((v) => copyMessage(v, depthMax - 1)) as T;
  const out = Object.create(Object.getPrototypeOf(value)) as Record<string, unknown>;
  for (const k of Object.keys(value)) out[k] = copyMessage((value as Record<string, unknown>)[k], depthMax - 1);
  return out as T;
}

/** Nesting of the messages copied here (a plan, a proposal) is a handful of levels. */
const COPY_DEPTH_MAX = 64;
