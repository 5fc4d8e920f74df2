import { describe, expect, it } from "vitest";
import { toHex, utf8 } from "../core/bytes.js";
import { MemBackend } from "./mem-backend.js";
import { PRUNE_EVERYTHING, PRUNE_NOTHING, type PruningOptions } from "./pruning.js";
import { VersionedMultiStore } from "./versioned.js";

/**
 * The store's execution key (what lets a node adopt a clone of another node's store instead of executing a block)
 * and the memoized content hashes: equal keys only for equal histories, and hashes that follow every write.
 */
const NAMES = ["a", "b"];
const k = (s: string) => utf8(s);
const fresh = (pruning: PruningOptions = PRUNE_NOTHING, names: readonly string[] = NAMES) =>
  new VersionedMultiStore({ storeNames: names, pruning });
const put = (s: VersionedMultiStore, store: string, key: string, value: string) =>
  s.getKVStore(store).set(k(key), k(value));

describe("VersionedMultiStore.executionKey", () => {
  it("is equal for stores built by the same commits and differs after a different write", () => {
    const x = fresh();
    const y = fresh();
    const z = fresh();
    for (const s of [x, y, z]) {
      put(s, "a", "k", "1");
      s.commit();
    }
    put(x, "b", "k", "2");
    put(y, "b", "k", "2");
    put(z, "b", "k", "3");
    for (const s of [x, y, z]) s.commit();
    expect(x.executionKey()).toBeDefined();
    expect(y.executionKey()).toBe(x.executionKey());
    expect(z.executionKey()).not.toBe(x.executionKey());
  });

  it("differs for equal latest content reached through different histories", () => {
    const x = fresh();
    const y = fresh();
    put(x, "a", "k", "1");
    x.commit();
    x.getKVStore("a").delete(k("k"));
    x.commit();
    y.commit();
    y.commit();
    expect(x.lastCommitId()).toEqual(y.lastCommitId());
    expect(x.executionKey()).not.toBe(y.executionKey());
  });

  it("is the same after idle commits made one by one or at once, across pruning heights", () => {
    const x = fresh(PRUNE_EVERYTHING);
    const y = fresh(PRUNE_EVERYTHING);
    for (const s of [x, y]) {
      for (let v = 1; v <= 5; v++) {
        put(s, "a", `k${v % 2}`, `v${v}`);
        s.commit();
      }
    }
    for (let i = 0; i < 27; i++) x.commit();
    y.commitEmpty(27);
    expect(y.latestVersion()).toBe(32);
    expect(y.earliestVersion()).toBe(x.earliestVersion());
    expect(y.executionKey()).toBe(x.executionKey());
  });

  it("is undefined while the working state holds writes, and back after commit or discard", () => {
    const s = fresh();
    s.commit();
    const before = s.executionKey();
    put(s, "a", "k", "1");
    expect(s.executionKey()).toBeUndefined();
    s.discardWorking();
    expect(s.executionKey()).toBe(before);
    put(s, "a", "k", "1");
    s.commit();
    expect(s.executionKey()).toBeDefined();
    expect(s.executionKey()).not.toBe(before);
  });

  it("covers the mounted and live stores and the pruning options", () => {
    const x = fresh();
    x.commit();
    expect(fresh(PRUNE_NOTHING, ["a", "b", "c"]).executionKey()).not.toBe(fresh().executionKey());
    expect(fresh(PRUNE_EVERYTHING).executionKey()).not.toBe(fresh().executionKey());
    const added = x.reopen(["a", "b", "c"]);
    expect(added.loadLatestVersionAndUpgrade({ added: ["c"], renamed: [], deleted: [] }).ok).toBe(true);
    const plain = x.clone().reopen(["a", "b"]);
    expect(plain.loadLatestVersion().ok).toBe(true);
    expect(added.executionKey()).not.toBe(plain.executionKey());
  });

  it("survives clone and reopen with the same pruning; reopening with other pruning options changes it", () => {
    const s = fresh();
    put(s, "a", "k", "1");
    s.commit();
    const key = s.executionKey();
    expect(s.clone().executionKey()).toBe(key);
    const same = s.clone().reopen(NAMES);
    expect(same.loadLatestVersion().ok).toBe(true);
    expect(same.executionKey()).toBe(key);
    const other = s.clone().reopen(NAMES, PRUNE_EVERYTHING).reopen(NAMES, PRUNE_NOTHING);
    expect(other.loadLatestVersion().ok).toBe(true);
    expect(other.executionKey()).not.toBe(key);
  });

  it("is undefined for a store opened over a backend that already has commits (history unknown)", () => {
    const backend = new MemBackend();
    const s = new VersionedMultiStore({ storeNames: NAMES, pruning: PRUNE_NOTHING, backend });
    s.commit();
    const reopened = new VersionedMultiStore({ storeNames: NAMES, pruning: PRUNE_NOTHING, backend });
    expect(reopened.executionKey()).toBeUndefined();
  });

  it("a clone carries the committed state: same versions, hashes and reads, and commits on independently", () => {
    const s = fresh(PRUNE_EVERYTHING);
    for (let v = 1; v <= 12; v++) {
      put(s, "a", "k", `v${v}`);
      s.commit();
    }
    const c = s.clone();
    expect(c.lastCommitId()).toEqual(s.lastCommitId());
    expect([c.latestVersion(), c.earliestVersion()]).toEqual([s.latestVersion(), s.earliestVersion()]);
    for (let v = s.earliestVersion(); v <= s.latestVersion(); v++) expect(c.appHashAt(v)).toEqual(s.appHashAt(v));
    put(c, "b", "x", "1");
    c.commit();
    put(s, "b", "x", "1");
    s.commit();
    expect(c.lastCommitId()).toEqual(s.lastCommitId());
    expect(c.executionKey()).toBe(s.executionKey());
  });
});

describe("memoized content hashes", () => {
  const hashAfter = (writes: [string, string][]): string => {
    const s = fresh();
    for (const [key, value] of writes) put(s, "a", key, value);
    return toHex(s.commit().appHash);
  };

  it("commit after workingAppHash gives the working hash when nothing changed in between", () => {
    const s = fresh();
    put(s, "a", "k", "1");
    const working = toHex(s.workingAppHash());
    expect(toHex(s.commit().appHash)).toBe(working);
    expect(working).toBe(hashAfter([["k", "1"]]));
  });

  it("a write after workingAppHash (direct or through a branch) is in the committed hash", () => {
    const s = fresh();
    put(s, "a", "k", "1");
    const first = toHex(s.workingAppHash());
    put(s, "a", "k", "2");
    expect(toHex(s.workingAppHash())).toBe(hashAfter([["k", "2"]]));
    const b = s.branch();
    b.getKVStore("a").set(k("m"), k("3"));
    b.write();
    const committed = toHex(s.commit().appHash);
    expect(committed).not.toBe(first);
    expect(committed).toBe(
      hashAfter([
        ["k", "2"],
        ["m", "3"],
      ]),
    );
  });

  it("a hash computed before a commit is not reused after it", () => {
    const s = fresh();
    put(s, "a", "k", "1");
    s.workingAppHash();
    s.commit();
    put(s, "a", "k", "1");
    expect(toHex(s.workingAppHash())).toBe(hashAfter([["k", "1"]]));
    s.getKVStore("a").delete(k("k"));
    expect(toHex(s.commit().appHash)).not.toBe(hashAfter([["k", "1"]]));
  });
});
