import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareBytes, concat } from "../core/bytes.js";
import {
  decodeChange,
  encodeVersion,
  escapeBytes,
  historyKey,
  historyStorePrefix,
  keyChange,
  keyChangePrefix,
  latestKey,
  latestStorePrefix,
  storeChange,
  unescapeBytes,
} from "./layout.js";

describe("escapeBytes", () => {
  it("preserves byte order and round-trips", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), fc.uint8Array({ maxLength: 12 }), (x, y) => {
        expect(Math.sign(compareBytes(escapeBytes(x), escapeBytes(y)))).toBe(Math.sign(compareBytes(x, y)));
        expect(unescapeBytes(escapeBytes(x), 0)?.value).toEqual(x);
      }),
    );
  });

  it("is prefix-free, so a version suffix never reorders two keys", () => {
    const suffix = fc.uint8Array({ minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 6 }), fc.uint8Array({ maxLength: 6 }), suffix, suffix, (x, y, sx, sy) => {
        fc.pre(compareBytes(x, y) !== 0);
        const ex = concat(escapeBytes(x), sx);
        const ey = concat(escapeBytes(y), sy);
        expect(Math.sign(compareBytes(ex, ey))).toBe(Math.sign(compareBytes(x, y)));
      }),
    );
  });

  it("decodes change records", () => {
    expect(decodeChange(keyChange(7, "bank", Uint8Array.of(0, 0xff)))).toEqual({
      kind: "key",
      version: 7,
      store: "bank",
      key: Uint8Array.of(0, 0xff),
    });
    expect(decodeChange(storeChange(9, "up\u0000grade"))).toEqual({
      kind: "store",
      version: 9,
      store: "up\u0000grade",
    });
  });
});

describe("keys built from a store's prefixes (the commit's staging)", () => {
  it("equal the keys built whole", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 8 }),
        fc.uint8Array({ maxLength: 12 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        (store, key, version) => {
          expect(concat(latestStorePrefix(store), key)).toEqual(latestKey(store, key));
          expect(concat(historyStorePrefix(store), escapeBytes(key), encodeVersion(version))).toEqual(
            historyKey(store, key, version),
          );
          expect(concat(keyChangePrefix(version, store), key)).toEqual(keyChange(version, store, key));
        },
      ),
    );
  });
});
