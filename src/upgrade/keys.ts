import { be64, concat, fromUtf8, readBe64, utf8 } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import { err, ok, type PlainError, plain, type Result } from "../core/errors.js";
import { prefixIterator } from "../store/prefix.js";

/**
 * Store layout of x/upgrade (module consensus version 2). Keys are raw bytes in byte order:
 *   0x00                         → Plan (protobuf binary); at most one
 *   0x01 ‖ BE64(height) ‖ name   → 0x01; `height` is the block height at which the upgrade was applied
 *   0x02 ‖ moduleName            → BE64(consensus version)
 *   0x03                         → BE64(protocol version); absent means 0
 *   "upgradedIBCState/<h>/upgradedClient" and ".../upgradedConsState" → raw bytes (legacy IBC)
 * Heights are int64 values written as their uint64 two's complement, as the reference does.
 */
export const STORE_KEY = "upgrade";

export const PLAN_BYTE = 0x00;
export const DONE_BYTE = 0x01;
export const VERSION_MAP_BYTE = 0x02;
export const PROTOCOL_VERSION_BYTE = 0x03;

export const KEY_UPGRADED_IBC_STATE = "upgradedIBCState";
export const KEY_UPGRADED_CLIENT = "upgradedClient";
export const KEY_UPGRADED_CONS_STATE = "upgradedConsState";

export const planKey = (): Uint8Array => Uint8Array.of(PLAN_BYTE);
export const protocolVersionKey = (): Uint8Array => Uint8Array.of(PROTOCOL_VERSION_BYTE);
export const donePrefix = (): Uint8Array => Uint8Array.of(DONE_BYTE);
export const versionMapPrefix = (): Uint8Array => Uint8Array.of(VERSION_MAP_BYTE);

export const versionMapKey = (moduleName: string): Uint8Array => concat(versionMapPrefix(), utf8(moduleName));

/** `0x01 ‖ BE64(height) ‖ name` (reference `encodeDoneKey`). */
export const doneKey = (name: string, height: bigint): Uint8Array => concat(donePrefix(), be64(height), utf8(name));

/** The module name of a version-map key: the key without its prefix byte. */
export const moduleNameOfVersionKey = (key: Uint8Array): string => fromUtf8(key, 1);

export interface DoneEntry {
  readonly name: string;
  readonly height: bigint;
}

/**
 * Splits a done key into name and height. A key shorter than 10 bytes (prefix + 8 height bytes + at least one name
 * byte) is corrupt; the reference panics with the same text, here it is an error result.
 */
export function parseDoneKey(key: Uint8Array): Result<DoneEntry, PlainError> {
  if (key.length < 10) return err(plain(`expected key of length at least 10, got ${key.length}`));
  return ok({ name: fromUtf8(key.subarray(9)), height: BigInt.asIntN(64, readBe64(key, 1)) });
}

export const upgradedClientKey = (height: bigint): Uint8Array =>
  utf8(`${KEY_UPGRADED_IBC_STATE}/${height}/${KEY_UPGRADED_CLIENT}`);

export const upgradedConsStateKey = (height: bigint): Uint8Array =>
  utf8(`${KEY_UPGRADED_IBC_STATE}/${height}/${KEY_UPGRADED_CONS_STATE}`);

/** Legacy (consensus version 1) done marker: `0x01 ‖ name → BE64(height)`. */
export const legacyDoneKey = (name: string): Uint8Array => concat(donePrefix(), utf8(name));
export const legacyDoneValue = (height: bigint): Uint8Array => be64(height);

/**
 * Migration 1→2 of the upgrade store: every entry under prefix 0x01 is read as a legacy marker (name = key minus
 * the prefix, value = BE64 height) and rewritten as `0x01 ‖ BE64(height) ‖ name → 0x01`; the old key is deleted
 * afterwards. Entries are collected before writing (the reference iterates a snapshot), and processed in byte order.
 * A legacy value that is not 8 bytes is corrupt and fails the migration before anything is written.
 */
export function migrateDoneKeysV1ToV2(ctx: Ctx): Result<void, PlainError> {
  const store = ctx.kv(STORE_KEY);
  const entries: { key: Uint8Array; height: bigint }[] = [];
  for (const [key, value] of prefixIterator(store, donePrefix())) {
    if (value.length < 8) {
      const name = JSON.stringify(fromUtf8(key.subarray(1)));
      return err(plain(`invalid legacy done marker for upgrade ${name}: value of length ${value.length}`));
    }
    entries.push({ key, height: BigInt.asIntN(64, readBe64(value)) });
  }
  for (const e of entries) {
    // The name bytes are copied as they are (no UTF-8 round trip).
    store.set(concat(donePrefix(), be64(e.height), e.key.subarray(1)), Uint8Array.of(1));
    store.delete(e.key);
  }
  return ok(undefined);
}
