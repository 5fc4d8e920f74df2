import { describe, expect, it } from "vitest";
import { fromUtf8, toHex, utf8 } from "../core/bytes.js";
import { errorText } from "../core/errors.js";
import type { KVStore } from "../core/kv.js";
import { MemBackend } from "./mem-backend.js";
import { prefixIterator, reversePrefixIterator } from "./prefix.js";
import { PRUNE_EVERYTHING, PRUNE_NOTHING } from "./pruning.js";
import type { MultiStore } from "./types.js";
import { ERR_VERSION_DOES_NOT_EXIST, VersionedMultiStore } from "./versioned.js";

const b = (...xs: number[]) => Uint8Array.from(xs);
const s = (x: string) => utf8(x);
const keysOf = (it: Iterable<readonly [Uint8Array, Uint8Array]>) => [...it].map(([k]) => toHex(k));
const dump = (kv: KVStore) => [...kv.iterator(undefined, undefined)].map(([k, v]) => `${fromUtf8(k)}=${fromUtf8(v)}`);
const newStore = (names = ["acc", "bank"]) => new VersionedMultiStore({ storeNames: names, pruning: PRUNE_NOTHING });
const at = (ms: VersionedMultiStore, v: number): MultiStore => {
  const r = ms.readAt(v);
  if (!r.ok) throw new Error(errorText(r.error));
  return r.value;
};

describe("VersionedMultiStore: ordering and iteration", () => {
  const keys = [
    b(),
    b(0x00),
    b(0x01),
    b(0x01, 0x00),
    b(0x01, 0xff),
    b(0x01, 0xff, 0xff),
    b(0x02),
    b(0xff),
    b(0xff, 0xff),
  ];

  for (const committed of [false, true]) {
    it(`iterates byte keys in order with prefixes in both directions (${committed ? "committed" : "working"})`, () => {
      const ms = newStore();
      const kv = ms.getKVStore("bank");
      for (const k of [...keys].reverse()) kv.set(k, b(1));
      if (committed) ms.commit();
      const view = committed ? at(ms, 1).getKVStore("bank") : kv;
      for (const store of committed ? [view, kv] : [kv]) {
        expect(keysOf(store.iterator(undefined, undefined))).toEqual(keys.map(toHex));
        expect(keysOf(store.reverseIterator(undefined, undefined))).toEqual(keys.map(toHex).reverse());
        expect(keysOf(prefixIterator(store, b(0x01)))).toEqual(["01", "0100", "01ff", "01ffff"]);
        expect(keysOf(reversePrefixIterator(store, b(0x01)))).toEqual(["01ffff", "01ff", "0100", "01"]);
        // 0xff prefixes have no prefix end: iteration runs to the end of the store
        expect(keysOf(prefixIterator(store, b(0xff)))).toEqual(["ff", "ffff"]);
        expect(keysOf(reversePrefixIterator(store, b(0xff)))).toEqual(["ffff", "ff"]);
        expect(keysOf(prefixIterator(store, b(0x01, 0xff)))).toEqual(["01ff", "01ffff"]);
        expect(keysOf(store.iterator(b(0x01), b(0x02)))).toEqual(["01", "0100", "01ff", "01ffff"]);
        expect(keysOf(store.reverseIterator(b(0x00), b(0x01)))).toEqual(["00"]);
      }
    });
  }

  it("keeps stores separate even when names are prefixes of each other", () => {
    const ms = newStore(["a", "ab", "a\u0000"]);
    ms.getKVStore("a").set(s("k"), s("1"));
    ms.getKVStore("ab").set(s("k"), s("2"));
    ms.getKVStore("a\u0000").set(s("k"), s("3"));
    ms.commit();
    for (const m of [ms, at(ms, 1)]) {
      expect(dump(m.getKVStore("a"))).toEqual(["k=1"]);
      expect(dump(m.getKVStore("ab"))).toEqual(["k=2"]);
      expect(dump(m.getKVStore("a\u0000"))).toEqual(["k=3"]);
    }
    expect(ms.storeNames()).toEqual(["a", "a\u0000", "ab"]);
  });

  it("throws for a store that is not mounted", () => {
    expect(() => newStore().getKVStore("gov")).toThrow("store does not exist for key: gov");
  });
});

