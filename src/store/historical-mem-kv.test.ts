import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PlainBackend } from "../../test/kit/plain-backend.js";
import { fromHex, toHex } from "../core/bytes.js";
import type { KVStore } from "../core/kv.js";
import type { StoreBackend } from "./backend.js";
import { HistoricalMemKVStore, versionLatin1 } from "./historical-mem-kv.js";
import { encodeVersion } from "./layout.js";
import { bytesToLatin1, MemBackend } from "./mem-backend.js";
import { PRUNE_NOTHING, type PruningOptions } from "./pruning.js";
import { VersionedMultiStore } from "./versioned.js";
import { HistoricalKVStore } from "./versioned-kv.js";

/**
 * The latin1 read path of a past version (HistoricalMemKVStore, the store-name seek of CommittedStores.readAt)
 * against the byte-array path it replaced, on the same histories: every get, has and bounded iteration in both
 * directions at every retained version, and the store names of every version across store additions and
 * deletions, and which stores a fresh view has before it lists them. Keys and bounds include 0x00 (escaped) and 0xff (prefix ends) bytes.
 */

const STORES = ["acc", "bank", "gov", "g\u0000v"];
const KEYS = ["", "00", "0000", "0001", "01", "0100", "01ff", "7f", "ff", "ff00", "ffff", "02", "0201"];
const keyHex = fc.constantFrom(...KEYS);

type Op =
  | { readonly kind: "write"; readonly store: number; readonly key: string; readonly value: string | undefined }
  | { readonly kind: "commit" }
  | { readonly kind: "remove"; readonly store: number }
  | { readonly kind: "add"; readonly store: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("write" as const),
      store: fc.nat(STORES.length - 1),
      key: keyHex,
      value: fc.option(fc.constantFrom("", "00", "01", "ff"), { nil: undefined }),
    }),
  },
  { weight: 3, arbitrary: fc.constant({ kind: "commit" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("remove" as const), store: fc.nat(STORES.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("add" as const), store: fc.nat(STORES.length - 1) }) },
);

const hex = (it: Iterable<readonly [Uint8Array, Uint8Array]>) => [...it].map(([k, v]) => `${toHex(k)}=${toHex(v)}`);
const bound = (h: string | undefined) => (h === undefined ? undefined : fromHex(h));

/** Runs `ops` on a multistore over `backend`; store removals and additions go through a store upgrade. */
function build(ops: readonly Op[], backend: StoreBackend, pruning: PruningOptions): VersionedMultiStore {
  let ms = new VersionedMultiStore({ storeNames: STORES.slice(0, 3), pruning, backend });
  for (const o of ops) {
    const name = STORES[o.kind === "commit" ? 0 : o.store]!;
    if (o.kind === "write") {
      if (!ms.hasStore(name)) continue;
      const kv = ms.getKVStore(name);
      if (o.value === undefined) kv.delete(fromHex(o.key));
      else kv.set(fromHex(o.key), fromHex(o.value));
    } else if (o.kind === "commit") ms.commit();
    else if (ms.latestVersion() > 0 && ms.hasStore(name) === (o.kind === "remove")) {
      const names = o.kind === "add" ? [...ms.storeNames(), name] : ms.storeNames().filter((n) => n !== name);
      ms = ms.reopen(names, pruning);
      const upgrades = {
        added: o.kind === "add" ? [name] : [],
        renamed: [],
        deleted: o.kind === "remove" ? [name] : [],
      };
      const r = ms.loadLatestVersionAndUpgrade(upgrades);
      if (!r.ok) throw new Error(String(r.error.message));
      ms.commit();
    }
  }
  return ms;
}

function sameReads(fast: KVStore, slow: KVStore, lo: string | undefined, hi: string | undefined): void {
  expect(hex(fast.iterator(bound(lo), bound(hi)))).toEqual(hex(slow.iterator(bound(lo), bound(hi))));
  expect(hex(fast.reverseIterator(bound(lo), bound(hi)))).toEqual(hex(slow.reverseIterator(bound(lo), bound(hi))));
  // `viewEntries`, where the store has it, is the forward iteration gathered at once, values uncopied.
  if (fast.viewEntries !== undefined) {
    expect(hex(fast.viewEntries(bound(lo), bound(hi)))).toEqual(hex(slow.iterator(bound(lo), bound(hi))));
  }
  for (const k of KEYS) {
    expect(fast.get(fromHex(k))).toEqual(slow.get(fromHex(k)));
    // `view`, where the store has it, is `get` without the copy.
    if (fast.view !== undefined) expect(fast.view(fromHex(k))).toEqual(slow.get(fromHex(k)));
    expect(fast.has(fromHex(k))).toBe(slow.has(fromHex(k)));
  }
}

