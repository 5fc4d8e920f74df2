import { type DescMessage, fromBinary, type MessageShape } from "@bufbuild/protobuf";
import { bytesToLatin1 } from "./mem-backend.js";

/**
 * A memo of `fromBinary(schema, bytes)` for stored records that are read far more often than written (a gov
 * proposal is read by every deposit, vote and EndBlocker pass, on every node that executes the block, again on a
 * stalled retry, and in every run forked from the same world). Keyed by the bytes themselves, so it is a memo of a
 * pure function: no invalidation, and a hit is exactly what decoding would give. Each call returns its own deep copy
 * (callers mutate what they read and write it back); the memoised message is never handed out.
 *
 * Only messages that are plain data all the way down are memoised (proto3: plain objects, arrays, bigints, strings,
 * numbers, booleans, byte arrays); any other decoded value (a proto2 prototype chain) is returned as decoded, not
 * memoised. `enabled = false` decodes every time (the equivalence tests run both ways). Bounded: cleared at
 * `DECODE_MEMO_MAX` entries.
 */
export class DecodeMemo<Desc extends DescMessage> {
  enabled = true;
  readonly #schema: Desc;
  readonly #memo = new Map<string, MessageShape<Desc>>();

  constructor(schema: Desc) {
    this.#schema = schema;
  }

  decode(bytes: Uint8Array): MessageShape<Desc> {
    if (!this.enabled) return fromBinary(this.#schema, bytes);
    const key = bytesToLatin1(bytes);
    const hit = this.#memo.get(key);
    if (hit !== undefined) return copyPlain(hit);
    const decoded = fromBinary(this.#schema, bytes);
    if (!isPlain(decoded, 0)) return decoded;
    if (this.#memo.size >= DECODE_MEMO_MAX) this.#memo.clear();
    this.#memo.set(key, copyPlain(decoded));
    return decoded;
  }

  /** Forgets every memoised message. */
  clear(): void {
    this.#memo.clear();
  }
}

const DECODE_MEMO_MAX = 4096;
/** Nesting a plain record may have (protobuf messages here nest a few levels). */
const DEPTH_MAX = 32;

const isPlainObject = (v: object): boolean => Object.getPrototypeOf(v) === Object.prototype;

/** True when `v` is plain data that copyPlain copies exactly. */
function isPlain(v: unknown, depth: number): boolean {
  if (depth > DEPTH_MAX) return false;
  if (v === null || typeof v !== "object") return typeof v !== "function" && typeof v !== "symbol";
  if (v instanceof Uint8Array) return v.constructor === Uint8Array;
  if (Array.isArray(v)) return v.every((x) => isPlain(x, depth + 1));
  if (!isPlainObject(v)) return false;
  for (const k of Object.keys(v)) if (!isPlain((v as Record<string, unknown>)[k], depth + 1)) return false;
  return Object.getOwnPropertySymbols(v).length === 0;
}

/** A deep copy of plain data (isPlain): same keys in the same order, byte arrays copied. */
function copyPlain<T>(v: T): T {
  if (v === null || typeof v !== "object") return v;
  if (v instanceof Uint8Array) return v.slice() as T;
  if (Array.isArray(v)) return v.map(copyPlain) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = copyPlain((v as Record<string, unknown>)[k]);
  return out as T;
}