describe("VersionedMultiStore: branches and the working state", () => {
  it("a branch writes into the working state on write() and is discarded when dropped", () => {
    const ms = newStore();
    const br = ms.branch();
    br.getKVStore("bank").set(s("a"), s("1"));
    expect(ms.getKVStore("bank").get(s("a"))).toBeUndefined();
    br.write();
    expect(ms.getKVStore("bank").get(s("a"))).toEqual(s("1"));
    const dropped = ms.branch();
    dropped.getKVStore("bank").set(s("a"), s("2"));
    dropped.getKVStore("bank").delete(s("a"));
    expect(ms.getKVStore("bank").get(s("a"))).toEqual(s("1"));
  });

  it("the working state sits on top of the last commit until the next one", () => {
    const ms = newStore();
    const kv = ms.getKVStore("bank");
    kv.set(s("a"), s("1"));
    ms.commit();
    kv.set(s("a"), s("2"));
    expect(kv.get(s("a"))).toEqual(s("2"));
    expect(at(ms, 1).getKVStore("bank").get(s("a"))).toEqual(s("1"));
    ms.commit();
    expect(ms.getKVStore("bank")).toBe(kv); // stable object across commits
    expect(at(ms, 2).getKVStore("bank").get(s("a"))).toEqual(s("2"));
  });

  it("discardWorking drops the uncommitted writes and the next commit is unchanged", () => {
    const ms = newStore();
    ms.getKVStore("bank").set(s("a"), s("1"));
    const c1 = ms.commit();
    ms.getKVStore("bank").set(s("a"), s("2"));
    ms.getKVStore("acc").set(s("x"), s("y"));
    ms.discardWorking();
    expect(ms.getKVStore("bank").get(s("a"))).toEqual(s("1"));
    expect(ms.getKVStore("acc").get(s("x"))).toBeUndefined();
    const c2 = ms.commit();
    expect(c2.version).toBe(2);
    expect(c2.appHash).toEqual(c1.appHash);
  });

  it("values handed out are copies", () => {
    const ms = newStore();
    ms.getKVStore("bank").set(s("a"), s("1"));
    ms.commit();
    ms.getKVStore("bank").get(s("a"))![0] = 0;
    at(ms, 1).getKVStore("bank").get(s("a"))![0] = 0;
    expect(at(ms, 1).getKVStore("bank").get(s("a"))).toEqual(s("1"));
  });
});