describe("a past version read in latin1 form equals the byte-array read", () => {
  it("gets, has and bounded iterations of every store at every retained version", () => {
    const pruning = fc.oneof(
      fc.constant(PRUNE_NOTHING),
      fc.record({
        strategy: fc.constant("custom" as const),
        keepRecent: fc.integer({ min: 2, max: 5 }),
        interval: fc.integer({ min: 3, max: 7 }),
      }),
    );
    const bounds = fc.tuple(fc.option(keyHex, { nil: undefined }), fc.option(keyHex, { nil: undefined }));
    fc.assert(
      fc.property(pruning, fc.array(op, { minLength: 10, maxLength: 120 }), bounds, (opts, ops, [lo, hi]) => {
        const mem = new MemBackend();
        const ms = build(ops, mem, opts);
        for (let v = ms.earliestVersion(); v >= 1 && v <= ms.latestVersion(); v++) {
          const snapshot = mem.fork();
          for (const name of STORES) {
            sameReads(new HistoricalMemKVStore(snapshot, name, v), new HistoricalKVStore(snapshot, name, v), lo, hi);
          }
        }
      }),
      { numRuns: 120 },
    );
  });

  it("the stores of every version, across additions and deletions", () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 10, maxLength: 120 }), (ops) => {
        const fast = build(ops, new MemBackend(), PRUNE_NOTHING);
        const slow = build(ops, new PlainBackend(), PRUNE_NOTHING);
        expect(fast.latestVersion()).toBe(slow.latestVersion());
        for (let v = 1; v <= fast.latestVersion(); v++) {
          const [f, s] = [fast.readAt(v), slow.readAt(v)];
          expect(f.ok && s.ok).toBe(true);
          if (!f.ok || !s.ok) continue;
          // A fresh view answers presence per store (one seek each) before it has listed its stores.
          for (const name of [...STORES, "absent"]) expect(f.value.hasStore(name)).toBe(s.value.hasStore(name));
          expect(f.value.storeNames()).toEqual(s.value.storeNames());
          for (const name of s.value.storeNames()) {
            expect(hex(f.value.getKVStore(name).iterator(undefined, undefined))).toEqual(
              hex(s.value.getKVStore(name).iterator(undefined, undefined)),
            );
          }
        }
      }),
      { numRuns: 120 },
    );
  });
});

describe("a forward scan of a past version over many keys", () => {
  it("equals the byte-array read across its chunks, with keys of many versions and keys born later", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(59), fc.option(fc.nat(3), { nil: undefined })), { minLength: 300, maxLength: 600 }),
        fc.integer({ min: 3, max: 40 }),
        (writes, perCommit) => {
          const mem = new MemBackend();
          const ms = new VersionedMultiStore({ storeNames: ["s"], pruning: PRUNE_NOTHING, backend: mem });
          writes.forEach(([k, v], i) => {
            const key = Uint8Array.of(k >> 4, k & 15, 0);
            if (v === undefined) ms.getKVStore("s").delete(key);
            else ms.getKVStore("s").set(key, Uint8Array.of(v, i & 255));
            if (i % perCommit === perCommit - 1) ms.commit();
          });
          ms.commit();
          const snapshot = mem.fork();
          for (let v = 1; v <= ms.latestVersion(); v++) {
            const fast = new HistoricalMemKVStore(snapshot, "s", v);
            const slow = new HistoricalKVStore(snapshot, "s", v);
            expect(hex(fast.iterator(undefined, undefined))).toEqual(hex(slow.iterator(undefined, undefined)));
            expect(hex(fast.viewEntries(undefined, undefined))).toEqual(hex(slow.iterator(undefined, undefined)));
            const lo = Uint8Array.of(2);
            expect(hex(fast.iterator(lo, Uint8Array.of(7, 3)))).toEqual(hex(slow.iterator(lo, Uint8Array.of(7, 3))));
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe("versionLatin1", () => {
  it("is encodeVersion in latin1 form for every safe integer", () => {
    for (const v of [0, 1, 255, 256, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1]) {
      expect(versionLatin1(v)).toBe(bytesToLatin1(encodeVersion(v)));
    }
    fc.assert(fc.property(fc.maxSafeNat(), (v) => versionLatin1(v) === bytesToLatin1(encodeVersion(v))));
  });
});