describe("VersionedMultiStore: versions and history", () => {
  it("numbers versions from 1 (or the initial version) and reports them", () => {
    const ms = newStore();
    expect(ms.lastCommitId()).toEqual({ version: 0, appHash: new Uint8Array(0) });
    expect([ms.latestVersion(), ms.earliestVersion()]).toEqual([0, 0]);
    expect(ms.commit().version).toBe(1);
    expect(ms.commit().version).toBe(2);
    expect([ms.latestVersion(), ms.earliestVersion()]).toEqual([2, 1]);
    const late = new VersionedMultiStore({ storeNames: ["a"], pruning: PRUNE_NOTHING, initialVersion: 100 });
    expect(late.commit().version).toBe(100);
    expect(late.commit().version).toBe(101);
    expect(late.earliestVersion()).toBe(100);
    expect(late.readAt(99).ok).toBe(false);
  });

  it("reads every retained version after overwrites and deletes", () => {
    const ms = newStore();
    const kv = ms.getKVStore("bank");
    kv.set(s("a"), s("1"));
    kv.set(s("b"), s("1"));
    ms.commit(); // 1
    kv.set(s("a"), s("2"));
    ms.commit(); // 2
    kv.delete(s("a"));
    kv.set(s("c"), s("3"));
    ms.commit(); // 3
    ms.commit(); // 4: empty
    kv.set(s("a"), s("5"));
    kv.delete(s("b"));
    ms.commit(); // 5
    const expected = [
      ["a=1", "b=1"],
      ["a=2", "b=1"],
      ["b=1", "c=3"],
      ["b=1", "c=3"],
      ["a=5", "c=3"],
    ];
    expected.forEach((e, i) => {
      const view = at(ms, i + 1).getKVStore("bank");
      expect(dump(view)).toEqual(e);
      expect([...view.reverseIterator(undefined, undefined)].map(([k]) => fromUtf8(k))).toEqual(
        e.map((x) => x.slice(0, 1)).reverse(),
      );
    });
    expect(at(ms, 3).getKVStore("bank").get(s("a"))).toBeUndefined();
    expect(at(ms, 3).getKVStore("bank").has(s("b"))).toBe(true);
  });

  it("does not record a version for writes that restore the committed value", () => {
    const ms = newStore();
    ms.getKVStore("bank").set(s("a"), s("1"));
    const c1 = ms.commit();
    ms.getKVStore("bank").set(s("a"), s("1"));
    ms.getKVStore("bank").delete(s("never"));
    expect(ms.commit().appHash).toEqual(c1.appHash);
  });

  it("rejects pruned, future and never-committed versions with the IAVL text", () => {
    const ms = new VersionedMultiStore({ storeNames: ["a"], pruning: PRUNE_EVERYTHING });
    const before = ms.readAt(0);
    expect(before.ok ? "" : errorText(before.error)).toBe(ERR_VERSION_DOES_NOT_EXIST);
    expect(ERR_VERSION_DOES_NOT_EXIST).toBe(
      "version mismatch on immutable IAVL tree; version does not exist. Version has either been pruned, or is for a future block height",
    );
    for (let i = 0; i < 10; i++) ms.commit();
    for (const v of [0, 7, 11, -1, 8.5]) expect(ms.readAt(v).ok, `version ${v}`).toBe(false);
    for (const v of [8, 9, 10]) expect(ms.readAt(v).ok).toBe(true);
    expect(ms.appHashAt(7).ok).toBe(false);
  });

  it("a view is a snapshot: later commits and pruning do not change it", () => {
    const ms = new VersionedMultiStore({ storeNames: ["a"], pruning: PRUNE_EVERYTHING });
    ms.getKVStore("a").set(s("k"), s("1"));
    ms.commit();
    const v1 = at(ms, 1);
    for (let i = 2; i <= 30; i++) {
      ms.getKVStore("a").set(s("k"), s(String(i)));
      ms.commit();
    }
    expect(ms.readAt(1).ok).toBe(false);
    expect(dump(v1.getKVStore("a"))).toEqual(["k=1"]);
  });

  it("views only mount the stores that existed at that version", () => {
    const ms = newStore(["a"]);
    ms.commit();
    ms.mountStore("b");
    expect(ms.loadLatestVersionAndUpgrade({ added: ["b"], renamed: [], deleted: [] }).ok).toBe(true);
    ms.commit();
    expect(at(ms, 1).storeNames()).toEqual(["a"]);
    expect(at(ms, 1).hasStore("b")).toBe(false);
    expect(() => at(ms, 1).getKVStore("b")).toThrow("store does not exist for key: b");
    expect(at(ms, 2).storeNames()).toEqual(["a", "b"]);
  });

  it("committed views are read-only", () => {
    const ms = newStore();
    ms.commit();
    expect(() => at(ms, 1).getKVStore("bank").set(s("a"), s("1"))).toThrow("read-only");
  });
});

describe("VersionedMultiStore: empty blocks", () => {
  it("an empty commit stores nothing per version: storage does not grow", () => {
    const backend = new MemBackend();
    const ms = new VersionedMultiStore({ storeNames: ["acc", "bank"], pruning: PRUNE_NOTHING, backend });
    ms.getKVStore("bank").set(s("a"), s("1"));
    ms.commit();
    const size = backend.size();
    for (let i = 0; i < 1000; i++) ms.commit();
    expect(backend.size()).toBe(size);
    ms.getKVStore("bank").set(s("a"), s("2"));
    ms.commit();
    expect(backend.size()).toBeGreaterThan(size);
  });

  it("an empty commit keeps the app hash and 100k of them stay correct", () => {
    const ms = newStore();
    ms.getKVStore("bank").set(s("a"), s("1"));
    const first = ms.commit();
    let last = first;
    for (let i = 0; i < 100_000; i++) last = ms.commit();
    expect(last.version).toBe(100_001);
    expect(last.appHash).toEqual(first.appHash);
    expect(dump(at(ms, 50_000).getKVStore("bank"))).toEqual(["a=1"]);
    expect(ms.appHashAt(77_777)).toEqual({ ok: true, value: first.appHash });
    ms.getKVStore("bank").set(s("a"), s("2"));
    expect(ms.commit().appHash).not.toEqual(first.appHash);
  });
});
